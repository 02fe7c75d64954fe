"""A Pi with no clock of its own starts at systemd's built-in epoch until its time is synchronised: a game started
then has a stamp before this version's release, which is shown as "date unknown" (never as a wrong date), and the
games keep the order they were played in (by id) whatever their stamps say."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

import companion
from companion.flow.controller import Controller
from companion.flow.modes import ResumeOffer
from companion.flow.modes.evening import clock_time, known_time
from companion.i18n import set_language
from tests.test_cli_outputs import doge

EPOCH = "2023-02-05T10:11:12Z"  # systemd 252's built-in epoch is its release; any stamp before RELEASED will do


def test_released_is_a_day_already_past() -> None:
    assert known_time(companion.RELEASED + "T00:00:00Z")
    assert time.strftime("%Y-%m-%d", time.gmtime()) >= companion.RELEASED


def test_a_stamp_before_the_release_is_date_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC0")
    time.tzset()
    try:
        assert clock_time(EPOCH) == "date unknown"
        assert clock_time("1970-01-01T00:00:00Z") == "date unknown"
        assert clock_time("2027-03-04T05:06:00Z") == "2027-03-04 05:06 UTC"
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.parametrize(
    ("language", "line"),
    [("en", "Game 3, date unknown"), ("de", "Spiel 3, Datum unbekannt"), ("it", "Partita 3, data sconosciuta")],
)
def test_the_resume_screen_says_date_unknown(language: str, line: str) -> None:
    controller = Controller(random.Random(1))
    controller.seats.joined = [("1", "red"), ("2", "blue"), ("3", "green")]
    set_language(language)
    try:
        screen = ResumeOffer(3, EPOCH, 4).view(controller)
    finally:
        set_language("en")
    assert screen.lines[0].text == line
    assert "2023" not in screen.text()


def test_games_lists_in_play_order_with_the_unknown_date_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.engine import dump_header
    from companion.store import Store, games

    clock = ["2027-01-02T20:00:00Z"]  # the clock was set at this boot
    monkeypatch.setattr(games, "now", lambda: clock[0])
    store = Store(tmp_path / ".local" / "state" / "doge-companion")
    store.new_game(dump_header(["red", "blue", "green"]))
    clock[0] = EPOCH  # the next boot, before the clock was synchronised
    store.new_game(dump_header(["red", "blue", "yellow"]))
    store.close()
    listed = doge("games", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = listed.stdout.splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["1", "2"]
    assert "2027-01-02T20:00:00Z" in rows[0]
    assert "date unknown" in rows[1] and "2023" not in rows[1], rows
