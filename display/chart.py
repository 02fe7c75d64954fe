"""The palace chart: palaces per player at the end of each year, with its axis, its years and a legend."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

Colour = tuple[int, int, int]


def draw_chart(
    draw: ImageDraw.ImageDraw,
    chart: Sequence[tuple[str, Sequence[int]]],
    legend: Sequence[str],
    box: tuple[int, int, int, int],
    face: Any,
    colours: Mapping[str, Colour],
    dim: Colour,
) -> None:
    """One line per player in their colour; the palace count up the left, the years along the bottom, and each
    player's name (``legend``, in chart order) with their last count in a row above the plot."""
    left, top, right, bottom = box
    years = max((len(series) for _player, series in chart), default=0)
    height = int(face.size) if hasattr(face, "size") else 10
    if years == 0 or bottom - top < 3 * height + 10:
        return
    x = left
    for index, (player, series) in enumerate(chart):
        name = legend[index] if index < len(legend) else player
        label = f"{name} {series[-1] if series else 0}"
        colour = colours.get(player, dim)
        if x + 8 + draw.textlength(label, font=face) > right:
            break
        draw.rectangle((x, top + height // 3, x + 5, top + height // 3 + 5), fill=colour)
        draw.text((x + 8, top), label, font=face, fill=colour)
        x += 8 + int(draw.textlength(label, font=face)) + height
    top += height + 4
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

    step = max(1, years // max(1, (right - plot_left) // (2 * height + 4)))
    for year in range(0, years, step):
        label = str(year + 1)
        draw.text((x_of(year) - draw.textlength(label, font=face) / 2, plot_bottom + 2), label, font=face, fill=dim)
    for player, series in chart:
        colour = colours.get(player, dim)
        points = [(x_of(i), plot_bottom - (plot_bottom - top) * value // most) for i, value in enumerate(series)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        for px, py in points:
            draw.ellipse((px - 2, py - 2, px + 2, py + 2), fill=colour)
