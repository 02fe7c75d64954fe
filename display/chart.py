"""The palace chart: palaces per player at the end of each year, with its axis, its years and a legend.

Players with the same palaces year after year would draw the same pixels, the last one's colour hiding the others.
So each line is drawn a pixel or two above or below its neighbour in chart order (less than half a
palace's height: a line still reads as its count) and each player's points have the player's mark (display/marks.py,
the one the map and the table view give them), which the legend shows beside their name: a line that runs with
another stays visible, and a mark tells it apart without its colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from .marks import draw_mark, mark_of

Colour = tuple[int, int, int]
LabelBox = tuple[int, int, int, int]  # left, top, right, bottom of a year label as drawn
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 500)  # years between labels: every year, every other, every fifth...


def draw_chart(
    draw: ImageDraw.ImageDraw,
    chart: Sequence[tuple[str, Sequence[int]]],
    legend: Sequence[str],
    box: tuple[int, int, int, int],
    face: Any,
    colours: Mapping[str, Colour],
    dim: Colour,
) -> list[tuple[LabelBox, str]]:
    """One line per player in their colour; the palace count up the left, the years along the bottom, and each
    player's name (``legend``, in chart order) with their last count in rows above the plot. Returns the year
    labels, each as drawn (its box) and its text: whatever the game's length and the box's width, they never touch
    (tests measure them)."""
    left, top, right, bottom = box
    years = max((len(series) for _player, series in chart), default=0)
    height = int(face.size) if hasattr(face, "size") else 10
    if years == 0 or bottom - top < 3 * height + 10:
        return []
    labels = [
        f"{legend[index] if index < len(legend) else player} {series[-1] if series else 0}"
        for index, (player, series) in enumerate(chart)
    ]
    places = legend_layout(draw, labels, left, right, face)
    for index, ((player, _series), label, (x, row)) in enumerate(zip(chart, labels, places, strict=True)):
        colour = colours.get(player, dim)
        y = top + row * (height + 2)
        draw_mark(draw, mark_of(player, index), (x + 3, y + height // 3 + 3), 3, colour)
        draw.text((x + 8, y), label, font=face, fill=colour)
    rows = 1 + max((row for _x, row in places), default=0)
    top += rows * (height + 2) + 2
    if bottom - top < 2 * height + 8:
        return []
    axis_width = int(draw.textlength("8", font=face)) + 4
    plot_left, plot_bottom = left + axis_width, bottom - height - 2
    most = max(8, *(max(series, default=0) for _player, series in chart))
    draw.line((plot_left, plot_bottom, right, plot_bottom), fill=dim)
    draw.line((plot_left, top, plot_left, plot_bottom), fill=dim)
    for value in (0, most // 2, most):
        y = plot_bottom - (plot_bottom - top) * value // most
        draw.text((left, y - height // 2), str(value), font=face, fill=dim)
        draw.line((plot_left - 2, y, plot_left, y), fill=dim)

    def x_of(year: int) -> int:
        return plot_left + (right - plot_left) * (year + 1) // (years + 1)

    boxes = _year_labels(draw, years, plot_left, right, x_of, plot_bottom + 2, face, height)
    for _left, _top, _right, _bottom, label, at in boxes:
        draw.text(at, label, font=face, fill=dim)
    offsets = line_offsets(len(chart), (plot_bottom - top) / most)
    for index, ((player, series), offset) in enumerate(zip(chart, offsets, strict=True)):
        colour = colours.get(player, dim)
        points = [
            (x_of(i), plot_bottom - (plot_bottom - top) * value // most + offset) for i, value in enumerate(series)
        ]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        for point in points:
            draw_mark(draw, mark_of(player, index), point, 2, colour)
    return [((x0, y0, x1, y1), label) for x0, y0, x1, y1, label, _at in boxes]


def line_offsets(lines: int, palace: float) -> list[int]:
    """How far each line is drawn below (positive) or above its true height, in pixels: centred on it, two pixels
    apart (a line's width), one where that would move the outer lines half a palace (``palace``: its height)."""
    step = 2 if 2 * (lines - 1) <= palace / 2 else 1
    return [round((index - (lines - 1) / 2) * step + 0.01) for index in range(lines)]


def legend_layout(
    draw: ImageDraw.ImageDraw, labels: Sequence[str], left: int, right: int, face: Any
) -> list[tuple[int, int]]:
    """Where each legend entry (a colour square and its label) starts: its x and its row. An entry that does not fit
    beside the one before starts a new row, so every player is named, the winner too, on the smallest screen
    (tests/display/test_chart.py: the third player's entry was once left out at 160x128)."""
    height = int(face.size) if hasattr(face, "size") else 10
    places: list[tuple[int, int]] = []
    x, row = left, 0
    for label in labels:
        width = 8 + int(draw.textlength(label, font=face))
        if x > left and x + width > right:
            x, row = left, row + 1
        places.append((x, row))
        x += width + height
    return places


def _year_labels(
    draw: ImageDraw.ImageDraw, years: int, left: int, right: int, x_of: Any, top: int, face: Any, height: int
) -> list[tuple[int, int, int, int, str, tuple[int, int]]]:
    """Year 1, then every ``step``-th year (every other year from 1 for a step of 2), ``step`` the smallest round
    number at which every such label, measured as drawn, stays a gap away from the next; the ``step``-th year's
    label alone may give way to year 1's, and a last one that would stick out of the plot is left out. Each: its
    drawn box, its text, where it is drawn."""
    gap = max(3, height // 2)
    slot = (right - left) / (years + 1)
    widest = max(draw.textlength(str(year), font=face) for year in range(1, years + 1))
    boxes: list[tuple[int, int, int, int, str, tuple[int, int]]] = []
    for step in (s for s in NICE_STEPS if s * slot >= widest + gap):
        wanted = range(1, years + 1, step) if step <= 2 else [1, *range(step, years + 1, step)]
        boxes = []
        for year in wanted:
            label = str(year)
            x = int(x_of(year - 1) - draw.textlength(label, font=face) / 2)
            x0, y0, x1, y1 = (int(v) for v in draw.textbbox((x, top), label, font=face))
            if x1 > right:  # the last years' label would stick out: they go unlabelled
                return boxes
            if boxes and x0 < boxes[-1][2] + gap:
                if year == step and len(boxes) == 1:
                    continue  # too near year 1's
                break
            boxes.append((x0, y0, x1, y1, label, (x, top)))
        else:
            return boxes
    return boxes[:1]
