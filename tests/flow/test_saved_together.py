"""A record line and the screen it leads to (its notices, who has to confirm them, what of them has been shown) are
one SQLite transaction (docs/architecture.md, "A press", step 4): a power cut keeps both or neither, and a decision or
a shuffle is one write, not a line and then a screen."""

from __future__ import annotations

import json
import random

import pytest

from companion.app.saver import StoreSaver
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.notice_store import screen_state
from companion.store import Store
from hardware.events import InputEvent, PageTick


class Statements:
    """The store connection's statements, grouped by transaction (sqlite3's trace callback)."""

    def __init__(self) -> None:
        self.transactions: list[list[str]] = []
        self.alone: list[str] = []  # writes outside a transaction: a screen saved by itself
        self._open: list[str] | None = None

    def __call__(self, statement: str) -> None:
        word = statement.lstrip().split(" ", 1)[0].upper()
        if word == "BEGIN":
            self._open = []
        elif word == "COMMIT" and self._open is not None:
            self.transactions.append(self._open)
            self._open = None
        elif self._open is not None:
            self._open.append(statement)
        elif word in ("INSERT", "UPDATE", "DELETE"):
            self.alone.append(statement)


@pytest.mark.parametrize(("entry", "seed"), [("keypads", 3), ("private", 5)])
def test_every_line_is_saved_with_its_screen_and_the_saved_screen_is_the_table_s(entry: str, seed: int) -> None:
    """A decision's line and a chance line (the next year's order, rules.md 5.3) alike: each its own transaction,
    holding the screen it leads to, and a step that saved a line writes no screen after it."""
    store = Store(None, memory=True)
    saver = StoreSaver(store)
    controller = Controller(random.Random(seed), entry=entry, saver=saver)
    controller.answer_at_once(True)  # a computer player's move within the press, as scripts have it
    statements = Statements()
    made = {"decision": 0, "chance": 0}
    followed = 0

    def step(event: InputEvent | PageTick) -> None:
        nonlocal followed
        if controller.stage != "game":  # the header and the first year's shuffles: the game begins (tested apart)
            controller.handle(event)
            return
        lines, decisions = len(controller.record), len(controller.history)
        saved, alone = len(statements.transactions), len(statements.alone)
        controller.handle(event)
        written = [t for t in statements.transactions[saved:] if any("INTO lines" in s for s in t)]
        assert len(written) == len(controller.record) - lines, "each line is a transaction of its own"
        for transaction in written:
            assert any("INTO screens" in s for s in transaction), "a line's screen is in the line's transaction"
        made["decision"] += len(controller.history) - decisions
        made["chance"] += len(written) - (len(controller.history) - decisions)
        followed += bool(written) and len(statements.alone) > alone

    table = Table(controller, random.Random(seed), ["1", "2"], entry == "keypads", computers=1, handle=step)
    table.setup()
    store._db.set_trace_callback(statements)
    steps = 0
    while controller.stage != "over" and steps < 4000:
        table.turn()
        steps += 1
        assert saver.game is not None
        now = json.loads(json.dumps(screen_state(controller.notices)))
        assert store.screen(saver.game) == now, "what a power cut would resume at"
    assert controller.stage == "over" and made["decision"] > 100 and made["chance"] >= 3, (controller.stage, made)
    assert followed == 0, f"{followed} steps that saved a line wrote their screen again"
