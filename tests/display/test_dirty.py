"""Dirty boxes: every changed pixel is covered, far-apart changes get their own boxes, nothing changed sends nothing."""

from __future__ import annotations

import random

from PIL import Image, ImageChops, ImageDraw

from display.dirty import MOST_BOXES, WINDOW_COST, DirtyBoxes, dirty_boxes


def covered(boxes: list[tuple[int, int, int, int]], previous: Image.Image, image: Image.Image) -> bool:
    """Pasting only the boxes of ``image`` over ``previous`` gives ``image``."""
    result = previous.copy()
    for box in boxes:
        result.paste(image.crop(box), box[:2])
    return ImageChops.difference(result, image).getbbox() is None


def test_first_frame_whole_then_nothing_for_the_same_frame() -> None:
    image = Image.new("RGB", (320, 240), "white")
    assert dirty_boxes(None, image) == [(0, 0, 320, 240)]
    assert dirty_boxes(image, image.copy()) == []


def test_a_change_of_one_in_one_channel_is_seen() -> None:
    """A plain greyscale conversion would round (1, 0, 0) to 0."""
    before = Image.new("RGB", (160, 128))
    after = before.copy()
    after.putpixel((100, 50), (1, 0, 0))
    assert dirty_boxes(before, after) == [(100, 50, 101, 51)]


def test_two_marks_far_apart_are_two_boxes_not_one_around_both() -> None:
    before = Image.new("RGB", (320, 240))
    after = before.copy()
    draw = ImageDraw.Draw(after)
    draw.rectangle((10, 20, 19, 29), fill="red")
    draw.rectangle((200, 200, 209, 209), fill="blue")
    assert dirty_boxes(before, after) == [(10, 20, 20, 30), (200, 200, 210, 210)]


def test_boxes_are_merged_only_when_the_gap_costs_less_than_a_window() -> None:
    """A window costs its command bytes and its Python time on a Pi, weighed in bytes (WINDOW_COST)."""
    assert 150 * 3 < WINDOW_COST < 500 * 3
    before = Image.new("RGB", (320, 240))
    after = before.copy()
    draw = ImageDraw.Draw(after)
    draw.rectangle((10, 10, 59, 19), fill="red")  # a gap of 50x3 pixels to the next: cheaper than a window
    draw.rectangle((10, 23, 59, 32), fill="red")
    draw.rectangle((10, 100, 59, 109), fill="red")  # a gap of 50x10 pixels to the next: two windows
    draw.rectangle((10, 120, 59, 129), fill="red")
    draw.rectangle((200, 10, 201, 11), fill="red")  # a gap of 2x2 pixels between two marks: one window
    draw.rectangle((204, 10, 205, 11), fill="red")
    assert dirty_boxes(before, after) == [(10, 10, 60, 33), (200, 10, 206, 12), (10, 100, 60, 110), (10, 120, 60, 130)]


def test_random_changes_are_always_covered() -> None:
    rng = random.Random(7)
    previous = Image.new("RGB", (240, 240))
    framebuffer = DirtyBoxes()
    list(framebuffer.redraw(previous))
    for _ in range(40):
        image = previous.copy()
        draw = ImageDraw.Draw(image)
        for _mark in range(rng.randrange(1, 6)):
            x, y = rng.randrange(240), rng.randrange(240)
            draw.rectangle(
                (x, y, x + rng.randrange(30), y + rng.randrange(30)), fill=tuple(rng.choices(range(256), k=3))
            )
        parts = list(framebuffer.redraw(image))
        assert covered([box for _part, box in parts], previous, image)
        assert all(part.size == (box[2] - box[0], box[3] - box[1]) for part, box in parts)
        assert len(parts) <= MOST_BOXES
        previous = image


def test_a_new_screen_is_sent_in_a_few_boxes() -> None:
    """Many lines of text changing (a new screen) must not become hundreds of windows."""
    before = Image.new("RGB", (320, 240))
    after = before.copy()
    draw = ImageDraw.Draw(after)
    for row in range(0, 240, 6):
        for column in range(0, 320, 7):
            draw.point((column, row), fill="white")
    boxes = dirty_boxes(before, after)
    assert len(boxes) <= MOST_BOXES
    assert covered(boxes, before, after)
