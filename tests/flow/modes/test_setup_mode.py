"""Setup mode: pads join and pick colours; host back adds computer players, right the entry, left the language."""

from __future__ import annotations

import random

from companion.flow.controller import Controller
from companion.flow.modes import SETUP
from companion.i18n import set_language
from tests.flow.builders import press


def test_pads_join_pick_colours_and_leave() -> None:
    controller = Controller(random.Random(1))
    assert controller.mode() is SETUP
    for pad in ("2", "1"):
        press(controller, pad, "ok")
    press(controller, "1", "left")  # blue steps back through the free colours: yellow
    view = controller.screen()
    assert [line.text for line in view.lines[1:3]] == ["Red: pad 2", "Yellow: pad 1"]
    assert view.footer == "3 or 4 players"
    press(controller, "2", "back")
    assert controller.players == ("yellow",)


def test_host_keys_add_computers_switch_entry_and_language_then_start() -> None:
    controller = Controller(random.Random(1))
    press(controller, "1", "ok")
    press(controller, "host", "back")
    press(controller, "host", "back")
    assert "Green: normal computer" in controller.screen().text()
    press(controller, "host", "right")
    assert "▶ Ballots: keypads" in controller.screen().text()
    press(controller, "host", "left")
    assert controller.seats.language == "de" and "◀ Sprache: Deutsch" in controller.screen().text()
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


def test_every_host_option_is_on_screen_with_its_key() -> None:
    """The host's keys are named on the setup screen, with a full table too, and back adds a computer."""
    controller = Controller(random.Random(1))
    text = controller.screen().text()
    assert "Players: ok on your pad" in text and "back: add a computer" in text
    for pad in ("1", "2", "3"):
        press(controller, pad, "ok")
    press(controller, "host", "back")
    screen = controller.screen()
    text = screen.text()
    assert "◀ Language: English" in text and "▶ Ballots: one at a time" in text and screen.footer == "ok: start"
    # a full table: no line left for it at 160x128, but the key clears the computers and says so
    assert ("back", "no computers") in screen.keys


def test_a_setup_in_parts_shows_every_part_before_ok_starts_and_a_change_keeps_the_part() -> None:
    """Where a setup does not fit one screen (at 160x128 only in the larger type), ok turns the
    parts ("ok: more"), the host changes a setting on the part that shows it (the part stays), and ok on the last
    part starts the game."""
    controller = Controller(random.Random(1))
    controller.parts.size = (160, 128)
    controller.parts.text_size = "large"
    for pad in ("1", "2", "3", "4"):
        press(controller, pad, "ok")
    first = controller.screen()
    assert first.part == (1, 2) and first.footer == "ok: more" and ("ok", "more") in first.keys
    press(controller, "host", "ok")
    second = controller.screen()
    assert controller.stage == "setup" and second.part == (2, 2) and second.footer == "ok: start"
    assert "◀ Language: English" in second.text()
    press(controller, "host", "left")
    assert controller.screen().part == (2, 2) and "◀ Sprache: Deutsch" in controller.screen().text()
    press(controller, "host", "left")
    press(controller, "host", "left")  # Italiano, then back to English
    assert "◀ Language: English" in controller.screen().text()
    press(controller, "host", "ok")
    assert controller.stage == "game"
