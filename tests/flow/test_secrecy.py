"""rules.md 11 on the shared screen: no chosen area and no marker value before its reveal, in screens or logs.

Method: at every button press of many games, a twin of the controller is given different secrets (other pending
ballots, other held marker values, other keypad selections in progress, other unturned cards). Every shared screen
must read the same for both; only a screen tagged private to one player (after the others were asked to look away)
may differ, and only while that player's menu is open.
"""

from __future__ import annotations

import copy
import logging
import random
from dataclasses import replace

import pytest

from companion.engine import private_view
from companion.flow.autoplay import Table
from companion.flow.controller import Controller, KeypadBallot
from hardware.events import InputEvent
from tests.engine.test_properties import scramble_secrets


def twin_with_other_secrets(controller: Controller, rng: random.Random, keep: int | None = None) -> Controller:
    """A controller with every secret changed but seat ``keep``'s own (its held values, ballot and keying)."""
    state = controller.state
    assert state is not None
    twin = copy.copy(controller)
    twin.game = copy.copy(controller.game)
    other = scramble_secrets(state, rng)
    if keep is not None:
        other._pending[keep] = state._pending[keep]
        other._markers[4 * keep : 4 * keep + 4] = state._markers[4 * keep : 4 * keep + 4]
    twin.game.state = other
    keypad = {
        seat: copy.deepcopy(k) if seat == keep else KeypadBallot(rng.randrange(7), [rng.randrange(4)])
        for seat, k in controller.keying.keypad.items()
    }
    twin.between = replace(controller.between, keying=replace(controller.keying, keypad=keypad))
    twin.effects = []
    return twin


class Watcher:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.checked = 0
        self.private_screens = 0

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        if controller.state is None or controller.stage != "game":
            return
        shown = controller.screen()
        if any(tag.startswith("private:") for tag in shown.tags):
            self.private_screens += 1
            owner = next(tag for tag in shown.tags if tag.startswith("private:"))[8:]
            turn = controller.keying.private
            assert turn is not None and controller.players[turn.seat] == owner
            assert controller.state.phase == "ballot" and turn.stage in ("area", "markers")
            return
        twin = twin_with_other_secrets(controller, self.rng)
        assert twin.screen() == shown, f"a secret shows on {shown.tags} after {event}"
        self.checked += 1


@pytest.mark.parametrize("keypads", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_no_secret_on_any_shared_screen_or_in_the_log(
    seed: int, keypads: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    watcher = Watcher(random.Random(seed))
    players = 3 + seed % 2
    controller = Controller(random.Random(seed), entry="private")
    table = Table(controller, random.Random(100 + seed), [str(n) for n in range(1, players + 1)], keypads, watcher)
    table.setup()
    table.play()
    assert watcher.checked > 500
    assert (watcher.private_screens > 0) != keypads, "private menus exist only when ballots are entered on screen"
    for record in caplog.records:
        message = record.getMessage()
        assert "ballot" not in message and "marker" not in message, message


def test_the_scrambled_twin_really_differs() -> None:
    """Guard for the test above: in the ballot phase the twin's secrets do differ, so equal screens mean something."""
    controller = Controller(random.Random(1), entry="private")
    table = Table(controller, random.Random(2), ["1", "2", "3"], keypads=True)
    table.setup()
    while controller.notices:
        table.press("host", "ok")
    table.press("1", "area:castello")
    table.press("1", "marker:3")
    table.press("2", "area:dorsoduro")
    table.press("2", "marker:2")
    table.press("2", "ok")  # blue locked in: a pending ballot
    differs = 0
    for seed in range(20):
        twin = twin_with_other_secrets(controller, random.Random(seed))
        assert twin.state is not None and controller.state is not None
        secrets = [private_view(twin.state, s) != private_view(controller.state, s) for s in range(3)]
        differs += any(secrets) or twin.keying.keypad != controller.keying.keypad
    assert differs >= 18
