"""A press is one straight path (docs/architecture.md, "A press"): the mode answers on a desk and calls nothing back,
so while ``Controller.handle`` runs no function of controller.py is entered again from another file, and what
follows the press is settled once. Watched with ``sys.setprofile`` over the presses of a scripted game's first
years (``bench trace`` counts the same for three presses through the whole App)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from companion.flow import controller as controller_module
from companion.flow import settling
from hardware.events import InputEvent, PageTick
from tests.scripted_table import ScriptedTable

CONTROLLER = controller_module.__file__
SETTLE = settling.settle.__code__
ANSWER = controller_module.Controller.apply_bot.__code__  # a computer's answer: a decision of its own, settled


class Watch:
    """Re-entries into one file (a call into it from another file while it is lower on the stack) and calls of one
    function, while a watched call runs."""

    def __init__(self, file: str, *counted: Any) -> None:
        self.file, self.counted = file, counted
        self.reentries: list[str] = []
        self.calls = [0] * len(counted)

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        if frame.f_code in self.counted:
            self.calls[self.counted.index(frame.f_code)] += 1
        back = frame.f_back
        if frame.f_code.co_filename != self.file or back is None or back.f_code.co_filename == self.file:
            return
        below = back.f_back
        while below is not None:
            if below.f_code.co_filename == self.file:
                caller = f"{Path(back.f_code.co_filename).name}:{back.f_code.co_name}"
                self.reentries.append(f"{caller} -> {frame.f_code.co_name}")
                return
            below = below.f_back

    def run(self, step: Callable[[], None]) -> None:
        sys.setprofile(self.profile)
        try:
            step()
        finally:
            sys.setprofile(None)


class WatchedTable(ScriptedTable):
    def __init__(self, seed: int) -> None:
        super().__init__(seed, size=(160, 128))
        self.watches: list[tuple[str, Watch]] = []

    def _handle(self, event: InputEvent | PageTick) -> None:
        watch = Watch(CONTROLLER, SETTLE, ANSWER)
        watch.run(lambda: self.controller.handle(event))
        self.watches.append((str(event), watch))

    def press(self, source: str, key: str, kind: str = "press") -> None:
        self.pad_presses += source != "host"
        self._handle(InputEvent(source, key, kind))  # type: ignore[arg-type]

    def tick(self) -> None:
        self.ticks += 1
        self.script.append(PageTick())
        self._handle(PageTick())
        self.controller.screen()  # drawn after each step, as ScriptedTable.tick does: the part turned to is shown


def test_a_press_never_reenters_the_controller_and_settles_once() -> None:
    table = WatchedTable(seed=3)
    table.setup()
    table.play(until=lambda: table.controller.state is not None and table.controller.state.year > 2)
    assert len(table.watches) > 200, "a game's first years, ballots, decisions, notices and ticks"
    reentered = [(event, watch.reentries) for event, watch in table.watches if watch.reentries]
    assert reentered == []
    # Once for the press (not at all for a tick that only turned a part), and once for each computer answer the
    # script takes within it (scripts and autoplay: the computer answers at once).
    settled = [(event, settles, answers) for event, (settles, answers) in ((e, w.calls) for e, w in table.watches)]
    assert [row for row in settled if row[1] > 1 + row[2]] == []
    assert sum(1 for row in settled if row[1] == 1 and row[2] == 0) > 100
    assert any(row[2] > 0 for row in settled), "computer answers were watched too"


def test_the_watch_sees_a_reentry_and_counts_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard for the test above: a helper in another file that calls back into the controller (the shape the desk
    ended) is caught, and the counted function's calls are counted."""

    def settle_calling_back(ctl: Any) -> None:
        ctl.mode()  # a function of controller.py, entered again from this file

    monkeypatch.setattr(controller_module, "settle", settle_calling_back)
    controller = ScriptedTable(seed=3).controller
    watch = Watch(CONTROLLER, settle_calling_back.__code__)
    watch.run(lambda: controller.handle(InputEvent("host", "ok")))
    assert watch.calls == [1]
    assert [entry.split(" -> ")[1] for entry in watch.reentries] == ["mode"]
