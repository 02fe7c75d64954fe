"""The start-up question with a game in progress (as a first read-through at a table asked): when the game started,
on the table's own clock, and its keys said once, in the footer."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import timedelta, timezone

import pytest

from companion.flow.controller import Controller
from companion.flow.modes import ResumeOffer
from companion.flow.modes.evening import clock_time


@pytest.fixture
def new_york(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "EST5EDT,M3.2.0,M11.1.0")  # New York's rule, spelled out: no zone files needed
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_stored_utc_stamp_is_shown_on_the_devices_clock(new_york: None) -> None:
    assert clock_time("2026-11-24T19:40:03.250Z") == "2026-11-24 14:40"  # EST, UTC-5
    assert clock_time("2027-07-01T00:10:00Z") == "2027-06-30 20:10"  # EDT, UTC-4: the day before
    assert clock_time("2026-11-24T19:40:00Z", timezone(timedelta(hours=1))) == "2026-11-24 20:40"
    assert clock_time("not a time at all") == "not a time at all"[:16]


def test_a_device_still_on_utc_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC0")
    time.tzset()
    try:
        assert clock_time("2026-11-24T19:40:03.250Z") == "2026-11-24 19:40 UTC"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_screen_names_no_time_zone_and_says_its_keys_once(new_york: None) -> None:
    controller = Controller(random.Random(1))
    controller.seats.joined = [("1", "red"), ("2", "blue"), ("3", "green")]
    screen = ResumeOffer(3, "2026-11-24T19:40:03.250Z", 4).view(controller)
    body = [line.text for line in screen.lines]
    assert body[0] == "Game 3, started 2026-11-24 14:40" and "UTC" not in screen.text()
    assert screen.footer == "ok: go on   right: a new game"
    assert not any("ok:" in text or "right:" in text for text in body), body
