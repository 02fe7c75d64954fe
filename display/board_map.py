"""The board as a schematic map: the six districts placed roughly as on the real board, the Quarantia beneath.

Each district shows its name, the houses of each player as a count in their colour, its five palace spaces marked
3 to 7 (filled in the owner's colour once built) and the advisors standing there as rings in the controller's colour:
in a row of their own where there is room, else at the end of the district's name line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from .screen import MapArea

Colour = tuple[int, int, int]
# (column, row) of each district on a 3 x 2 grid, in the order cannaregio, castello, dorsoduro, san_marco, san_polo,
# santa_croce: Santa Croce west, Cannaregio north, Castello east; Dorsoduro south-west, San Polo centre, San Marco.
PLACES = ((1, 0), (2, 0), (0, 1), (2, 1), (1, 1), (0, 0))
RING_ON_NAME = 3  # radius of the rings drawn on a district's name line when no row is left for them (160x128)


def draw_board(
    draw: ImageDraw.ImageDraw,
    areas: Sequence[MapArea],
    box: tuple[int, int, int, int],
    faces: tuple[Any, Any],
    colours: Mapping[str, Colour],
    ink: tuple[Colour, Colour, Colour],
) -> None:
    """``faces``: the name font and the small font; ``ink``: text, dim and background colours."""
    left, top, right, bottom = box
    text, dim, background = ink
    name_face, small = faces
    line = int(getattr(small, "size", 9)) + 1
    strip = line + 6
    cell_w = (right - left) // 3
    cell_h = (bottom - top - strip - 2) // 2
    for area, (column, row) in zip(areas[:6], PLACES, strict=False):
        x0, y0 = left + column * cell_w, top + row * cell_h
        _district(draw, area, (x0, y0, x0 + cell_w - 2, y0 + cell_h - 2), faces, colours, ink, line)
    if len(areas) > 6:
        quarantia = areas[6]
        y0 = top + 2 * cell_h
        draw.rectangle((left, y0, right - 2, y0 + strip), outline=dim)
        draw.text((left + 3, y0 + 2), _short(draw, quarantia.name, small, cell_w), font=small, fill=text)
        x = left + 3 + int(draw.textlength(quarantia.name, font=small)) + 6
        _rings(draw, quarantia.advisors, x, y0 + strip // 2, line // 2, colours)
    del name_face, background


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
) -> int:
    """One ring per advisor, left to right from ``x``, centred on ``y``; ``step`` apart (closer, even overlapping,
    when many share a small cell: their colours still show)."""
    radius = max(3, radius)
    for owner in owners:
        draw.ellipse((x, y - radius, x + 2 * radius, y + radius), outline=colours.get(owner, (200, 200, 200)), width=2)
        x += step or 2 * radius + 2
    return x


def _district(
    draw: ImageDraw.ImageDraw,
    area: MapArea,
    box: tuple[int, int, int, int],
    faces: tuple[Any, Any],
    colours: Mapping[str, Colour],
    ink: tuple[Colour, Colour, Colour],
    line: int,
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
        step = min(2 * radius + 2, max(3, (room - 24) // len(area.advisors)))
        width = step * (len(area.advisors) - 1) + 2 * radius + 1
        _rings(draw, area.advisors, x1 - 2 - width, y0 + 1 + line // 2, radius, colours, step)
        name_room = room - width - 3
    draw.text((x0 + 2, y0 + 1), _short(draw, area.name, small, name_room), font=small, fill=text)
    x = x0 + 2
    for player, count in area.houses:  # houses: a count in each player's colour
        label = str(count)
        width = int(draw.textlength(label, font=name_face))
        if x + width > x1 - 2:
            break
        draw.text((x, houses_y), label, font=name_face, fill=colours.get(player, text))
        x += width + 4
    for index in range(5):  # palace spaces 3..7
        sx = x0 + 2 + index * (slot + 2)
        if sx + slot > x1:
            break
        if index < len(area.palaces):
            draw.rectangle((sx, palaces_y, sx + slot, palaces_y + slot), fill=colours.get(area.palaces[index], text))
        else:
            draw.rectangle((sx, palaces_y, sx + slot, palaces_y + slot), outline=dim)
            if slot >= line:
                draw.text((sx + 2, palaces_y), str(index + 3), font=small, fill=dim)
    if rings_y + 6 < y1:
        _rings(draw, area.advisors, x0 + 2, rings_y + 3, min(4, (y1 - rings_y) // 2), colours)
    del background
