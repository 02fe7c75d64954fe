"""The summary chart once hid a line under another. Two players with the same palaces year after year drew the
same pixels, the later colour over the earlier, so the chart seemed to have a player fewer. Each line must stay
visible where it runs with another, on the smallest screen's chart and on the summary picture's."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from display.chart import draw_chart
from display.render import DIM, PLAYER_COLOURS, font

BOXES = {"160x128": ((4, 30, 156, 112), 9), "400x300": ((10, 60, 390, 280), 13), "summary": ((20, 60, 784, 290), 13)}
SERIES = (0, 1, 1, 2, 3, 3)


def pixels(chart: tuple[tuple[str, tuple[int, ...]], ...], box: tuple[int, int, int, int], size: int) -> dict[str, int]:
    """How many pixels each player's colour has in the drawn chart (legend and line)."""
    image = Image.new("RGB", (box[2] + 10, box[3] + 10))
    legend = tuple(player.title() for player, _series in chart)
    draw_chart(ImageDraw.Draw(image), chart, legend, box, font(size), PLAYER_COLOURS, DIM)
    counts = {colour: count for count, colour in image.getcolors(1 << 20) or []}
    return {player: counts.get(PLAYER_COLOURS[player], 0) for player, _series in chart}


@pytest.mark.parametrize("name", BOXES)
@pytest.mark.parametrize("players", [("red", "blue"), ("red", "blue", "green", "yellow")])
def test_a_line_run_with_another_stays_visible(name: str, players: tuple[str, ...]) -> None:
    box, size = BOXES[name]
    together = pixels(tuple((player, SERIES) for player in players), box, size)
    for index, player in enumerate(players):
        # the same player's line alone (the others far from it, at the chart's top)
        apart = pixels(
            tuple((other, SERIES if other == player else (8,) * len(SERIES)) for other in players), box, size
        )
        assert together[player] >= apart[player] * 0.4, (name, player, index, together, apart)
