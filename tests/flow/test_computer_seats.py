"""Computer seats are named as such wherever they act: their decision screen says the computer decides
(never "your pad"), and a board notice that moves their pieces names them as a computer's in the sentence itself
(a line of its own filled a part at 160x128) and waits for anyone at the table to move them."""

from __future__ import annotations

import random

from companion.flow.autoplay import Table
from companion.flow.controller import Controller


def test_a_computer_seat_is_named_on_its_decisions_and_its_board_changes() -> None:
    controller = Controller(random.Random(8))
    table = Table(controller, random.Random(9), ["1", "2"], keypads=False)
    table.press("1", "ok")
    table.press("2", "ok")
    table.press("host", "back")  # Green: a computer player
    table.press("host", "ok")
    bot_rng = random.Random(10)
    decisions = notices = 0
    for _step in range(20_000):
        if controller.stage != "game" or (decisions and notices > 3):
            break
        screen = controller.screen()
        if controller.pending_bot() is not None and "decision:green" in screen.tags:
            assert screen.title == "Green decides" and screen.footer == "the computer is deciding", screen
            decisions += 1
        if "instructions" in screen.tags and any(line.colour == "green" for line in screen.lines):
            greens = [line.text for line in screen.lines if line.colour == "green"]
            assert all(text.startswith("Green (computer): ") or "Green (computer) takes" in text for text in greens)
            assert "any pad" in screen.footer and "someone please move" not in screen.text(), screen
            notices += 1
        if controller.pending_bot() is not None:
            controller.run_bots(bot_rng)
        else:
            table.turn()
    assert decisions and notices > 3, (decisions, notices)
