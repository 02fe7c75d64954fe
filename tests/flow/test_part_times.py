"""A German evening at 160x128 through the App, at a table's pace on a fake clock (no sleeps), with the page timer as
the device's loop runs it: every part that turns by itself has been up a whole ``display.page_seconds`` from the
moment it appeared, and no notice leaves with a part never on the screen, though the players say "done" as soon as
they have done their part (often on part 1 of a notice in parts). docs/architecture.md, "Parts and the page timer".

It reports (pytest -s) every part's time on screen: the parts turned, every part of a notice in parts however it
left (but by the host's key), and a notice in one part (its owners say done once read); the parts under
``display.page_seconds`` (0), the lines of notices that left with a part unseen (0), and the host's and players'
presses a game-year, the players' "done" among them, which a notice that moves no piece no longer waits for.
"""

from __future__ import annotations

import random
import statistics
from pathlib import Path
from typing import Any

import pytest

from companion.app import App
from companion.flow.autoplay import NOTICE_TAGS
from companion.flow.narration import ANYONE
from companion.i18n import set_language
from hardware.events import InputEvent, PageTick
from tests.helpers import app_settings, still_queued
from tests.scripted_table import ScriptedTable

SECONDS = 6
# Before a notice that moves no piece went by itself, and before a notice in parts waited for the tick after a "done"
# on its last part (main 53271a8), the same evenings: every part of a notice in parts up min 0.01 s (seed 4, 21 under
# 6 s) and 0.06 s (seed 7, 23 under); players' "done" presses a game-year 41.9 and 42.1 (of 99.7 and 99.3 presses).
DONE_BEFORE = {4: 41.9, 7: 42.1}
UP = SECONDS - 1e-6  # the fake clock's sums of floats: 4099.4 - 4093.4 is 5.999999999999545


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class TimedTable(ScriptedTable):
    """The scripted table's choices, its keys through the App, and time passing between them: a second or two a
    key, a few seconds to read a notice before saying done. The page timer ticks when the App's timer says a part
    has been up its time (on code with a fixed beat, every ``SECONDS`` from the start, as its loop did)."""

    def __init__(self, app: App, clock: Clock, seed: int) -> None:
        super().__init__(seed, size=None)
        self.app, self.clock = app, clock
        self.controller = app.controller
        self.pace = random.Random(seed + 3)
        self.start = clock.now
        self.part: tuple[Any, ...] | None = None
        self.since = clock.now
        self.turned: list[float] = []  # how long each part the page timer or a player's key turned had been up
        self.host_turned: list[float] = []  # the same, for parts the host turned (the host may turn at once)
        self.unseen: list[str] = []  # notices that left with a part never on the screen
        self.unseen_lines = 0  # their lines
        self.up: list[float] = []  # how long every part of a notice in parts was up, however it left but by the host
        self.whole: list[float] = []  # how long a notice in one part was up (its owners say done once they have read)
        self.done = 0  # players' oks that said "done" to a notice (of their presses)
        self.waited = 0.0

    def step(self, event: InputEvent | PageTick) -> None:
        controller = self.controller
        notice = controller.notices[0] if controller.notices and not controller.overlays else None
        seen, count = set(controller.parts.seen), controller.parts.count
        if notice is not None and isinstance(event, InputEvent) and event.source != "host" and event.key == "ok":
            self.done += notice_owner(self, notice, event.source)
        self.app.step(event)
        if notice is not None and not still_queued(notice, controller.notices) and len(seen) < count:
            self.unseen.append(notice.title)
            self.unseen_lines += len(notice.lines)
        screen = self.app.screen
        assert screen is not None
        part = (screen.title, screen.tags, screen.part)
        if part != self.part:
            before = self.part
            host = isinstance(event, InputEvent) and event.source == "host"
            if before is not None and set(before[1]) & NOTICE_TAGS and not host:
                (self.whole if before[2] is None else self.up).append(self.clock.now - self.since)
            if before is not None and before[2] is not None and screen.part is not None and before[:2] == part[:2]:
                (self.host_turned if host else self.turned).append(self.clock.now - self.since)
            self.part, self.since = part, self.clock.now

    def next_tick(self) -> float | None:
        timer = getattr(self.app, "page_timer", None)
        if timer is None:  # a fixed beat from the start
            beats = int((self.clock.now - self.start) // SECONDS) + 1
            return self.start + beats * SECONDS
        due = timer.due_in()
        return None if due is None else self.clock.now + due

    def wait(self, seconds: float) -> None:
        self.waited += seconds
        assert self.waited < 48 * 3600, "the evening did not end"
        end = self.clock.now + seconds
        while (due := self.next_tick()) is not None and due <= end:
            self.clock.now = due
            self.ticks += 1
            self.step(PageTick())
        self.clock.now = end

    def press(self, source: str, key: str, kind: str = "press") -> None:
        self.wait(self.pace.uniform(0.5, 2.0))
        if source == "host":
            self.host_presses[key] += 1
        else:
            self.pad_presses += 1
        self.script.append(InputEvent(source, key, kind))  # type: ignore[arg-type]
        self.step(InputEvent(source, key, kind))  # type: ignore[arg-type]

    def read_parts(self) -> None:
        """A player reads what the notice asks of them and says done: no waiting for the other parts."""
        self.wait(self.pace.uniform(1.0, 5.0))

    def confirm(self) -> None:
        notices = self.controller.notices
        if (
            notices
            and not self.controller.overlays
            and (notices[0].by_itself or (notices[0].owners and not notices[0].waiting))
        ):
            self.wait(1.0)  # it moves no piece, or everyone is done: its parts come up by themselves, then it goes
            return
        super().confirm()


def notice_owner(table: TimedTable, notice: Any, source: str) -> bool:
    """Whether a player's ok on ``notice`` says done for something it waits for (theirs, or a computer's)."""
    seat = table.controller.seats.seat_of(source)
    return seat is not None and (table.controller.players[seat] in notice.waiting or ANYONE in notice.waiting)


@pytest.fixture
def german() -> Any:
    yield
    set_language("en")


def evening(tmp_path: Path, seed: int) -> TimedTable:
    settings = app_settings(tmp_path)
    settings.data["display"].update(width=160, height=128, page_seconds=SECONDS)
    settings.data["game"]["language"] = "de"
    clock = Clock()
    app = App(settings, seed=seed)
    if hasattr(app, "page_timer"):
        app.page_timer.clock = clock
        app.page_timer.restart()
    app.controller.sync_bots = True
    table = TimedTable(app, clock, seed)
    app.show(app.controller.screen())
    table.setup()
    table.play()
    app.close()
    return table


def report(table: TimedTable, seed: int) -> str:
    """The evening's figures in one line (also `python3 dev.py bench presses`)."""
    state = table.controller.state
    assert state is not None
    years = state.year
    return (
        f"seed {seed}, {years} game-years: {len(table.turned)} parts turned, min {min(table.turned):.2f} s, "
        f"median {statistics.median(table.turned):.2f} s, {sum(t < UP for t in table.turned)} under "
        f"{SECONDS} s; every part of a notice in parts ({len(table.up)}) up min {min(table.up):.2f} s, median "
        f"{statistics.median(table.up):.2f} s, {sum(t < UP for t in table.up)} under {SECONDS} s; a notice in one part "
        f"({len(table.whole)}) up min {min(table.whole):.2f} s, median {statistics.median(table.whole):.2f} s; "
        f"{table.unseen_lines} lines dismissed unseen; a game-year: "
        f"{sum(table.host_presses.values()) / years:.1f} host, {table.pad_presses / years:.1f} player presses "
        f"({table.done / years:.1f} of them done)"
    )


@pytest.mark.parametrize("seed", [4, 7])
def test_every_part_is_up_its_time_and_no_line_leaves_unseen(tmp_path: Path, german: Any, seed: int) -> None:
    table = evening(tmp_path, seed)
    state = table.controller.state
    assert state is not None and state.is_over
    years = state.year
    print(report(table, seed))
    assert len(table.turned) > 20, "parts turned by themselves"
    assert [t for t in table.turned if t < UP] == [], "a part turned before it was up its time"
    assert [t for t in table.up if t < UP] == [], "a part of a notice in parts left before it was up its time"
    assert round(table.done / years, 1) < DONE_BEFORE[seed], "a notice that moves no piece waited for a done"
    assert table.unseen == [] and table.unseen_lines == 0, "a notice left with a part never on the screen"
