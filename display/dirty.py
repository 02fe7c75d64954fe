"""Dirty regions: which boxes of a frame differ from the last frame pushed, so only those go over SPI.

A menu highlight that moves changes two small marks far apart; one bounding box around both would resend
everything in between, so the changed area is cut at unchanged rows and columns (an XY-cut) into tight boxes. It is
cut only at gaps, and two boxes are sent as one, where the pixels between cost less than opening another window:
CASET + RASET + RAMWR (3 commands and 8 data bytes) and, more, the Python time of a window on a Pi, weighed as the
bytes its wire sends in that time (:data:`WINDOW_COST`). :class:`DirtyBoxes` has the interface of luma's own
framebuffers (``redraw``), so the luma drivers use it unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from PIL import Image, ImageChops

Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), as luma and PIL use them
WINDOW_BYTES = 11  # bytes to open a window: 2A + 4, 2B + 4, 2C
# A window also costs Python time: its crop, three commands and a data call through luma, 0.023 ms of CPU on the
# development machine (display/wiretap.py's bus; the least of 2,000), so 0.28 ms on a Zero 2 W (x12, benchmarks/pi.py),
# in which its 32 MHz wire sends 1,100 bytes (1,750 at the 50 MHz the ST7789 and ILI9341 ask); on a Pi 3 B 920, on a Pi
# 4 B 370. Tuned at 32 MHz, not re-tuned for 50 (the panels' later default clock). Each further window must save at
# least this many bytes to be opened: 600, between the Pi 4's and the Zero's; at 1,000 a menu highlight on the small
# st7735 grew past 10% of a frame (bench wire's budget) for no clear gain on the Zero's p99.
WINDOW_TIME_BYTES = 600
WINDOW_COST = WINDOW_BYTES + WINDOW_TIME_BYTES
BYTES_PER_PIXEL = 2  # RGB565 (display/drivers.py)
FIRST_CUT_DEPTH = 5  # cuts within a band of rows
# Changes in at most this many bands of rows are cut down to tight boxes: a highlight move (the old and the new bar,
# the hint under the menu), a counter. More bands is a new screen, sent a box per band: cutting each band further
# saved its bytes for more Python time than their wire time on a Pi (bench pi: the Zero 2 W's p99 on the
# st7789 from 54.6 to 48.5 ms, the press's CPU p99 6.8 to 5.5 ms here).
FEW_BANDS = 4
MOST_BOXES = 12  # each box is a window on the wire and a round of Python in luma: a few, not hundreds


_CHANGED_RUN = re.compile(rb"[^\x00]+")


def _runs(flags: list[int]) -> list[tuple[int, int]]:
    """(start, end) of each stretch of non-zero flags (found by the regular expression engine: on a Pi a Python loop
    over every row and column of every cut was most of a highlight move's cost)."""
    return [match.span() for match in _CHANGED_RUN.finditer(bytes(flags))]


def _joined(runs: list[tuple[int, int]], least_gap: int) -> list[tuple[int, int]]:
    """``runs`` with every gap narrower than ``least_gap`` filled in."""
    joined = runs[:1]
    for start, end in runs[1:]:
        if start - joined[-1][1] < least_gap:
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def _cost(box: Box) -> int:
    return WINDOW_COST + (box[2] - box[0]) * (box[3] - box[1]) * BYTES_PER_PIXEL


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _cut(changed: Image.Image, box: Box, depth: int) -> list[Box]:
    """Recursive XY-cut: split at rows with no change, else at columns with no change, down to tight boxes. One crop
    and one projection per box: the projection gives both the tight box and where to cut it."""
    region = changed if box == (0, 0, *changed.size) else changed.crop(box)  # the whole frame: no copy of it
    if depth == 0:  # no cut to come: the tight box alone, one call (a new screen's every band ends here)
        found = region.getbbox()
        return [] if found is None else [(box[0] + found[0], box[1] + found[1], box[0] + found[2], box[1] + found[3])]
    columns, rows = region.getprojection()  # a pixel counts if any of its channels is non-zero
    row_runs = _runs(rows)
    if not row_runs:
        return []
    column_runs = _runs(columns)
    left, top = box[0], box[1]
    tight = (left + column_runs[0][0], top + row_runs[0][0], left + column_runs[-1][1], top + row_runs[-1][1])
    if depth == 0 or _cost(tight) <= 2 * WINDOW_COST:
        return [tight]  # cut in two, it would cost two windows and could save no more than its own pixels
    # Cut only at gaps whose pixels cost more than the window a cut adds: a text line's gaps between letters never
    # do, and cutting there only to join the pieces again was most of a press's time on a Pi.
    rows_joined = _joined(row_runs, -(-WINDOW_COST // ((tight[2] - tight[0]) * BYTES_PER_PIXEL)))
    columns_joined = _joined(column_runs, -(-WINDOW_COST // ((tight[3] - tight[1]) * BYTES_PER_PIXEL)))
    if len(rows_joined) > 1:
        parts = [(tight[0], top + start, tight[2], top + end) for start, end in rows_joined]
    elif len(columns_joined) > 1:
        parts = [(left + start, tight[1], left + end, tight[3]) for start, end in columns_joined]
    elif depth == FIRST_CUT_DEPTH and len(column_runs) > 1:
        # No gap pays by itself, but the widest may open the way to gaps that do (a menu's highlight bar beside
        # its lines): cut there once, at a band's first cut only, where it costs one more crop.
        start, end = max(((a[1], b[0]) for a, b in pairwise(column_runs)), key=lambda gap: gap[1] - gap[0])
        parts = [(tight[0], tight[1], left + start, tight[3]), (left + end, tight[1], tight[2], tight[3])]
    else:
        return [tight]
    return [found for part in parts for found in _cut(changed, part, depth - 1)]


def _merge(boxes: list[Box]) -> list[Box]:
    """Join two boxes whenever one window around both costs no more than two (the bytes in between included). A box
    grown by a join is weighed against the rest again in the same sweep; sweeps repeat until none joins (starting
    over after every join made the many small boxes of a new screen cost a Pi several ms)."""
    boxes = list(boxes)
    costs = [_cost(box) for box in boxes]
    merged = True
    while merged:
        merged = False
        i = 0
        while i < len(boxes):
            j = i + 1
            while j < len(boxes):
                union = _union(boxes[i], boxes[j])
                cost = _cost(union)
                if cost <= costs[i] + costs[j]:
                    boxes[i], costs[i] = union, cost
                    del boxes[j], costs[j]
                    merged = True
                    j = i + 1
                else:
                    j += 1
            i += 1
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

    Small changes (a highlight move: up to :data:`FEW_BANDS` bands of rows) are cut down to tight boxes; a large one
    (a new screen: many bands) keeps one box per band of rows, since each box costs a window on the wire and Python
    time in luma.
    The cut gives disjoint boxes; a merged box may overlap another, which only sends a few pixels twice (with the
    same colour).
    """
    if previous is None or previous.size != image.size or previous.mode != image.mode:
        return [(0, 0, *image.size)]
    changed = ImageChops.difference(previous, image)  # its projections are non-zero wherever any channel differs
    bands = _cut(changed, (0, 0, *image.size), depth=1)
    if len(bands) <= FEW_BANDS:
        tight = [box for band in bands for box in _cut(changed, band, depth=FIRST_CUT_DEPTH)]
        if len(tight) <= 4 * most:
            return _fewer(_merge(tight), most)
    return _fewer(bands, most)


class DirtyBoxes:
    """A luma framebuffer strategy: yields (part of the frame, its box) for each dirty box, then remembers it.

    ``boxes`` and ``sent`` are the same in two steps, for a caller that sends the boxes on another thread."""

    def __init__(self) -> None:
        self.prev_image: Image.Image | None = None

    def redraw(self, image: Image.Image) -> Iterator[tuple[Image.Image, Box]]:
        for box in self.boxes(image):
            yield image.crop(box), box
        self.sent(image)

    def boxes(self, image: Image.Image) -> list[Box]:
        return dirty_boxes(self.prev_image, image)

    def sent(self, image: Image.Image) -> None:
        """Only once all went out: a failed push is sent again with the next frame."""
        self.prev_image = image.copy()
