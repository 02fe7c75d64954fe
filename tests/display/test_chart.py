"""The palace chart's year labels: at any game length and any width they are measured, never overlap or
touch ("10111213..." was every label of a two-digit game drawn into too little room), stay inside the plot, start
at year 1 and count on at one round step."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from display.chart import NICE_STEPS, LabelBox, draw_chart, legend_layout
from display.render import DIM, PLAYER_COLOURS, font

# The chart's box on a 160x128 screen, on a 400x300 one and in the summary picture, each with its small type size.
BOXES = {"160x128": ((4, 30, 156, 112), 9), "400x300": ((10, 60, 390, 280), 13), "summary": ((20, 60, 784, 290), 13)}
GAP = 2  # pixels at least between two labels' boxes


def labels(years: int, box: tuple[int, int, int, int], size: int) -> list[tuple[LabelBox, str]]:
    image = Image.new("RGB", (box[2] + 10, box[3] + 10))
    series = tuple(min(8, year // 3) for year in range(years))
    chart = (("red", series), ("blue", tuple(reversed(series))))
    return draw_chart(ImageDraw.Draw(image), chart, ("Red", "Blue"), box, font(size), PLAYER_COLOURS, DIM)


def check(drawn: list[tuple[LabelBox, str]], box: tuple[int, int, int, int], years: int) -> list[int]:
    """The measured boxes apart and inside; the labelled years."""
    assert drawn, "a chart has year labels"
    boxes = [b for b, _text in drawn]
    for left, right in itertools.pairwise(boxes):
        assert right[0] - left[2] >= GAP, f"labels touch or overlap: {drawn}"
    assert all(box[0] <= b[0] and b[2] <= box[2] for b in boxes), f"labels outside the chart's box: {drawn}"
    numbers = [int(text) for _box, text in drawn]
    assert numbers[0] == 1 and numbers == sorted(set(numbers)) and numbers[-1] <= years
    return numbers


def test_short_long_and_very_long_games_have_readable_year_labels() -> None:
    for name, (box, size) in BOXES.items():
        for years in (1, 2, 3, 9, 10, 11, 12, 13, 30, 45, 99, 100, 184):
            numbers = check(labels(years, box, size), box, years)
            if years <= 3:
                assert numbers == list(range(1, years + 1)), (name, years, "a short game labels every year")
            if years >= 2:
                assert len(numbers) >= 2, (name, years, "more than the first year is labelled")
            if name == "summary" and years <= 30:
                assert numbers[-1] >= years - 5, (name, years, "the wide chart labels up to the last years")


@settings(max_examples=80, deadline=None)
@given(years=st.integers(1, 400), width=st.integers(90, 1200), size=st.sampled_from([8, 9, 11, 13, 15, 17]))
def test_year_labels_never_overlap_at_any_length_and_width(years: int, width: int, size: int) -> None:
    box = (4, 20, 4 + width, 20 + 12 * size)
    numbers = check(labels(years, box, size), box, years)
    steps = {b - a for a, b in itertools.pairwise(numbers[1:])}
    assert len(steps) <= 1 and steps <= set(NICE_STEPS), f"one round step: {numbers}"


def test_every_player_is_in_the_legend_on_the_smallest_screen() -> None:
    """Found reading the small panel through: at 160x128 the legend left out the third player (the winner, in the
    gallery). An entry that does not fit starts a new row; entries on a row never touch, and none sticks out of the
    chart."""
    draw = ImageDraw.Draw(Image.new("RGB", (400, 300)))
    for (box, size), names in itertools.product(BOXES.values(), [("Red", "Blue", "Green"), ("Yellow",) * 4]):
        face = font(size)
        entries = [f"{name} {count}" for count, name in enumerate(names, 5)]
        places = legend_layout(draw, entries, box[0], box[2], face)
        assert len(places) == len(entries) and places[0] == (box[0], 0)
        spans = [
            (row, x, x + 8 + draw.textlength(text, font=face)) for (x, row), text in zip(places, entries, strict=True)
        ]
        assert all(box[0] <= start and end <= box[2] for _row, start, end in spans), spans
        for (row, _start, end), (next_row, start, _end) in itertools.pairwise(spans):
            assert next_row == row + 1 or (next_row == row and start > end), spans
        series = tuple(range(len(names)))
        chart = tuple((player, series) for player in ("red", "blue", "green", "yellow")[: len(names)])
        drawn = draw_chart(draw, chart, names, box, face, PLAYER_COLOURS, DIM)
        assert drawn, "the plot keeps room for its year labels under two rows of legend"
    small, size = BOXES["160x128"]
    four = legend_layout(draw, ["Yellow 5", "Green 6", "Blue 7", "Red 8"], small[0], small[2], font(size))
    assert four[-1][1] >= 1, "four players do not fit one row of the smallest screen: the legend wraps"
