"""Setup mode: pads join and pick colours; host back adds computer players, right the entry, left the language."""

from __future__ import annotations

import random

from companion.flow.controller import Controller
from companion.flow.modes import SETUP
from companion.i18n import set_language
from tests.flow.modes.helpers import press


def test_pads_join_pick_colours_and_leave() -> None:
    controller = Controller(random.Random(1))
    assert controller.mode() is SETUP
    for pad in ("2", "1"):
        press(controller, pad, "ok")
    press(controller, "1", "left")  # blue steps back through the free colours: yellow
    view = controller.screen()
    assert [line.text for line in view.lines[1:3]] == ["Pad 2: Red", "Pad 1: Yellow"]
    assert view.footer == "3 or 4 players"
    press(controller, "2", "back")
    assert controller.players == ("yellow",)


def test_host_keys_add_computers_switch_entry_and_language_then_start() -> None:
    controller = Controller(random.Random(1))
    press(controller, "1", "ok")
    press(controller, "host", "back")
    press(controller, "host", "back")
    assert "Computer (normal): Green" in controller.screen().text()
    press(controller, "host", "right")
    assert "Ballots: at once on keypads" in controller.screen().text()
    press(controller, "host", "left")
    assert controller.seats.language == "de" and "Sprache: Deutsch" in controller.screen().text()
    set_language("en")
    controller.seats.language = "en"
    press(controller, "host", "ok")
    assert controller.stage == "game" and controller.mode() is not SETUP
    assert '"bots": {"blue": "normal", "green": "normal"}' in controller.record[0]


def test_a_full_table_clears_the_computers() -> None:
    controller = Controller(random.Random(1))
    press(controller, "1", "ok")
    for _ in range(3):
        press(controller, "host", "back")
    assert len(controller.players) == 4
    press(controller, "host", "back")
    assert controller.players == ("red",)
