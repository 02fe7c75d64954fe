"""Game over mode (rules.md 9.4): the winners, the tie-break, the conditions met, the chart; help still works."""

from __future__ import annotations

from companion.flow.modes import GAME_OVER, Help, NextGame
from tests.flow.builders import press, table


def test_the_end_shows_winners_tie_break_and_chart() -> None:
    at = table(seed=2)
    at.play()
    controller = at.controller
    assert controller.mode() is GAME_OVER
    view = controller.screen()
    state = controller.state
    assert state is not None
    winners = [controller.players[s] for s in state.winners]
    assert view.tags == ("over",) and view.lines[0].colour == winners[0]
    assert view.chart is not None and [p for p, _points in view.chart] == list(controller.players)
    assert all(len(points) == len(controller.palaces_by_year) for _p, points in view.chart)
    press(controller, "host", "back")
    assert type(controller.overlays[-1]) is NextGame, "no board check after the end: the next game is offered"
    press(controller, "host", "left")  # stay
    assert not controller.overlays
    press(controller, "1", "ok")
    assert controller.screen() == view, "pads do nothing"
    press(controller, "host", "left")
    assert type(controller.overlays[-1]) is Help and controller.screen().title == "Rule 9.4"


def test_back_closes_the_standings_and_the_chart_alike() -> None:
    """Back once said "close" on the standings but asked about the next game on the chart beside it."""
    at = table(seed=2)
    at.play()
    controller = at.controller
    for pages in (1, 2):  # the standings, then the chart
        for _page in range(pages):
            press(controller, "host", "right")
        screen = controller.screen()
        assert ("back", "close") in screen.keys and screen.footer.endswith("back: close"), screen
        press(controller, "host", "back")
        assert controller.screen().tags == ("over",) and not controller.overlays
