"""rules.md 11 for the web pads, at the one place their bytes are decided (companion/web/views.py).

The method of tests/flow/test_secrecy.py: at every press of whole games, a twin of the controller is given other
secrets. The public frame (the table view's, and the public part of every phone's) must be byte for byte the same;
a seat's own frame must be the same when only the *other* seats' secrets differ (its own held values, its own ballot
and its own keying kept), so no phone is ever sent another seat's hidden value before its reveal.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.web.views import public_view, seat_view
from hardware.events import InputEvent
from tests.flow.test_secrecy import twin_with_other_secrets


class Watcher:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.checked = 0

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        if controller.state is None or controller.stage != "game":
            return
        frame = json.dumps(public_view(controller))
        assert json.dumps(public_view(twin_with_other_secrets(controller, self.rng))) == frame, f"after {event}"
        for seat, (source, _colour) in enumerate(controller.seats.joined):
            mine = json.dumps(seat_view(controller, source))
            twin = twin_with_other_secrets(controller, self.rng, keep=seat)
            assert json.dumps(seat_view(twin, source)) == mine, (seat, event)
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
        twin = twin_with_other_secrets(controller, rng, keep=0)
        differs += seat_view(twin, "phone2") != seat_view(controller, "phone2")
    assert differs > 10
