"""With the phones' join code beside it, setup at 160x128 in German comes in parts, and the host pressed
ok once for each part before the game started. The parts turn by themselves (the page timer): a host who lets them
come round starts the game with one ok."""

from __future__ import annotations

import random
from typing import Any

from companion.flow.context import Additions
from companion.flow.controller import Controller
from companion.flow.modes.setup import SetupMode
from companion.i18n import set_language
from companion.web.join import with_join_code
from display.screen import Screen
from hardware.events import InputEvent, PageTick


class JoinCode(Additions):
    def add(self, ctx: Any, top: Any, screen: Screen) -> Screen:
        return with_join_code(screen, "http://192.168.178.23:8080/join") if isinstance(top, SetupMode) else screen


def test_setup_in_parts_turns_by_itself_and_one_ok_starts() -> None:
    set_language("de")
    try:
        controller = Controller(random.Random(1))
        controller.additions = JoinCode()
        controller.parts.size = (160, 128)
        for pad in ("1", "2", "3"):
            controller.handle(InputEvent(pad, "ok"))
        first = controller.screen()
        assert first.part is not None and first.part[1] > 1, "in parts with its code"
        assert ("ok", "mehr") in first.keys or first.footer.startswith("ok: mehr")
        for _tick in range(first.part[1] - 1):
            controller.handle(PageTick())
        assert controller.screen().footer == "ok: starten"
        controller.handle(InputEvent("host", "ok"))
        assert controller.stage == "game"
    finally:
        set_language("en")
