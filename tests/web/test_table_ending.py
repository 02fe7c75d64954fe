"""Regression: at the game's end the table view said only "The game is over." It gets the end as the device shows it
(flow/ending.py's game-over pages: winners, tie-break, standings, the palace chart), from the public view alone, and
only once the device shows the end: while the last decision's notices are still to be read it may be taken back
(rules.md 11.4.1), so no winner reaches a screen before."""

from __future__ import annotations

import json
import random

import pytest

from companion.flow.autoplay import Table
from companion.flow.board_text import player_name
from companion.flow.controller import Controller
from companion.flow.ending import ending_pages
from companion.web.views import public_view
from hardware.events import InputEvent


class Watcher:
    """Every public frame of the game before its end has no ending in it."""

    def __init__(self) -> None:
        self.checked = 0

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        if controller.state is not None and controller.stage != "over":
            assert public_view(controller)["ending"] is None, (event, controller.state.is_over)
            self.checked += 1


@pytest.mark.parametrize("seed", [1, 2])
def test_the_table_view_ends_the_game_as_the_device_does(seed: int) -> None:
    watcher = Watcher()
    controller = Controller(random.Random(seed), entry="keypads")
    table = Table(controller, random.Random(50 + seed), ["phone1", "phone2", "phone3"], True, watcher)
    table.setup()
    table.play()
    assert watcher.checked > 100
    state = controller.state
    assert state is not None and controller.stage == "over"
    public = public_view(controller)
    ending = public["ending"]
    assert ending is not None
    json.dumps(public)  # what the server sends
    final, standings, chart = ending_pages(state, controller.palaces_by_year)
    device = controller.screen()  # the game-over screen on the LCD
    assert [line["text"] for line in ending["result"]] == [line.text for line in device.lines]
    assert ending["title"] == device.title and ending["rule"] == "9.4"
    winners = [state.players[seat] for seat in state.winners]
    assert ending["result"][0]["colour"] == winners[0] and player_name(winners[0]) in ending["result"][0]["text"]
    assert ending["result"][1]["text"] == final.lines[1].text  # the tie-break
    assert [line["text"] for line in ending["standings"]["lines"]] == [line.text for line in standings.lines]
    assert len(ending["standings"]["lines"]) == 2 * len(state.players)  # each: rank and condition, then the counts
    series = ending["chart"]["series"]
    assert [s["colour"] for s in series] == list(state.players)
    assert [s["name"] for s in series] == [player_name(p) for p in state.players]
    for entry in series:
        assert entry["palaces"] == [year[entry["colour"]] for year in controller.palaces_by_year]
    assert len(series[0]["palaces"]) == state.year and chart.chart
    assert public["snapshot"]["phase"] == "over"  # the board at the end beside it: the shown snapshot's
