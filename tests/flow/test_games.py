"""Whole games through button events only, in both entry modes, with 3 and 4 players."""

from __future__ import annotations

import random

import pytest

from companion.engine import replay_text, snapshot
from companion.flow.autoplay import Table
from companion.flow.controller import Controller


def play(seed: int, players: int, keypads: bool) -> Table:
    controller = Controller(random.Random(seed), entry="private")
    table = Table(controller, random.Random(seed + 1), [str(n) for n in range(1, players + 1)], keypads)
    table.setup()
    table.play()
    return table


@pytest.mark.parametrize(
    ("seed", "players", "keypads"), [(1, 3, False), (2, 4, False), (3, 3, True), (4, 4, True), (5, 3, True)]
)
def test_a_whole_game_through_buttons_matches_the_replay_of_its_record(seed: int, players: int, keypads: bool) -> None:
    table = play(seed, players, keypads)
    controller = table.controller
    assert controller.state is not None and controller.state.is_over
    replayed = replay_text(controller.record)
    assert snapshot(replayed) == snapshot(controller.state)
    assert snapshot(replayed)["winners"], "someone won"
    assert len(controller.players) == players
    assert controller.palaces_by_year, "the summary has a point per year"
    assert '"entry": "keypads"' in controller.record[0] if keypads else '"entry": "private"' in controller.record[0]
