"""The path of one press through the repository: ``python3 dev.py bench trace``.

The App on mock hardware (a capture display, no GPIO, no serial pads), with in-memory phones (tests/web/memory.py)
and keypad ballots, three keypad players and a computer player: the scripted table (tests/scripted_table.py) plays
seed 4 until each of three presses is due (the computer answering at once, as in a script), and that one
``App.step`` is traced with ``sys.setprofile`` on the game thread (this one: the App steps here), the computer then
thinking on its own thread as on the device, its answer a step of its own.

Counted, over every function of the repository's own code called during the step (companion/, display/,
hardware/; not tests/ nor benchmarks/, which only drive it):

- files: how many of the repository's files had a function called (all, and those in companion/flow/); and of them
  those called within the flow's step (``Controller.handle``, or ``apply_bot`` for a computer's answer: the one place
  that changes the flow), the rest being what reads it after (the screen drawn, the phones, the voice);
- calls between files: calls whose caller (the nearest repository frame below) is in another file;
- into a file already visited: those of them into a file the step had already entered;
- re-entries: those into a file still on the stack below the caller (A calls B calls A), with the files re-entered;
- ``settle``: calls of the function that settles what follows a change (companion/flow's ``settle``);
- snapshots: public snapshots of a game state drawn (companion/engine's ``snapshot``): the board as the table has
  been shown it is one of them, drawn once per step however many screens, phones and the table view read it;
- SQLite writes: on the store's connection, write transactions (a decision's record line, its entries and the
  screen state it leads to: a COMMIT) and writing statements outside one (the screen state alone, saved after a
  press that changed it and decided nothing).

The three presses are the ones docs/architecture.md's "A press" follows: a pad's ok on a count notice waiting for
it, a keypad's area key in a secret ballot, and the ok that locks in the round's last ballot; then the step that draws
a chance line (the next year's order: a line of its own, saved with the notices it leads to).
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from companion.app import App
from companion.engine import AREAS
from hardware.events import InputEvent, PageTick
from tests.helpers import app_settings
from tests.scripted_table import ScriptedTable
from tests.web.memory import Pages

ROOT = Path(__file__).resolve().parent.parent
OWN = tuple(str(ROOT / top) + "/" for top in ("companion", "display", "hardware"))
FLOW = str(ROOT / "companion" / "flow") + "/"
SETTLE = {"settle"}  # the name of what settles the follow-ups of a change, in companion/flow
SNAPSHOT = (str(ROOT / "companion" / "engine" / "views.py"), "snapshot")
STEP = {(str(ROOT / "companion" / "flow" / "controller.py"), name) for name in ("handle", "apply_bot")}
SEED = 4
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@dataclass
class Trace:
    """What one step called."""

    files: set[str] = field(default_factory=set)
    stepped: set[str] = field(default_factory=set)  # those called within the flow's step (STEP), the one writer
    between: int = 0
    revisits: int = 0
    reentries: Counter[str] = field(default_factory=Counter)
    reentered_from: set[str] = field(default_factory=set)
    settles: int = 0
    snapshots: int = 0
    lines: int = 0  # write transactions (record lines, with their entries)
    screens: int = 0  # the screen state saved (one statement, outside a transaction)
    _in_transaction: bool = False

    def call(self, frame: FrameType) -> None:
        name = frame.f_code.co_filename
        if not name.startswith(OWN):
            return
        caller, below = None, set()
        back = frame.f_back
        if (name, frame.f_code.co_name) in STEP:
            self.stepped.add(name)
        while back is not None:
            if (back.f_code.co_filename, back.f_code.co_name) in STEP:
                self.stepped.add(name)
            if back.f_code.co_filename.startswith(OWN):
                if caller is None:
                    caller = back.f_code.co_filename
                else:
                    below.add(back.f_code.co_filename)
            back = back.f_back
        if name.startswith(FLOW) and frame.f_code.co_name in SETTLE:
            self.settles += 1
        if (name, frame.f_code.co_name) == SNAPSHOT:
            self.snapshots += 1
        if caller is not None and caller != name:
            self.between += 1
            if name in self.files:
                self.revisits += 1
            if name in below:
                self.reentries[short(name)] += 1
                self.reentered_from.add(short(caller))
        self.files.add(name)

    def sql(self, statement: str) -> None:
        """sqlite3's trace callback: every statement the store's connection runs."""
        word = statement.lstrip().split(" ", 1)[0].upper()
        if word == "BEGIN":
            self._in_transaction = True
        elif word in ("COMMIT", "END"):
            self._in_transaction = False
            self.lines += 1
        elif word == "ROLLBACK":
            self._in_transaction = False
        elif word in WRITES and not self._in_transaction:
            self.screens += 1

    def row(self, press: str) -> str:
        flow = sum(name.startswith(FLOW) for name in self.files)
        stepped = sum(name.startswith(FLOW) for name in self.stepped)
        into = ", ".join(f"{name} {n}" for name, n in self.reentries.most_common())
        return (
            f"{press}: files {len(self.files)} / {flow} in flow/ (in the flow's step {len(self.stepped)} / {stepped}); "
            f"calls between files {self.between}; "
            f"into a file already visited {self.revisits}; re-entries {sum(self.reentries.values())}"
            + (f" (into {into}; from {len(self.reentered_from)} files)" if into else "")
            + f"; settle {self.settles}; snapshots {self.snapshots}"
            + f"; SQLite writes {self.lines + self.screens} (with a record line {self.lines}, "
            f"the screen state alone {self.screens})"
        )


def short(name: str) -> str:
    return str(Path(name).relative_to(ROOT))


def traced(app: App, step: Callable[[], None]) -> Trace:
    """One press traced as the device steps it: a computer player that may answer after it thinks on its own thread
    and answers through the queue, a step of its own (stepped here, after the trace)."""
    trace = Trace()
    app.controller.answer_at_once(False)
    app.bot_sleep = lambda _seconds: None

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            trace.call(frame)

    db = app.store._db
    db.set_trace_callback(trace.sql)
    sys.setprofile(profile)
    try:
        step()
    finally:
        sys.setprofile(None)
        db.set_trace_callback(None)
    while app._bot_busy:  # the computer's answer, then on as the script does
        event = app.events.get(timeout=60)
        assert event is not None, "the computer player did not answer"
        app.step(event)
    app.controller.answer_at_once(True)
    return trace


class AppTable(ScriptedTable):
    """The scripted table, its keys going through the App as on the device."""

    def __init__(self, app: App) -> None:
        super().__init__(SEED, size=None)
        self.app = app
        self.controller = app.controller
        self.chance: list[Trace] | None = None  # while an empty list: every step traced, the first to draw chance kept

    def press(self, source: str, key: str, kind: str = "press") -> None:
        self.pad_presses += source != "host"
        self.step(InputEvent(source, key, kind))  # type: ignore[arg-type]

    def tick(self) -> None:
        self.ticks += 1
        self.step(PageTick())

    def step(self, event: InputEvent | PageTick) -> None:
        if self.chance is None or self.chance:
            self.app.step(event)
            return
        lines, decisions = len(self.controller.record), len(self.controller.history)
        trace = traced(self.app, lambda: self.app.step(event))
        if len(self.controller.record) - lines > len(self.controller.history) - decisions:  # a chance line
            self.chance.append(trace)

    def awaited(self) -> list[int]:
        """The human seats whose secret ballot is still to come."""
        state = self.controller.state
        assert state is not None
        return [a.player for a in state.awaiting() if a.player not in self.controller.bots]


def presses(directory: Path) -> list[tuple[str, Trace]]:
    app = App(app_settings(directory), seed=SEED)
    Pages(app, ["p1", "p2"])
    app.controller.sync_bots = True
    table = AppTable(app)
    table.setup()
    controller = table.controller
    rows = []
    try:
        # A pad's ok on a count notice that waits for it.
        table.play(
            until=lambda: (
                bool(controller.notices and controller.notices[0].tag == "count")
                and bool(controller.notices[0].waiting)
                and not controller.overlays
            )
        )
        table.read_parts()
        owner = controller.notices[0].waiting[0]
        humans = [controller.source_of(s) for s in range(len(controller.players)) if s not in controller.bots]
        source = humans[0] if owner not in controller.players else controller.source_of(controller.players.index(owner))
        rows.append(("a pad's ok on a count notice waiting for it", traced(app, lambda: table.press(source, "ok"))))

        # A keypad's area key in a secret ballot, then the ok that locks in the round's last one.
        table.play(until=lambda: "ballot-wait" in controller.screen().tags and len(table.awaited()) == 1)
        seat = table.awaited()[0]
        ballot = table.decide(seat)
        pad = controller.source_of(seat)
        area = f"area:{AREAS[ballot.area]}"  # type: ignore[attr-defined]
        rows.append(("a keypad's area key in a secret ballot", traced(app, lambda: table.press(pad, area))))
        for value in ballot.markers:  # type: ignore[attr-defined]
            table.press(pad, f"marker:{value}")
        rows.append(("the ok that locks in the round's last ballot", traced(app, lambda: table.press(pad, "ok"))))

        # The step that draws a chance line: the next year's order (rules.md 5.3), once the year's end is shown.
        table.chance = []
        table.play(until=lambda: bool(table.chance))
        rows.append(("the step that draws the next year's order", table.chance[0]))
    finally:
        app.close()
    return rows


def main(smoke: bool = False) -> None:
    with tempfile.TemporaryDirectory() as directory:
        for press, trace in presses(Path(directory)):
            print(trace.row(press))


if __name__ == "__main__":
    main()
