"""The board check opens on a map of the board that says what the text pages say: with whole
names, numbered palace spaces and rings that read as rings, in parts (rows) where the grid has no room for them."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest

from companion.engine import AREAS, snapshot
from companion.flow.autoplay import Table
from companion.flow.board_text import NAMES
from companion.flow.controller import Controller
from companion.flow.views import map_view
from display.board_map import CUTS, PLACES
from display.pages import paginate
from display.render import PLAYER_COLOURS, render
from display.screen import MapArea, Screen


def test_the_map_shows_every_area_with_its_houses_palaces_and_advisors() -> None:
    controller = Controller(random.Random(5))
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=False)
    table.setup()
    while controller.state is None or controller.state.year < 6:
        table.turn()
    snap = snapshot(controller.state)
    screen = map_view(snap)
    assert screen.board is not None and [a.name for a in screen.board] == [NAMES[a] for a in AREAS]
    for area, drawn in zip(AREAS[:6], screen.board, strict=False):
        assert dict(drawn.houses) == snap["districts"][area]["houses"]
        assert list(drawn.palaces) == snap["districts"][area]["palaces"]
    standing = sorted(
        a["controller"] for a in [*(snap["advisors"][d] for d in AREAS[:6]), *snap["advisors"]["quarantia"]] if a
    )
    assert sorted(ring for drawn in screen.board for ring in drawn.advisors) == standing
    for size in ((160, 128), (240, 240), (320, 240)):
        problems: list[str] = []
        for part in paginate(screen, size):
            render(part, size, problems)
        assert problems == []


def rings_drawn(screen: Screen, size: tuple[int, int], index: int) -> list[tuple[Any, int, int, int]]:
    """The rings drawn for area ``index``, read from the pixels: the picture with only that area's advisors less the
    picture with none; each connected patch of a player's colour is one ring, as (colour, centre x, centre y, width).
    """
    assert screen.board is not None
    bare = tuple(replace(area, advisors=()) for area in screen.board)
    only = tuple(area if i == index else bare[i] for i, area in enumerate(screen.board))
    with_rings = render(replace(screen, board=only), size)
    without = render(replace(screen, board=bare), size)
    colours = set(PLAYER_COLOURS.values())
    spots = {
        (x, y)
        for x in range(size[0])
        for y in range(size[1])
        if with_rings.getpixel((x, y)) != without.getpixel((x, y)) and with_rings.getpixel((x, y)) in colours
    }
    rings = []
    while spots:
        patch, todo = set(), [spots.pop()]
        while todo:
            x, y = todo.pop()
            patch.add((x, y))
            colour = with_rings.getpixel((x, y))
            for near in ((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                if near in spots and with_rings.getpixel(near) == colour:
                    spots.remove(near)
                    todo.append(near)
        xs, ys = [x for x, _y in patch], [y for _x, y in patch]
        rings.append((colour, (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2, max(xs) - min(xs) + 1))
    return rings


@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)])
def test_every_advisor_is_a_ring_in_its_controllers_colour_in_its_area_at_every_size(size: tuple[int, int]) -> None:
    """At 160x128 too (there, and at 240x240, the map comes in parts, a district to a row)."""
    controller = Controller(random.Random(5))
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=False)
    table.setup()

    def interesting(board: tuple[MapArea, ...]) -> bool:
        """Rings in every row of the map (the Quarantia's is the third), two players' in one district."""
        rows = {PLACES[index][1] for index, area in enumerate(board[:6]) if area.advisors}
        return bool(board[6].advisors) and rows >= {0, 1} and any(len(set(area.advisors)) > 1 for area in board[:6])

    while controller.state is None or not interesting(map_view(snapshot(controller.state)).board or ()):
        assert controller.state is None or not controller.state.is_over, "no board with advisors to check"
        table.turn()
    snap = snapshot(controller.state)
    screen = map_view(snap)
    assert screen.board is not None
    standing = [*(snap["advisors"][d] for d in AREAS[:6]), *snap["advisors"]["quarantia"]]
    parts = paginate(screen, size)
    if len(parts) > 1:  # the map in rows: each area's rings in its own row of its part, in the order of the rows
        for part, cut in zip(parts, CUTS[len(parts)], strict=True):
            heights = []
            for index in cut:
                expected = sorted(PLAYER_COLOURS[a["controller"]] for a in standing if a and a["area"] == AREAS[index])
                rings = rings_drawn(part, size, index)
                assert sorted(colour for colour, *_rest in rings) == expected, (size, AREAS[index])
                assert all(width >= 9 for *_rest, width in rings), "a ring, not a dot"
                heights.append([y for _colour, _x, y, _width in rings])
            drawn = [ys for ys in heights if ys]
            assert all(max(a) < min(b) for a, b in itertools.pairwise(drawn)), "row after row"
        return
    rows: dict[int, list[int]] = {0: [], 1: [], 2: []}
    for index, area in enumerate(AREAS):
        expected = sorted(PLAYER_COLOURS[a["controller"]] for a in standing if a and a["area"] == area)
        rings = rings_drawn(screen, size, index)
        assert sorted(colour for colour, *_rest in rings) == expected, (size, area)
        column, row = PLACES[index] if index < 6 else (None, 2)
        for _colour, x, y, width in rings:
            if column is not None:
                assert column * size[0] // 3 <= x < (column + 1) * size[0] // 3, (size, area, x)
            assert width >= 9, "a ring, not a dot"
            rows[row].append(y)
    assert rows[0] and rows[1] and rows[2]
    assert max(rows[0]) < min(rows[1]) and max(rows[1]) < min(rows[2]), "north, south, then the Quarantia"


@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)])
def test_a_quarantia_advisor_is_filled_beside_a_district_advisors_outline(size: tuple[int, int]) -> None:
    """A read-through at a table: Red's Castello advisor and Red's Quarantia advisor, both in San Polo, were two
    identical red rings. Both are Red's mark (display/marks.py), the Quarantia's filled (its centre drawn), the
    district's an outline, and the advisors page says what the filled one means."""
    from companion.engine import State, set_up
    from companion.flow.views import board_view

    state = State(["red", "blue", "green"])
    state.shuffle(range(7))
    state.shuffle(range(7))
    set_up(state, advisors={"castello": ("red", "san_polo")}, quarantia=[("red", "san_polo")])
    snap = snapshot(state)
    screen = map_view(snap)
    assert screen.board is not None
    index = AREAS.index("san_polo")
    assert screen.board[index].advisors == ("red", "red") and screen.board[index].from_quarantia == 1
    part = next(p for p in paginate(screen, size) if _shows(p, size, index))
    bare = tuple(replace(area, advisors=(), from_quarantia=0) for area in part.board or ())
    only = tuple(area if i == index else bare[i] for i, area in enumerate(part.board or ()))
    picture, empty = render(replace(part, board=only), size), render(replace(part, board=bare), size)
    red = PLAYER_COLOURS["red"]
    shapes = [(colour, x, y, width) for colour, x, y, width in rings_drawn(part, size, index)]
    assert [colour for colour, *_rest in shapes] == [red, red], shapes
    centres = []
    for _colour, x, y, _width in sorted(shapes, key=lambda shape: shape[1]):
        centres.append(picture.getpixel((x, y)) == red and empty.getpixel((x, y)) != red)
    assert centres == [False, True], "the district's advisor an outline, then the Quarantia's filled"
    advisors_page = " ".join(line.text for line in board_view(snap, 2).lines)
    assert "Quarantia advisor's mark is filled" in advisors_page, advisors_page


def _shows(part: Screen, size: tuple[int, int], index: int) -> bool:
    return bool(rings_drawn(part, size, index))


def test_the_map_carries_its_key_at_every_size_and_on_the_summary_picture() -> None:
    """The map once had no key, in the game or the summary picture: under the Quarantia now, on one line in the
    grid, wrapped on the last part where the map comes in parts (the summary picture's: tests/test_summary.py)."""
    controller = Controller(random.Random(5))
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=False)
    table.setup()
    while controller.state is None or controller.state.year < 4:
        table.turn()
    screen = map_view(snapshot(controller.state))
    assert screen.legend == ("○ advisor · ● Quarantia advisor · 3-7 palaces",)
    for size in ((160, 128), (240, 240), (320, 240)):
        last = paginate(screen, size)[-1]
        problems: list[str] = []
        drawn = render(last, size, problems)
        assert problems == [] and drawn.tobytes() != render(replace(last, legend=()), size).tobytes(), size
