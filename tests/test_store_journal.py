"""The journal beside the store: the commit point of every press, one sync a press, and which copy wins
when they differ (docs/architecture.md, "A restart")."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from companion.app import App
from companion.app import loop as loop_module
from companion.store import FILENAME, Store
from companion.store import journal as journal_module
from companion.store.entries import encode, rebuild
from tests.helpers import app_settings, random_game

LINES = random_game(4)[0][:30]


def whole(history: journal_module.Copy) -> list[str]:
    """The one game's lines of a journal that read whole (nothing damaged, nothing cut short)."""
    assert not history.damaged and not history.torn and not history.legacy
    (lines,) = rebuild(history.entries).lines.values()
    return lines


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
        assert history is not None and whole(history) == LINES, "written anew"
    finally:
        again.close()


def test_a_torn_last_entry_was_never_acknowledged_and_costs_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    store.append(game, 2, LINES[1:], {"year": 1})
    store.close()
    with (tmp_path / "games.journal").open("ab") as journal:
        torn = encode(len(LINES) + 1, game, len(LINES), n=len(LINES) + 1, text="{}")[:25]
        journal.write(torn)  # the power went mid-write
    again = Store(tmp_path)
    try:
        assert again.lines(game) == LINES and again.problem is None
    finally:
        again.close()


def test_a_press_writes_over_zeros_already_on_the_card_so_the_file_does_not_grow(tmp_path: Path) -> None:
    """An append that grows the file makes ext4 commit its own journal in the press's sync (3 blocks more
    than the entry's one); entries written over a tail of zeros synced ahead leave its size as it was."""
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    path = tmp_path / journal_module.NAME
    size = path.stat().st_size
    for number, line in enumerate(LINES[1:20], 2):
        store.append(game, number, [line], {"year": 1})
    assert path.stat().st_size == size
    assert path.read_bytes().endswith(bytes(journal_module.ROOM // 4)), "the zeros are there before the entries"
    store.close()
    history = journal_module.read(path)
    assert history is not None and whole(history) == LINES[:20]


def a_closed_game(folder: Path, lines: int) -> tuple[int, Path]:
    """A game of LINES' first LINES lines, stored and closed; its id and the journal's path."""
    store = Store(folder)
    game = store.new_game(LINES[0])
    store.append(game, 2, LINES[1:lines], {"year": 1})
    store.close()
    return game, folder / journal_module.NAME


def the_rest_appended(store: Store, game: int, path: Path, n: int) -> None:
    """LINES from line N on appended by STORE (closed after); the journal then holds every line, undamaged."""
    try:
        store.append(game, n, LINES[n - 1 :], {"year": 1})
    finally:
        store.close()
    history = journal_module.read(path)
    assert history is not None and whole(history) == LINES


def test_a_torn_entry_before_the_zeros_loses_nothing_acknowledged_and_the_game_goes_on(tmp_path: Path) -> None:
    """The power went while a press's entry was being written over the zeros (its sync never returned, so nothing of
    it was acknowledged): its first bytes are there, zeros after them."""
    game, path = a_closed_game(tmp_path, 20)
    data = path.read_bytes()
    end = len(data.rstrip(b"\0"))
    torn = encode(21, game, 20, n=21, text=LINES[20])[:25]
    path.write_bytes(data[:end] + torn + data[end + len(torn) :])
    assert len(path.read_bytes()) == len(data)
    history = journal_module.read(path)
    assert history is not None and rebuild(history.entries).lines[game] == LINES[:20] and history.torn
    again = Store(tmp_path)
    assert again.lines(game) == LINES[:20] and again.problem is None
    the_rest_appended(again, game, path, 21)


def test_a_journal_from_before_the_zeros_is_read_and_goes_on_after_its_last_entry(tmp_path: Path) -> None:
    game, path = a_closed_game(tmp_path, 10)
    path.write_bytes(path.read_bytes().rstrip(b"\0"))  # the first journal's appended file: no zeros at its end
    the_rest_appended(Store(tmp_path), game, path, 11)


def test_an_entry_sqlite_refused_is_zeroed_and_never_read(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    assert store._journal is not None
    end = store._journal.write(encode(2, game, 1, n=2, text=LINES[1]))
    store._journal.cut(end)
    store.append(game, 2, LINES[1:3], {"year": 1})
    store.close()
    history = journal_module.read(tmp_path / journal_module.NAME)
    assert history is not None and whole(history) == LINES[:3]


def test_the_checkpoint_waits_for_an_idle_moment(tmp_path: Path) -> None:
    """Regression: SQLite's automatic checkpoint (after 1,000 pages of -wal) synced some 1,000 blocks in a press."""
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    main = tmp_path / FILENAME
    size = main.stat().st_size
    for number, line in enumerate(LINES[1:], 2):
        store.append(game, number, [line], {"year": 1})
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] > 1000
    assert main.stat().st_size == size, "no page copied into the file on a press"
    store.idle()
    assert main.stat().st_size > size, "the -wal's pages are in the file"
    store.close()
    again = Store(tmp_path)
    try:
        assert again.lines(game) == LINES and again.problem is None
    finally:
        again.close()


def test_the_game_thread_gives_the_store_its_idle_moment_when_no_press_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loop_module, "IDLE_S", 0.01)
    app = App(app_settings(tmp_path))
    stop = threading.Event()
    idled: list[bool] = []
    monkeypatch.setattr(app.store, "idle", lambda: (idled.append(True), stop.set()))
    give_up = threading.Timer(10, lambda: (stop.set(), app.events.wake()))
    give_up.start()
    try:
        assert app.run(stop) == 0
    finally:
        give_up.cancel()
        app.close()
    assert idled, "no idle moment in 10 s without a press"
