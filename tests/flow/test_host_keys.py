"""Every screen says what the host's keys do on it (``Screen.keys``), and says it truly: a key it names
changes the screen, a key it leaves out changes nothing. Checked on every kind of screen a game shows, with the
overlays each key opens, on copies of the controller (the game itself goes on untouched)."""

from __future__ import annotations

import copy
import random

import pytest

from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.undo_chain import undo_blocker
from companion.i18n import language, set_language
from hardware.events import InputEvent

PRESSES = {
    "ok": InputEvent("host", "ok"),
    "left": InputEvent("host", "left"),
    "right": InputEvent("host", "right"),
    "back": InputEvent("host", "back"),
    "hold:back": InputEvent("host", "back", "hold"),
}


class Explorer:
    def __init__(self) -> None:
        self.seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()

    def check(self, controller: Controller, depth: int = 2) -> None:
        screen = controller.screen()
        kind = (screen.tags[0] if screen.tags else screen.title, screen.keys)
        if kind in self.seen:
            return
        self.seen.add(kind)
        named = {key for key, _meaning in screen.keys}
        assert named <= {*PRESSES, "any"}, screen.keys
        assert all(meaning for _key, meaning in screen.keys)
        spoken = language()  # the setup's left changes the language, which is the process's
        for key, event in PRESSES.items():
            twin = copy.deepcopy(controller)
            twin.handle(event)
            changed = twin.screen() != screen
            if depth and changed:
                self.check(twin, depth - 1)
            set_language(spoken)
            if key in named or (key != "hold:back" and "any" in named):
                assert changed, f"{screen.tags} names {key} but it changes nothing"
            elif key == "hold:back" and changed:  # nothing to undo: only the notice saying why
                assert twin.notices[0].tag == "undo" and not twin.confirm_undo, twin.screen().tags
            else:
                assert not changed, f"{screen.tags} leaves {key} out, but it does something"


@pytest.mark.parametrize("keypads", [False, True])
def test_the_keys_a_screen_names_are_the_keys_that_do_something_on_it(keypads: bool) -> None:
    controller = Controller(random.Random(3))
    explorer = Explorer()
    table = Table(controller, random.Random(3), ["1", "2", "3"], keypads, watch=lambda c, e: explorer.check(c))
    explorer.check(controller)
    full = copy.deepcopy(controller)
    for pad in ("1", "2", "3", "4"):
        full.handle(InputEvent(pad, "ok"))
    explorer.check(full)  # a full table: back adds no computer
    table.setup()
    table.play()
    explorer.check(controller)
    kinds = {kind for kind, _keys in explorer.seen}
    assert {"setup", "decision", "board", "help", "over", "undo"} <= kinds, kinds


def test_setup_names_the_language_on_left_and_a_decision_names_its_own_keys() -> None:
    controller = Controller(random.Random(4))
    table = Table(controller, random.Random(4), ["1", "2", "3"], False)
    keys = dict(controller.screen().keys)
    assert keys["left"] == "language" and keys["right"] == "ballot entry" and "ok" not in keys
    for pad in ("1", "2", "3"):
        table.press(pad, "ok")
    assert dict(controller.screen().keys)["ok"] == "start"
    table.press("host", "ok")
    while "decision" not in controller.screen().tags or undo_blocker(controller) is not None:
        table.turn()
    keys = dict(controller.screen().keys)
    assert keys == {"left": "rule help", "back": "board check", "hold:back": "undo"}
