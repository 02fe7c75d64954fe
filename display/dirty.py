"""Dirty regions: which boxes of a frame differ from the last frame pushed, so only those go over SPI.

A menu highlight that moves changes two small marks far apart; one bounding box around both would resend
everything in between, so the changed area is cut at unchanged rows and columns (an XY-cut) into tight boxes. Two
boxes are sent as one only when the pixels between them cost less than opening another window (CASET + RASET +
RAMWR: 3 commands and 8 data bytes). :class:`DirtyBoxes` has the interface of luma's own framebuffers
(``redraw``), so the luma drivers use it unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from PIL import Image, ImageChops

Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), as luma and PIL use them
WINDOW_COST = 11  # bytes to open a window: 2A + 4, 2B + 4, 2C
BYTES_PER_PIXEL = 3  # luma.lcd sends 18-bit colour as 3 bytes a pixel
MOST_BOXES = 12  # each box is a window on the wire and a round of Python in luma: a few, not hundreds


def _changed(diff: Image.Image) -> Image.Image:
    """One channel, non-zero wherever any channel differs (a plain L conversion would round small changes away)."""
    if diff.mode == "L":
        return diff
    channels = diff.split()
    merged = channels[0]
    for channel in channels[1:]:
        merged = ImageChops.lighter(merged, channel)
    return merged


_CHANGED_RUN = re.compile(rb"[^\x00]+")


def _runs(flags: list[int]) -> list[tuple[int, int]]:
    """(start, end) of each stretch of non-zero flags (found by the regular expression engine: on a Pi a Python loop
    over every row and column of every cut was most of a highlight move's cost)."""
    return [match.span() for match in _CHANGED_RUN.finditer(bytes(flags))]


def _cost(box: Box) -> int:
    return WINDOW_COST + (box[2] - box[0]) * (box[3] - box[1]) * BYTES_PER_PIXEL


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _cut(changed: Image.Image, box: Box, depth: int) -> list[Box]:
    """Recursive XY-cut: split at rows with no change, else at columns with no change, down to tight boxes. One crop
    and one projection per box: the projection gives both the tight box and where to cut it."""
    columns, rows = changed.crop(box).getprojection()
    row_runs = _runs(rows)
    if not row_runs:
        return []
    column_runs = _runs(columns)
    left, top = box[0], box[1]
    tight = (left + column_runs[0][0], top + row_runs[0][0], left + column_runs[-1][1], top + row_runs[-1][1])
    if depth == 0:
        return [tight]
    if len(row_runs) > 1:
        parts = [(tight[0], top + start, tight[2], top + end) for start, end in row_runs]
    elif len(column_runs) > 1:
        parts = [(left + start, tight[1], left + end, tight[3]) for start, end in column_runs]
    else:
        return [tight]
    return [found for part in parts for found in _cut(changed, part, depth - 1)]


def _merge(boxes: list[Box]) -> list[Box]:
    """Join two boxes whenever one window around both costs no more than two (the bytes in between included)."""
    boxes = list(boxes)
    merged = True
    while merged and len(boxes) > 1:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                union = _union(boxes[i], boxes[j])
                if _cost(union) <= _cost(boxes[i]) + _cost(boxes[j]):
                    boxes[i] = union
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return sorted(boxes, key=lambda box: (box[1], box[0]))


def _fewer(boxes: list[Box], most: int) -> list[Box]:
    """Join neighbours (in top-to-bottom order) that add the fewest bytes until at most ``most`` boxes are left (the
    bytes each join adds are kept, and only the two next to a join are weighed again)."""
    boxes = sorted(boxes, key=lambda box: (box[1], box[0]))
    extra = [_extra(a, b) for a, b in pairwise(boxes)]
    while len(boxes) > most:
        i = extra.index(min(extra))
        boxes[i : i + 2] = [_union(boxes[i], boxes[i + 1])]
        del extra[i]
        if i > 0:
            extra[i - 1] = _extra(boxes[i - 1], boxes[i])
        if i < len(extra):
            extra[i] = _extra(boxes[i], boxes[i + 1])
    return boxes


def _extra(a: Box, b: Box) -> int:
    return _cost(_union(a, b)) - _cost(a) - _cost(b)


def dirty_boxes(previous: Image.Image | None, image: Image.Image, most: int = MOST_BOXES) -> list[Box]:
    """At most ``most`` boxes covering every pixel where ``image`` differs from ``previous`` (all of it when there
    is none).

    Small changes (a highlight move: a few bands of rows) are cut down to tight boxes; a large one (a new screen:
    many bands) keeps one box per band of rows, since each box costs a window on the wire and Python time in luma.
    The cut gives disjoint boxes; a merged box may overlap another, which only sends a few pixels twice (with the
    same colour).
    """
    if previous is None or previous.size != image.size or previous.mode != image.mode:
        return [(0, 0, *image.size)]
    changed = _changed(ImageChops.difference(previous, image))
    bands = _cut(changed, (0, 0, *image.size), depth=1)
    if len(bands) <= most:
        tight = [box for band in bands for box in _cut(changed, band, depth=5)]
        if len(tight) <= 4 * most:
            return _fewer(_merge(tight), most)
    return _fewer(bands, most)


class DirtyBoxes:
    """A luma framebuffer strategy: yields (part of the frame, its box) for each dirty box, then remembers it."""

    def __init__(self) -> None:
        self.prev_image: Image.Image | None = None

    def redraw(self, image: Image.Image) -> Iterator[tuple[Image.Image, Box]]:
        for box in dirty_boxes(self.prev_image, image):
            yield image.crop(box), box
        self.prev_image = image.copy()  # only once all went out: a failed push is sent again with the next frame
