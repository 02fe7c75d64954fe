"""The journal beside the store (issue 42): the commit point of every press, one sync a press, and which copy wins
when they differ (docs/architecture.md, "A restart")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.store import FILENAME, Store
from companion.store import journal as journal_module
from tests.helpers import random_game

LINES = random_game(4)[0][:30]


def test_a_press_costs_one_sync_the_journals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    synced = []
    real = journal_module.os.fdatasync
    monkeypatch.setattr(journal_module.os, "fdatasync", lambda fd: (synced.append(fd), real(fd)))
    for number, line in enumerate(LINES[1:6], 2):
        store.append(game, number, [line], {"year": 1})
    store.give_seat(game, "phone1", "d")  # not a press: nothing for the journal, no sync
    assert len(synced) == 5
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1, "SQLite's own commit is not synced"
    store.close()


def before_and_after(tmp_path: Path, then: str) -> tuple[Path, Store, int]:
    """A store whose SQLite files are those of an earlier moment (its last commits lost in a power cut) beside the
    journal of the later one."""
    live = tmp_path / "live"
    store = Store(live)
    game = store.new_game(LINES[0])
    store.append(game, 2, LINES[1:20], {"year": 1})
    earlier = tmp_path / "state"
    earlier.mkdir()
    for name in (FILENAME, f"{FILENAME}-wal"):
        shutil.copy(live / name, earlier / name)
    if then == "more lines":
        store.append(game, 21, LINES[20:], {"year": 1})
    else:
        store.truncate(game, 15, {"year": 1})
    shutil.copy(live / "games.journal", earlier / "games.journal")
    store.close()
    return earlier, Store(earlier), game


def test_lines_sqlite_lost_in_a_power_cut_come_back_from_the_journal_and_it_is_said(tmp_path: Path) -> None:
    _folder, store, game = before_and_after(tmp_path, "more lines")
    try:
        assert store.lines(game) == LINES
        assert store.problem == f"10 acknowledged lines of game {game} brought back from the journal"
    finally:
        store.close()


def test_an_undo_sqlite_lost_stays_taken_back(tmp_path: Path) -> None:
    _folder, store, game = before_and_after(tmp_path, "undo")
    try:
        assert store.lines(game) == LINES[:15], "the journal is the truth while all of it reads"
    finally:
        store.close()


def test_a_damaged_journal_loses_nothing_sqlite_has_and_is_kept_beside_the_new_one(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    store.append(game, 2, LINES[1:], {"year": 1})
    store.close()
    path = tmp_path / "games.journal"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x04
    path.write_bytes(bytes(data))
    again = Store(tmp_path)
    try:
        assert again.lines(game) == LINES and again.problem is None
        (aside,) = tmp_path.glob("games.journal.broken-*")
        assert aside.read_bytes() == bytes(data)
        history = journal_module.read(path)
        assert history is not None and history.damage is None and history.lines[game] == LINES, "written anew"
    finally:
        again.close()


def test_a_torn_last_entry_was_never_acknowledged_and_costs_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    store.append(game, 2, LINES[1:], {"year": 1})
    store.close()
    with (tmp_path / "games.journal").open("ab") as journal:
        journal.write(journal_module.entry(game, n=len(LINES) + 1, text="{}")[:25])  # the power went mid-write
    again = Store(tmp_path)
    try:
        assert again.lines(game) == LINES and again.problem is None
    finally:
        again.close()
