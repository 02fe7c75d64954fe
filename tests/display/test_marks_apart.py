"""Each player's mark differs from every other player's in its shape, not only in its colour (WCAG 2.2, 1.4.1),
and still shows, through a simulation of protanopia, deuteranopia and tritanopia (tests/colour_vision.py): on the
board map at every display size and type size, on the palace chart and on the summary picture. The table view's
marks: tests/web/test_table_marks.py.

A piece is put on an empty board for one player at a time; its mask is where the picture differs from the empty
board's (colour set aside), and no two players' masks may be the same shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.engine import State, set_up, snapshot
from companion.flow.views import chart_view, map_view
from display.pages import paginate
from display.render import PLAYER_COLOURS, render
from display.screen import Screen
from display.summary import summary_image
from tests.colour_vision import MACHADO, alike, distances, masks_through

PLAYERS = ("red", "blue", "green", "yellow")
# One piece of one player's in San Polo: each kind of piece the map gives a player's mark.
PIECES: dict[str, Callable[[str], dict[str, Any]]] = {
    "houses": lambda player: {"houses": {"san_polo": {player: 2}}},
    "palace": lambda player: {"palaces": {"san_polo": [player]}},
    "advisor": lambda player: {"advisors": {"castello": (player, "san_polo")}},
    "Quarantia advisor": lambda player: {"quarantia": [(player, "san_polo")]},
}
SIZES = [((160, 128), "normal"), ((160, 128), "large"), ((240, 240), "normal"), ((320, 240), "normal")]


def board(**pieces: Any) -> Screen:
    state = State(list(PLAYERS))
    state.shuffle(range(7))
    state.shuffle(range(7))
    set_up(state, **pieces)
    return map_view(snapshot(state))


def drawn(screen: Screen, size: tuple[int, int], text_size: str) -> list[Image.Image]:
    """Every part of ``screen`` as the device shows it."""
    return [render(part, size, None, text_size) for part in paginate(screen, size, text_size)]


@pytest.mark.parametrize("deficiency", sorted(MACHADO))
@pytest.mark.parametrize(("size", "text_size"), SIZES)
@pytest.mark.parametrize("piece", sorted(PIECES))
def test_each_players_pieces_on_the_map_differ_in_shape(
    piece: str, size: tuple[int, int], text_size: str, deficiency: str
) -> None:
    empty = drawn(board(), size, text_size)
    marks = {}
    for player in PLAYERS:
        pictures = drawn(board(**PIECES[piece](player)), size, text_size)
        assert len(pictures) == len(empty), "the same parts as the empty board's"
        marks[player] = masks_through(pictures, empty, deficiency)
    assert alike(marks) == [], (piece, size, text_size, deficiency)


def chart(player: str) -> Screen:
    """One player's palace chart, its legend the same words whoever it is: only the mark can differ."""
    return replace(chart_view(((player, (0, 1, 3)),)), legend=("P",))


@pytest.mark.parametrize("deficiency", sorted(MACHADO))
@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)])
def test_each_players_chart_marks_differ_in_shape(size: tuple[int, int], deficiency: str) -> None:
    bare = render(replace(chart(PLAYERS[0]), chart=(("red", ()),)), size)  # the axes alone: no line, no mark
    marks = {player: masks_through([render(chart(player), size)], [bare], deficiency) for player in PLAYERS}
    assert alike(marks) == [], (size, deficiency)


@pytest.mark.parametrize("deficiency", sorted(MACHADO))
def test_each_players_marks_on_the_summary_picture_differ_in_shape(deficiency: str) -> None:
    """The summary picture's map (with its key, no footer) and chart, as flow/ending.py's summary_pages lays
    them out."""
    empty_board = replace(board(), footer="")
    bare_chart = replace(chart(PLAYERS[0]), chart=(("red", ()),), footer="")
    for piece in sorted(PIECES):
        empty = summary_image([empty_board, bare_chart])
        marks = {}
        for player in PLAYERS:
            picture = summary_image([replace(board(**PIECES[piece](player)), footer=""), bare_chart])
            marks[player] = masks_through([picture], [empty], deficiency)
        assert alike(marks) == [], (piece, deficiency)
    empty = summary_image([empty_board, bare_chart])
    marks = {
        player: masks_through([summary_image([empty_board, replace(chart(player), footer="")])], [empty], deficiency)
        for player in PLAYERS
    }
    assert alike(marks) == [], ("chart", deficiency)


@pytest.mark.parametrize("deficiency", [None, *sorted(MACHADO)])
def test_the_four_colours_stay_apart_through_each_deficiency(deficiency: str | None) -> None:
    """docs/architecture.md, "Telling players apart": the least distance between two of the four colours, in CIELAB,
    is 38 or more with normal vision and through each deficiency (the colours before it: 15.9 with deuteranopia)."""
    nearest = min(distances([PLAYER_COLOURS[p] for p in PLAYERS], deficiency))
    assert nearest >= 38, (deficiency, round(nearest, 1))


def test_the_table_view_has_the_lcds_colours() -> None:
    css = (Path(__file__).resolve().parents[2] / "companion" / "web" / "static" / "style.css").read_text()
    found = dict(re.findall(r"--(red|blue|green|yellow): #([0-9a-f]{6})", css))
    assert {p: tuple(bytes.fromhex(found[p])) for p in PLAYERS} == {p: PLAYER_COLOURS[p] for p in PLAYERS}
