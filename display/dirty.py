"""Dirty regions: which boxes of a frame differ from the last frame pushed, so only those go over SPI.

A menu highlight that moves changes two bars far apart; one bounding box around both would resend everything in
between, so changed rows are grouped into bands and each band gets its own box. Two bands are sent as one box only
when the rows between them cost less than opening another window (CASET + RASET + RAMWR: 3 commands and 8 data
bytes, and a DC toggle each). :class:`DirtyBoxes` has the interface of luma's own framebuffers (``redraw``), so the
luma drivers use it unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image, ImageChops

Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), as luma and PIL use them
WINDOW_COST = 11  # bytes to open a window: 2A + 4, 2B + 4, 2C
BYTES_PER_PIXEL = 3  # luma.lcd sends 18-bit colour as 3 bytes a pixel


def _changed(diff: Image.Image) -> Image.Image:
    """One channel, non-zero wherever any channel differs (a plain L conversion would round small changes away)."""
    if diff.mode == "L":
        return diff
    channels = diff.split()
    merged = channels[0]
    for channel in channels[1:]:
        merged = ImageChops.lighter(merged, channel)
    return merged


def _runs(flags: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    start = None
    for index, flag in enumerate([*flags, 0]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            runs.append((start, index))
            start = None
    return runs


def _cost(box: Box) -> int:
    return WINDOW_COST + (box[2] - box[0]) * (box[3] - box[1]) * BYTES_PER_PIXEL


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def dirty_boxes(previous: Image.Image | None, image: Image.Image) -> list[Box]:
    """Boxes covering every pixel where ``image`` differs from ``previous`` (all of it when there is none)."""
    if previous is None or previous.size != image.size or previous.mode != image.mode:
        return [(0, 0, *image.size)]
    changed = _changed(ImageChops.difference(previous, image))
    bbox = changed.getbbox()
    if bbox is None:
        return []
    left, top, right, _bottom = bbox
    _columns, rows = changed.crop(bbox).getprojection()
    boxes: list[Box] = []
    for start, end in _runs(list(rows)):
        band = changed.crop((left, top + start, right, top + end))
        columns, _rows = band.getprojection()
        first = next(index for index, flag in enumerate(columns) if flag)
        last = len(columns) - next(index for index, flag in enumerate(reversed(columns)) if flag)
        box = (left + first, top + start, left + last, top + end)
        if boxes and _cost(_union(boxes[-1], box)) <= _cost(boxes[-1]) + _cost(box):
            boxes[-1] = _union(boxes[-1], box)
        else:
            boxes.append(box)
    return boxes


class DirtyBoxes:
    """A luma framebuffer strategy: yields (part of the frame, its box) for each dirty box, then remembers it."""

    def __init__(self) -> None:
        self.prev_image: Image.Image | None = None

    def redraw(self, image: Image.Image) -> Iterator[tuple[Image.Image, Box]]:
        for box in dirty_boxes(self.prev_image, image):
            yield image.crop(box), box
        self.prev_image = image.copy()  # only once all went out: a failed push is sent again with the next frame
