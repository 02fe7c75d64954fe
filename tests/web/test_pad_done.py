"""Regression: a phone showed "Your turn" and a bare "ok" where its player's pad means "done" (a notice waiting for
their pieces, or for a computer's that anyone moves). Its view now says what the ok is done for, and that ok
confirms it on the device: the player's tick, or the notice gone."""

from __future__ import annotations

import random

from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.narration import ANYONE
from companion.web.views import seat_view
from tests.helpers import same_notice


def test_a_phone_says_done_where_its_ok_means_done() -> None:
    controller = Controller(random.Random(4), entry="keypads")
    controller.sync_bots = True  # the computer answers at once, as in scripts
    table = Table(controller, random.Random(9), ["phone1", "phone2", "phone3"], True, computers=1)
    table.setup()
    said = {"own": 0, "anyone": 0}
    while controller.stage != "over" or controller.notices:
        assert len(table.events) < 100_000, "the game did not end"
        for source, colour in controller.seats.joined:
            mine = seat_view(controller, source)
            assert mine is not None
            done = mine.get("done") if controller.stage == "game" else None
            if controller.stage == "game" and source.startswith("phone"):
                waiting = controller.notices[0].waiting if controller.notices else ()
                expected = colour if colour in waiting else ANYONE if ANYONE in waiting else None
                assert mine["done"] == expected, (colour, waiting)
            if done is None:
                continue
            assert done in (colour, ANYONE)
            assert mine["act"] or done == ANYONE  # cued (the pad's LED) for their own pieces; a computer's: anyone's
            notice = controller.notices[0]
            table.press(source, "ok")
            now = next((n for n in controller.notices if same_notice(n, notice)), None)
            assert now is None or done not in now.waiting, (colour, done)
            said["own" if done == colour else "anyone"] += 1
            break
        else:
            table.turn()
    assert said["own"] > 20 and said["anyone"] > 3, said
