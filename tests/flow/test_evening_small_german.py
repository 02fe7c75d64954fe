"""A whole scripted evening at 160x128 in German, as a table lives it with the page timer running: three
keypad players and a computer player, a slip undone, a power cut in the middle of a year and the start-up question
after it, to the end of the game. A player's ok on their own pad always means "done" for them (or their ballot, or
their choice): it never turns a part, however long the notice; the parts turn by themselves (the page timer's ticks)
and every part of every notice the players confirmed was up before the notice went.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app import App
from companion.flow.modes import ResumeOffer
from companion.flow.paging import Parts
from companion.flow.undo_chain import undo_blocker
from companion.i18n import set_language
from hardware.events import InputEvent, PageTick
from tests.helpers import app_settings, still_queued
from tests.scripted_table import ScriptedTable


def small_german(state_dir: Path) -> Any:
    settings = app_settings(state_dir)
    settings.data["display"].update(width=160, height=128)
    settings.data["game"]["language"] = "de"
    return settings


class AppTable(ScriptedTable):
    """The scripted table, its keys and the page timer's ticks going through the App as on the device."""

    def __init__(self, app: App, seed: int) -> None:
        super().__init__(seed, size=None)
        self.app = app
        self.controller = app.controller
        self.pad_turns: list[str] = []  # what a pad's key was when a part turned under it
        self.unread: list[str] = []  # notices a player confirmed away with a part never up
        self._pad: str | None = None

    def press(self, source: str, key: str, kind: str = "press") -> None:
        event = InputEvent(source, key, kind)  # type: ignore[arg-type]
        if source == "host":
            self.host_presses[key] += 1
        else:
            self.pad_presses += 1
        notice = self.controller.notices[0] if self.controller.notices else None
        seen, count = set(self.controller.parts.seen), self.controller.parts.count
        self._pad = None if source == "host" else f"{source} {key}"
        try:
            self.app.step(event)
        finally:
            self._pad = None
        if (
            source != "host"
            and notice is not None
            and not still_queued(notice, self.controller.notices)
            and len(seen) < count
        ):
            self.unread.append(notice.title)

    def tick(self) -> None:
        self.ticks += 1
        self.app.step(PageTick())

    def turned(self) -> None:
        if self._pad is not None:
            self.pad_turns.append(self._pad)


@pytest.fixture
def german() -> Any:
    yield
    set_language("en")


def test_no_players_ok_turns_a_part_in_a_german_evening_at_160x128(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, german: Any
) -> None:
    tables: list[AppTable] = []
    turn = Parts.turn

    def watched(parts: Parts, how: Any) -> bool:
        turned = turn(parts, how)
        if turned and tables:
            tables[-1].turned()
        return turned

    monkeypatch.setattr(Parts, "turn", watched)
    app = App(small_german(tmp_path), seed=4)
    app.controller.sync_bots = True
    assert app.controller.parts.size == (160, 128)
    table = AppTable(app, seed=4)
    tables.append(table)
    table.setup()
    controller = table.controller

    # A slip undone (rules.md 11.4): the first moment the host may take a decision back after the reminder.
    table.play(
        until=lambda: controller.stage == "game" and len(controller.record) > 12 and undo_blocker(controller) is None
    )
    before = len(controller.record)
    table.press("host", "back", "hold")
    table.press("host", "ok")
    assert len(controller.record) < before, "undone"

    # A power cut in the middle of year 2: a new App on the same card resumes; the start-up question waits for
    # the host, whatever the players press on their pads.
    table.play(
        until=lambda: controller.state is not None and controller.state.year == 2 and len(controller.notices) > 0
    )
    record = list(controller.record)
    app = App(small_german(tmp_path), seed=5)  # the old one is gone without a word, as with the plug pulled
    app.controller.sync_bots = True
    assert type(app.controller.top()) is ResumeOffer
    resumed = AppTable(app, seed=4)
    resumed.policy, resumed.choice_rng, resumed.view_rng = table.policy, table.choice_rng, table.view_rng
    tables.append(resumed)
    for pad in resumed.pads:
        resumed.press(pad, "ok")
    assert type(app.controller.top()) is ResumeOffer and app.controller.record == record
    resumed.press("host", "ok")
    assert type(app.controller.top()) is not ResumeOffer

    resumed.play()
    try:
        state = app.controller.state
        assert state is not None and state.is_over
        assert table.ticks + resumed.ticks > 0, "parts turned by themselves"
        assert table.pad_turns == resumed.pad_turns == [], "a player's ok never turns a part"
        assert table.unread == resumed.unread == [], "every part was up before a notice went"
    finally:
        app.close()
