"""A decision's record line and the screen it leads to (its notices, who has to confirm them, what of them has been
shown) are one SQLite transaction (docs/architecture.md, "A press", step 4): a power cut keeps both or neither, and
a decision is one write, not a line and then a screen."""

from __future__ import annotations

import json
import random

import pytest

from companion.app.saver import StoreSaver
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.notice_store import screen_state
from companion.store import Store


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
def test_every_decision_is_saved_with_its_screen_and_the_saved_screen_is_the_table_s(entry: str, seed: int) -> None:
    store = Store(None, memory=True)
    saver = StoreSaver(store)
    controller = Controller(random.Random(seed), entry=entry, saver=saver)
    controller.answer_at_once(True)  # a computer player's move within the press, as scripts have it
    table = Table(controller, random.Random(seed), ["1", "2"], entry == "keypads", computers=1)
    table.setup()
    statements = Statements()
    store._db.set_trace_callback(statements)
    decisions = followed = steps = 0
    while controller.stage != "over" and steps < 4000:
        length, alone = len(controller.record), len(statements.alone)
        table.turn()
        steps += 1
        made = len(controller.record) - length
        if made == 1 and controller.history and controller.history[-1].length == length:  # one decision, no shuffle
            decisions += 1
            (last,) = [t for t in statements.transactions[-1:] if any("INTO lines" in s for s in t)]
            assert any("INTO screens" in s for s in last), "the decision's screen is in its line's transaction"
            followed += len(statements.alone) > alone
        assert saver.game is not None
        now = json.loads(json.dumps(screen_state(controller.notices)))
        assert store.screen(saver.game) == now, "what a power cut would resume at"
    assert controller.stage == "over" and decisions > 100, (controller.stage, decisions)
    assert followed == 0, f"{followed} of {decisions} decisions wrote their screen again in the same step"
