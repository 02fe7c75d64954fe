"""A German evening at 160x128 through the App, at a table's pace on a fake clock (no sleeps), with the page timer as
the device's loop runs it: every part that turns by itself has been up a whole ``display.page_seconds`` from the
moment it appeared, and no notice leaves with a part never on the screen, though the players say "done" as soon as
they have done their part (often on part 1 of a notice in parts). docs/architecture.md, "Parts and the page timer".
"""

from __future__ import annotations

import random
import statistics
from pathlib import Path
from typing import Any

import pytest

from companion.app import App
from companion.i18n import set_language
from hardware.events import InputEvent, PageTick
from tests.helpers import app_settings
from tests.scripted_table import ScriptedTable

SECONDS = 6


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
        self.waited = 0.0

    def step(self, event: InputEvent | PageTick) -> None:
        controller = self.controller
        notice = controller.notices[0] if controller.notices and not controller.overlays else None
        seen, count = set(controller.parts.seen), controller.parts.count
        self.app.step(event)
        if notice is not None and notice not in controller.notices and len(seen) < count:
            self.unseen.append(notice.title)
        screen = self.app.screen
        assert screen is not None
        part = (screen.title, screen.tags, screen.part)
        if part != self.part:
            before = self.part
            if before is not None and before[2] is not None and screen.part is not None and before[:2] == part[:2]:
                host = isinstance(event, InputEvent) and event.source == "host"
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
        if notices and not self.controller.overlays and notices[0].owners and not notices[0].waiting:
            self.wait(1.0)  # everyone is done: the notice's other parts come up by themselves, then it goes
            return
        super().confirm()


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


@pytest.mark.parametrize("seed", [4, 7])
def test_every_part_is_up_its_time_and_no_line_leaves_unseen(tmp_path: Path, german: Any, seed: int) -> None:
    table = evening(tmp_path, seed)
    state = table.controller.state
    assert state is not None and state.is_over
    years = state.year
    print(
        f"seed {seed}: {len(table.turned)} parts turned, min {min(table.turned):.2f} s, "
        f"median {statistics.median(table.turned):.2f} s; {len(table.unseen)} notices left unseen; "
        f"a year: {sum(table.host_presses.values()) / years:.1f} host, {table.pad_presses / years:.1f} player presses"
    )
    assert len(table.turned) > 20, "parts turned by themselves"
    # SECONDS less a microsecond: the fake clock adds up floats (a part up 6 s measures 5.999999999999773)
    assert [t for t in table.turned if t < SECONDS - 1e-6] == [], "a part turned before it was up its time"
    assert table.unseen == [], "a notice left with a part never on the screen"
