"""One shareable picture of a finished game: its ending pages side by side (standings, chart, board at the end)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from .render import BACKGROUND, DIM, render
from .screen import Screen


def summary_image(pages: Sequence[Screen], page_size: tuple[int, int] = (400, 300), columns: int = 2) -> Image.Image:
    """Each page rendered at ``page_size``, in a grid ``columns`` wide, with a thin gap between them. Pure."""
    width, height = page_size
    gap = 4
    rows = max(1, -(-len(pages) // columns))
    image = Image.new("RGB", (columns * width + (columns + 1) * gap, rows * height + (rows + 1) * gap), DIM)
    for index, page in enumerate(pages):
        row, column = divmod(index, columns)
        image.paste(render(page, page_size), (gap + column * (width + gap), gap + row * (height + gap)))
    if len(pages) % columns:
        row, column = divmod(len(pages), columns)
        x, y = gap + column * (width + gap), gap + row * (height + gap)
        image.paste(Image.new("RGB", page_size, BACKGROUND), (x, y))
    return image
