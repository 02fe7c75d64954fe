"""The board as a schematic map: the six districts placed roughly as on the real board, the Quarantia beneath.

Each district shows its name, the houses of each player as the player's mark (display/marks.py) and a count in
their colour, its five palace spaces marked 3 to 7 (once built: filled in the owner's colour, the owner's mark cut
out of it where the number was) and the advisors standing there as the controller's mark in outline (a Quarantia
advisor's filled): in a row of their own where there is room, else at the end of the district's name line. Under
the Quarantia, the key: what the pieces' marks mean, then each player's mark beside their name. Shapes and colours
both tell the players apart, so a player who cannot tell red from green still can (docs/architecture.md).

Where the grid has no room for all of that (a name cut, the spaces' numbers or the rings too small: 160x128 and
240x240), the renderer reports it and the map is shown in parts (display/pages.py): the districts one to a row, two
lines each, west to east and north to south as on the board, the Quarantia last, the key under it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from .marks import draw_mark, mark_of
from .screen import MapArea

Colour = tuple[int, int, int]
# (column, row) of each district on a 3 x 2 grid, in the order cannaregio, castello, dorsoduro, san_marco, san_polo,
# santa_croce: Santa Croce west, Cannaregio north, Castello east; Dorsoduro south-west, San Polo centre, San Marco.
PLACES = ((1, 0), (2, 0), (0, 1), (2, 1), (1, 1), (0, 0))
RING_ON_NAME = 3  # radius of the rings drawn on a district's name line when no row is left for them
RING = 4  # the smallest ring radius that reads as a ring across a table, not a dot
# The map in 2 to 5 parts: the districts in rows, west to east, the north row first, then the Quarantia (6); the
# key under the last part's rows (in 5, on a part of its own: 160x128 with the large type).
CUTS = {
    2: ((5, 0, 1), (2, 4, 3, 6)),
    3: ((5, 0), (1, 2), (4, 3, 6)),
    4: ((5, 0), (1, 2), (4, 3), (6,)),
    5: ((5, 0), (1, 2), (4, 3), (6,), ()),
}


def draw_board(
    draw: ImageDraw.ImageDraw,
    areas: Sequence[MapArea],
    box: tuple[int, int, int, int],
    faces: tuple[Any, Any],
    colours: Mapping[str, Colour],
    ink: tuple[Colour, Colour, Colour],
    part: tuple[int, int] | None = None,
    problems: list[str] | None = None,
    key: str = "",
    players: Sequence[tuple[str, str]] = (),
) -> None:
    """``faces``: the name font and the small font; ``ink``: text, dim and background colours; ``part``: (k, n) to
    draw the k-th of n parts as rows; ``key``: what the marks mean, under the Quarantia (in the grid on one line,
    in parts wrapped on the last); ``players``: each player's colour and name, their marks' key after it. What the
    grid has to shorten or leave out goes to ``problems``."""
    if part is not None:
        _rows(draw, areas, box, faces, colours, ink, part, problems, key, players)
        return
    found: list[str] = []
    left, top, right, bottom = box
    text, dim, _background = ink
    small = faces[1]
    line = int(getattr(small, "size", 9)) + 1
    strip = line + 6
    if key:  # the key on a line of its own under the Quarantia's, if it has room there
        if draw.textlength(key, font=small) > right - left - 6:
            found.append("no room for the key")
        strip += line
    if players:  # the players' marks on a line of their own, under the key
        if _players_width(draw, players, small, line) > right - left - 6:
            found.append("no room for the players' marks")
        strip += line
    cell_w = (right - left) // 3
    cell_h = (bottom - top - strip - 2) // 2
    if cell_h < 2 * line:  # no room for the grid under the screen's lines: it comes in parts (display/pages.py)
        if problems is not None:
            problems.append("map: no room for the grid")
        return
    for area, (column, row) in zip(areas[:6], PLACES, strict=False):
        x0, y0 = left + column * cell_w, top + row * cell_h
        _district(draw, area, (x0, y0, x0 + cell_w - 2, y0 + cell_h - 2), faces, colours, ink, line, found)
    if len(areas) > 6:
        quarantia = areas[6]
        y0 = top + 2 * cell_h
        draw.rectangle((left, y0, right - 2, y0 + strip), outline=dim)
        draw.text((left + 3, y0 + 2), _short(draw, quarantia.name, small, cell_w), font=small, fill=text)
        x = left + 3 + int(draw.textlength(quarantia.name, font=small)) + 6
        below = (line if key else 0) + (line if players else 0)
        centre = y0 + (strip - below) // 2
        _rings(draw, quarantia.advisors, x, centre, line // 2, colours, squares=quarantia.from_quarantia)
        if key:
            draw.text((left + 3, y0 + line + 3), key, font=small, fill=dim)
        if players:
            _players(draw, players, (left + 3, y0 + line + 3 + (line if key else 0)), small, line, colours)
    if problems is not None:
        problems.extend(f"map: {problem}" for problem in dict.fromkeys(found))


def parts(areas: Sequence[MapArea], part: tuple[int, int]) -> list[MapArea]:
    """The areas of part k of n (``CUTS``): the districts in rows (``ROWS``), the Quarantia with the last."""
    k, n = part
    return [areas[index] for index in CUTS[n][k - 1] if index < len(areas)]


def _rows(
    draw: ImageDraw.ImageDraw,
    areas: Sequence[MapArea],
    box: tuple[int, int, int, int],
    faces: tuple[Any, Any],
    colours: Mapping[str, Colour],
    ink: tuple[Colour, Colour, Colour],
    part: tuple[int, int],
    problems: list[str] | None,
    key: str = "",
    players: Sequence[tuple[str, str]] = (),
) -> None:
    """Part of the map as rows: the name and the houses on the first line; the palace spaces, numbered, and the
    advisors on the second (the Quarantia: its name and advisors on one); the key, wrapped, and the players' marks
    under the last part's rows."""
    left, top, right, bottom = box
    text, dim, background = ink
    name_face, small = faces
    line = int(getattr(small, "size", 9)) + 1
    slot = line - 1
    y = top
    for area in parts(areas, part):
        quarantia = area is areas[-1] and len(areas) > 6
        height = line + 1 if quarantia else 2 * line + 1
        if y + height > bottom:
            if problems is not None:
                problems.append(f"map: no room for {area.name}")
            return
        draw.line((left, y + height, right, y + height), fill=dim)
        radius = _house_radius(name_face)
        houses = [(p, str(n), _house_width(draw, str(n), name_face, radius)) for p, n in area.houses]
        houses_width = sum(width + 4 for _player, _label, width in houses)
        name = area.name  # gives way to the houses: whose they are is worth more than its last letters
        if not quarantia and draw.textlength(name, font=small) + 6 + houses_width > right - left - 1:
            name = _short(draw, name, small, right - left - 1 - houses_width)
        draw.text((left + 1, y), name, font=small, fill=text)
        x = left + 1 + int(draw.textlength(name, font=small)) + 6
        if quarantia:
            _rings(draw, area.advisors, x, y + line // 2, RING, colours, room=right - x, squares=area.from_quarantia)
            y += height + 2
            continue
        hx = right + 4
        for index, (player, label, width) in reversed(list(enumerate(houses))):  # houses: mark and count, at the right
            hx -= width + 4
            if hx < x - 4:
                if problems is not None:
                    problems.append(f"map: no room for the houses in {area.name}")
                break
            _house(draw, (hx, y), player, index, label, name_face, radius, colours, text)
        sy = y + line + 1
        for index in range(5):  # palace spaces 3..7, numbered even when built
            sx = left + 1 + index * (slot + 2)
            owner = area.palaces[index] if index < len(area.palaces) else None
            if owner is not None:
                _palace(draw, (sx, sy, sx + slot, sy + slot), owner, index, colours, text, background)
                continue
            draw.rectangle((sx, sy, sx + slot, sy + slot), outline=dim)
            label = str(index + 3)
            lx = sx + (slot + 1 - int(draw.textlength(label, font=small))) // 2
            draw.text((lx, sy), label, font=small, fill=dim)
        x = left + 1 + 5 * (slot + 2) + 4
        _rings(draw, area.advisors, x, sy + slot // 2, RING + 1, colours, room=right - x, squares=area.from_quarantia)
        y += height + 2
    if part[0] < part[1]:
        return
    for row in _wrapped(draw, key, small, right - left - 2):
        if y + line > bottom:
            if problems is not None:
                problems.append("map: no room for the key")
            return
        draw.text((left + 1, y), row, font=small, fill=dim)
        y += line
    for entries in _players_rows(draw, players, small, line, right - left - 2):
        if y + line > bottom:
            if problems is not None:
                problems.append("map: no room for the players' marks")
            return
        _players(draw, entries, (left + 1, y), small, line, colours)
        y += line


def _wrapped(draw: ImageDraw.ImageDraw, text: str, face: Any, room: int) -> list[str]:
    """``text`` broken at spaces into rows no wider than ``room`` (none for no text)."""
    rows: list[str] = []
    for word in text.split():
        if rows and draw.textlength(f"{rows[-1]} {word}", font=face) <= room:
            rows[-1] = f"{rows[-1]} {word}"
        else:
            rows.append(word)
    return rows


def _short(draw: ImageDraw.ImageDraw, name: str, face: Any, room: int) -> str:
    if draw.textlength(name, font=face) <= room - 4:
        return name
    words = name.split()
    short = ".".join(w[0] for w in words[:-1]) + ("." if len(words) > 1 else "") + words[-1]
    while len(short) > 3 and draw.textlength(short, font=face) > room - 4:
        short = short[:-1]
    return short


def _rings(
    draw: ImageDraw.ImageDraw,
    owners: Sequence[str],
    x: int,
    y: int,
    radius: int,
    colours: Mapping[str, Colour],
    step: int | None = None,
    room: int | None = None,
    squares: int = 0,
) -> int:
    """One mark per advisor (its controller's, in outline), left to right from ``x``, centred on ``y``; ``step`` apart
    (closer, even overlapping, when many share a small cell or more than ``room`` pixels would be needed: their
    colours and outlines still show). The last ``squares`` are the Quarantia's advisors, their marks filled."""
    radius = max(3, radius)
    if room is not None and owners and step is None:
        step = max(3, min(2 * radius + 2, (room - 2 * radius - 1) // max(1, len(owners) - 1)))
    for index, owner in enumerate(owners):
        colour = colours.get(owner, (200, 200, 200))
        draw_mark(draw, mark_of(owner, index), (x + radius, y), radius, colour, hollow=index < len(owners) - squares)
        x += step or 2 * radius + 2
    return x


def _house_radius(face: Any) -> int:
    """A house mark's radius beside a count in ``face``: narrow enough that four players' houses fit a district's
    cell at 320x240 (a 17 px count)."""
    return max(3, int(getattr(face, "size", 12)) // 5)


def _house_width(draw: ImageDraw.ImageDraw, label: str, face: Any, radius: int) -> int:
    return 2 * radius + 2 + int(draw.textlength(label, font=face))


def _house(
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    player: str,
    index: int,
    label: str,
    face: Any,
    radius: int,
    colours: Mapping[str, Colour],
    text: Colour,
) -> None:
    """A player's houses in a district: their mark, then the count, both in their colour, from ``at`` (the count's
    top left as ``draw.text`` takes it); the mark centred on the digits' height (DejaVu's run from about a quarter
    to nine tenths of the type size below the top)."""
    x, y = at
    colour = colours.get(player, text)
    size = int(getattr(face, "size", 12))
    draw_mark(draw, mark_of(player, index), (x + radius, y + size * 7 // 12), radius, colour)
    draw.text((x + 2 * radius + 2, y), label, font=face, fill=colour)


def _palace(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    owner: str,
    index: int,
    colours: Mapping[str, Colour],
    text: Colour,
    background: Colour,
) -> None:
    """A built palace: its space filled in the owner's colour, the owner's mark cut out of it. The space's number
    gives way to the mark: the spaces are built from 3 up (rules.md 8.4), so the first empty space's number says
    which a built one is."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=colours.get(owner, text))
    radius = max(2, (x1 - x0) // 2 - 2)
    draw_mark(draw, mark_of(owner, index), ((x0 + x1 + 1) // 2, (y0 + y1 + 1) // 2), radius, background)


def _players_width(draw: ImageDraw.ImageDraw, players: Sequence[tuple[str, str]], face: Any, line: int) -> int:
    return sum(_player_width(draw, name, face, line) for _colour, name in players)


def _player_width(draw: ImageDraw.ImageDraw, name: str, face: Any, line: int) -> int:
    """One player's entry in the key: a mark, its name, a gap."""
    return line // 3 * 2 + 4 + int(draw.textlength(name, font=face)) + line // 2


def _players_rows(
    draw: ImageDraw.ImageDraw, players: Sequence[tuple[str, str]], face: Any, line: int, room: int
) -> list[list[tuple[str, str]]]:
    """The players' entries in rows no wider than ``room``."""
    rows: list[list[tuple[str, str]]] = []
    width = 0
    for player in players:
        entry = _player_width(draw, player[1], face, line)
        if rows and width + entry <= room:
            rows[-1].append(player)
            width += entry
        else:
            rows.append([player])
            width = entry
    return rows


def _players(
    draw: ImageDraw.ImageDraw,
    players: Sequence[tuple[str, str]],
    at: tuple[int, int],
    face: Any,
    line: int,
    colours: Mapping[str, Colour],
) -> None:
    """Each player's mark, then their name in their colour, left to right from ``at``."""
    x, y = at
    radius = line // 3
    for index, (colour, name) in enumerate(players):
        fill = colours.get(colour, (200, 200, 200))
        draw_mark(draw, mark_of(colour, index), (x + radius, y + line // 2), radius, fill)
        draw.text((x + 2 * radius + 4, y), name, font=face, fill=fill)
        x += _player_width(draw, name, face, line)


def _district(
    draw: ImageDraw.ImageDraw,
    area: MapArea,
    box: tuple[int, int, int, int],
    faces: tuple[Any, Any],
    colours: Mapping[str, Colour],
    ink: tuple[Colour, Colour, Colour],
    line: int,
    problems: list[str],
) -> None:
    """Name, houses, palace spaces, then a row of advisors' rings; where the cell has no room for that row (160x128)
    the rings stand at the end of the name line and the name gives way: who controls what is worth more than the
    name's last letters, which the map's layout and the text pages tell anyway."""
    x0, y0, x1, y1 = box
    text, dim, background = ink
    name_face, small = faces
    draw.rectangle(box, outline=dim)
    room = x1 - x0
    houses_y = y0 + line + 1
    palaces_y = houses_y + int(getattr(name_face, "size", 11)) + 2
    slot = max(6, min(line + 2, (room - 4) // 5 - 2))
    rings_y = palaces_y + slot + 3
    name_room = room
    if area.advisors and rings_y + 6 >= y1:
        radius = RING_ON_NAME
        problems.append("rings too small")
        step = min(2 * radius + 2, max(3, (room - 24) // len(area.advisors)))
        width = step * (len(area.advisors) - 1) + 2 * radius + 1
        _rings(
            draw, area.advisors, x1 - 2 - width, y0 + 1 + line // 2, radius, colours, step, squares=area.from_quarantia
        )
        name_room = room - width - 3
    name = _short(draw, area.name, small, name_room)
    if name != area.name:
        problems.append(f"name cut: {area.name}")
    draw.text((x0 + 2, y0 + 1), name, font=small, fill=text)
    x = x0 + 2
    radius = _house_radius(name_face)
    for index, (player, count) in enumerate(area.houses):  # houses: each player's mark and count
        label = str(count)
        width = _house_width(draw, label, name_face, radius)
        if x + width > x1 - 2:
            problems.append(f"no room for the houses in {area.name}")
            break
        _house(draw, (x, houses_y), player, index, label, name_face, radius, colours, text)
        x += width + 4
    for index in range(5):  # palace spaces 3..7
        sx = x0 + 2 + index * (slot + 2)
        if sx + slot > x1:
            break
        if index < len(area.palaces):
            space = (sx, palaces_y, sx + slot, palaces_y + slot)
            _palace(draw, space, area.palaces[index], index, colours, text, background)
            continue
        draw.rectangle((sx, palaces_y, sx + slot, palaces_y + slot), outline=dim)
        if slot >= line:  # the space's number
            draw.text((sx + 2, palaces_y), str(index + 3), font=small, fill=dim)
        else:
            problems.append("no room for the palace spaces' numbers")
    if rings_y + 6 < y1:
        radius = min(4, (y1 - rings_y) // 2)
        if area.advisors and radius < RING:
            problems.append("rings too small")
        _rings(draw, area.advisors, x0 + 2, rings_y + 3, radius, colours, squares=area.from_quarantia)
