"""One shareable picture of a finished game: the result and standings beside the board at the end, the palace chart
across the whole width beneath them. Each panel shows something the others do not, and none is left blank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from .render import DIM, render
from .screen import Screen

GAP = 4  # the thin frame between panels
Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive)


def summary_boxes(pages: Sequence[Screen], page_size: tuple[int, int] = (400, 300)) -> list[Box]:
    """Where each page goes: pages without a chart side by side in the top row, a page with a chart in a row of its
    own as wide as the whole picture (a long game's years need the width). Pure."""
    width, height = page_size
    plain = [i for i, page in enumerate(pages) if not page.chart]
    charts = [i for i, page in enumerate(pages) if page.chart]
    columns = max(1, len(plain))
    full = columns * width + (columns - 1) * GAP
    boxes: dict[int, Box] = {}
    for column, index in enumerate(plain):
        x = GAP + column * (width + GAP)
        boxes[index] = (x, GAP, x + width, GAP + height)
    for row, index in enumerate(charts, start=1 if plain else 0):
        y = GAP + row * (height + GAP)
        boxes[index] = (GAP, y, GAP + full, y + height)
    return [boxes[i] for i in range(len(pages))]


def summary_image(pages: Sequence[Screen], page_size: tuple[int, int] = (400, 300)) -> Image.Image:
    """Each page drawn into its box (:func:`summary_boxes`), on a dim frame. Pure."""
    boxes = summary_boxes(pages, page_size)
    right = max((box[2] for box in boxes), default=GAP) + GAP
    bottom = max((box[3] for box in boxes), default=GAP) + GAP
    image = Image.new("RGB", (right, bottom), DIM)
    for page, (x0, y0, x1, y1) in zip(pages, boxes, strict=True):
        image.paste(render(_roomy(page, (x1 - x0, y1 - y0)), (x1 - x0, y1 - y0)), (x0, y0))
    return image


def _roomy(page: Screen, size: tuple[int, int]) -> Screen:
    """The page with its small lines at the normal size when they all still fit: a short table (two or three
    players) fills its panel instead of leaving its lower half empty."""
    if page.board or not any(line.size == "small" for line in page.lines):  # a map's key stays small
        return page
    larger = replace(
        page, lines=tuple(replace(line, size="normal") if line.size == "small" else line for line in page.lines)
    )
    problems: list[str] = []
    render(larger, size, problems)
    return page if problems else larger
