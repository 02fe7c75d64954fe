"""rules.md 11 for the web pads, at the one place their bytes are decided (companion/web/views.py).

The method of tests/flow/test_secrecy.py: at every press of whole games, a twin of the controller is given other
secrets. The public frame (the table view's, and the public part of every phone's) must be byte for byte the same;
a seat's own frame must be the same when only the *other* seats' secrets differ (its own held values, its own ballot
and its own keying kept), so no phone is ever sent another seat's hidden value before its reveal.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.flow.autoplay import Table
from companion.flow.controller import Controller, KeypadBallot
from companion.web.views import public_view, seat_view
from hardware.events import InputEvent
from tests.engine.test_properties import scramble_secrets


def twin_keeping(controller: Controller, seat: int | None, rng: random.Random) -> Controller:
    """A controller with every secret changed but ``seat``'s own (None: every secret changed)."""
    state = controller.state
    assert state is not None
    twin = copy.copy(controller)
    twin.game = copy.copy(controller.game)
    other = scramble_secrets(state, rng)
    if seat is not None:
        other._pending[seat] = state._pending[seat]
        other._markers[4 * seat : 4 * seat + 4] = state._markers[4 * seat : 4 * seat + 4]
    twin.game.state = other
    twin.keypad = {
        s: copy.deepcopy(k) if s == seat else KeypadBallot(rng.randrange(7), [rng.randrange(4)])
        for s, k in controller.keypad.items()
    }
    twin.menus, twin.menus_for = controller.menus, controller.menus_for
    twin.effects = []
    return twin


class Watcher:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.checked = 0

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        if controller.state is None or controller.stage != "game":
            return
        frame = json.dumps(public_view(controller))
        assert json.dumps(public_view(twin_keeping(controller, None, self.rng))) == frame, f"after {event}"
        for seat, (source, _colour) in enumerate(controller.seats.joined):
            mine = json.dumps(seat_view(controller, source))
            assert json.dumps(seat_view(twin_keeping(controller, seat, self.rng), source)) == mine, (seat, event)
        self.checked += 1


@pytest.mark.parametrize("seed", range(3))
def test_no_frame_holds_another_seats_secret(seed: int) -> None:
    watcher = Watcher(random.Random(seed))
    players = 3 + seed % 2
    controller = Controller(random.Random(seed), entry="keypads")
    table = Table(controller, random.Random(100 + seed), [f"phone{n}" for n in range(1, players + 1)], True, watcher)
    table.setup()
    table.play()
    assert watcher.checked > 300


def test_the_twin_really_differs_for_the_other_seats() -> None:
    """Guard: in the ballot phase, what a twin keeps for seat 0 differs for seat 1, so equal frames mean something."""
    controller = Controller(random.Random(1), entry="keypads")
    table = Table(controller, random.Random(2), ["phone1", "phone2", "phone3"], keypads=True)
    table.setup()
    while controller.notices:
        table.press("host", "ok")
    table.press("phone2", "area:castello")
    table.press("phone2", "marker:3")
    rng = random.Random(3)
    differs = 0
    for _ in range(20):
        twin = twin_keeping(controller, 0, rng)
        differs += seat_view(twin, "phone2") != seat_view(controller, "phone2")
    assert differs > 10
