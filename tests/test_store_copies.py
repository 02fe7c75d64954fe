"""The two copies compared entry by entry (docs/architecture.md, "Which copy is the truth"): each case of its table
that the previous rule ("while every journal entry reads, the journal; once one does not, the longer history")
lost acknowledged lines in, and what is said.

Only the store's public calls and the files' bytes are used, so each test runs against the previous version too
(it fails there: the lines are lost or the words are wrong)."""

from __future__ import annotations

import errno
import json
import shutil
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest

from companion.store import APPLICATION_ID, FILENAME, Store
from companion.store import reconcile as reconcile_module
from companion.store.schema import MIGRATIONS
from tests.helpers import random_game


def long_game() -> list[str]:
    for seed in range(4, 40):
        lines = random_game(seed)[0]
        if len(lines) > 120:
            return lines[:121]
    raise AssertionError("no game of 121 lines")


LINES, NEXT = long_game()[:120], long_game()[120]
JOURNAL = "games.journal"


def entries(folder: Path) -> list[bytes]:
    """The journal's entries, each with its newline, and the zeros after them."""
    data = (folder / JOURNAL).read_bytes()
    kept = data.rstrip(b"\0")
    return [line + b"\n" for line in kept.split(b"\n")[:-1]]


def write_entries(folder: Path, lines: list[bytes]) -> None:
    (folder / JOURNAL).write_bytes(b"".join(lines))


def played(folder: Path, count: int, *, keep_wal: bool = True) -> int:
    """A game of LINES' first COUNT lines, one press a line; its id. Left as a power cut leaves it when KEEP_WAL
    (its last commits in SQLite's -wal, unsynced)."""
    store = Store(folder)
    game = store.new_game(LINES[0])
    for number in range(2, count + 1):
        store.append(game, number, [LINES[number - 1]], {"year": 1})
    if keep_wal:
        copy = folder.with_name(folder.name + "-cut")
        copy.mkdir()
        for name in (FILENAME, f"{FILENAME}-wal", JOURNAL):
            shutil.copy(folder / name, copy / name)
        store.close()
        shutil.rmtree(folder)
        copy.rename(folder)
    else:
        store.close()
    return game


def reopened(folder: Path) -> tuple[list[str], str]:
    store = Store(folder)
    try:
        game = store.games()[0].id
        return store.record(game)[0], store.problem or ""
    finally:
        store.close()


def test_lines_saved_while_the_journal_could_not_be_written_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 1: the journal refused at open (chattr +i, EIO): SQLite went on alone for 20 lines; then the journal is
    writable again and reads cleanly, and still they stay."""
    game = played(tmp_path, 100, keep_wal=False)

    def refused(*_args: Any, **_kwargs: Any) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    with monkeypatch.context() as patch:
        patch.setattr(reconcile_module, "Journal", refused)
        store = Store(tmp_path)
        for number in range(101, 121):
            store.append(game, number, [LINES[number - 1]], {"year": 1})
        store.close()
    lines, said = reopened(tmp_path)
    assert lines == LINES
    assert said == f"20 acknowledged lines of game {game} brought back from SQLite"
    assert reopened(tmp_path) == (LINES, ""), "the journal was written anew: the copies agree"


@pytest.mark.parametrize("cut", ["tail on an entry boundary", "last entry zeroed", "stale block at the end"])
def test_a_journal_that_lost_its_tail_does_not_win_over_a_whole_sqlite(tmp_path: Path, cut: str) -> None:
    """Case 2: the journal lost entries at its end, and still reads cleanly to where it stops."""
    game = played(tmp_path, 120, keep_wal=False)
    kept = entries(tmp_path)
    assert len(kept) == 120
    if cut == "tail on an entry boundary":
        write_entries(tmp_path, kept[:60])
        count = 60
    elif cut == "last entry zeroed":
        write_entries(tmp_path, [*kept[:-1], bytes(len(kept[-1]))])
        count = 1
    else:
        write_entries(tmp_path, [*kept[:-1], kept[57]])  # an old block where the last one belongs
        count = 1
    lines, said = reopened(tmp_path)
    assert lines == LINES
    assert said == f"{count} acknowledged lines of game {game} brought back from SQLite"


def test_an_acknowledged_undo_with_a_flipped_bit_in_the_journal_stays_done(tmp_path: Path) -> None:
    """Case 3: undo to line 50, one flipped bit in the journal's undo entry."""
    game = played(tmp_path, 100, keep_wal=False)
    store = Store(tmp_path)
    store.truncate(game, 50, {"year": 1})
    store.close()
    kept = entries(tmp_path)
    undo = kept[-1]
    assert b'"keep":50' in undo
    flipped = bytearray(undo)
    flipped[len(flipped) // 2] ^= 0x01
    write_entries(tmp_path, [*kept[:-1], bytes(flipped)])
    lines, said = reopened(tmp_path)
    assert lines == LINES[:50], "the undone lines stay undone"
    assert said == f"entry {len(kept)} of the journal was damaged; SQLite had it"


def test_an_acknowledged_undo_sqlite_lost_in_a_power_cut_stays_done_beside_a_torn_entry(tmp_path: Path) -> None:
    """Case 3, the other way: the power cut lost SQLite's unsynced undo commit and tore the next entry."""
    game = played(tmp_path, 100, keep_wal=False)
    earlier = tmp_path.with_name(tmp_path.name + "-earlier")
    earlier.mkdir()
    store = Store(tmp_path)
    for name in (FILENAME, f"{FILENAME}-wal"):
        shutil.copy(tmp_path / name, earlier / name)
    store.truncate(game, 50, {"year": 1})
    store.close()
    kept = entries(tmp_path)
    torn = kept[-1][:-1].replace(b'"keep":50', b'"n":51,"text":"{}"')[:30]  # the next press's entry, cut short
    write_entries(earlier, [*kept, torn])
    lines, said = reopened(earlier)
    assert lines == LINES[:50], "the undone line does not come back"
    assert said == ""


def test_lines_whole_in_one_copy_are_kept_when_both_copies_are_damaged(tmp_path: Path) -> None:
    """Case 4: a bit flipped in journal entry 61 of 120 and one byte in SQLite's -wal, past that line's commit."""
    played(tmp_path, 120)
    wal = tmp_path / f"{FILENAME}-wal"
    data = bytearray(wal.read_bytes())
    data[len(data) * 3 // 4] ^= 0x10
    wal.write_bytes(bytes(data))
    kept = entries(tmp_path)
    flipped = bytearray(kept[60])
    flipped[20] ^= 0x02
    write_entries(tmp_path, [*kept[:60], bytes(flipped), *kept[61:]])
    lines, said = reopened(tmp_path)
    assert lines == LINES, "the journal's entries after the damaged one, and SQLite's copy of it"
    assert said.endswith("brought back from the journal; entry 61 of the journal was damaged; SQLite had it"), said


def test_a_line_damaged_in_both_copies_is_named_and_its_game_set_aside(tmp_path: Path) -> None:
    """Case 4 where nothing can help: SQLite lost its last commits (its -wal gone) and the journal's entry of line
    61 does not read: what is lost is said, on the first screen and in ``games``, and nothing is resumed short."""
    store = Store(tmp_path / "live")
    game = store.new_game(LINES[0])
    for number in range(2, 41):
        store.append(game, number, [LINES[number - 1]], {"year": 1})
    store.idle()  # lines 1-40 checkpointed into SQLite's file
    for number in range(41, 121):
        store.append(game, number, [LINES[number - 1]], {"year": 1})
    folder = tmp_path / "cut"
    folder.mkdir()
    for name in (FILENAME, JOURNAL):  # a power cut's files, and SQLite's -wal lost
        shutil.copy(tmp_path / "live" / name, folder / name)
    store.close()
    kept = entries(folder)
    flipped = bytearray(kept[60])
    flipped[20] ^= 0x02
    write_entries(folder, [*kept[:60], bytes(flipped), *kept[61:]])
    store = Store(folder)
    try:
        info = store.games()[0]
        lines, why = store.record(game)
        assert info.status == "damaged" and store.unfinished() is None
        assert lines == LINES[:60]
        said = (
            f"lines 61-120 of game {game} are lost (line 61 damaged in both copies); the game is set aside at line 60"
        )
        assert store.problem is not None and said in store.problem, store.problem
        assert why is not None and "61" in why
    finally:
        store.close()
    again = Store(folder)
    try:
        assert again.record(game)[1] == said, "said at every start until the game is dealt with"
    finally:
        again.close()


def previous_store(folder: Path, sqlite_lines: int, journal_lines: int) -> None:
    """A store as the previous version left it: schema 4, no ``entries``; its journal's entries without order
    numbers (``{"g", "n", "text"}``, the last with the summary). SQLite holds SQLITE_LINES of the game, the journal
    JOURNAL_LINES (a power cut lost SQLite's last commits when it holds fewer)."""
    folder.mkdir()
    db = sqlite3.connect(folder / FILENAME, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    for step in range(1, 5):
        db.executescript(f"BEGIN; {MIGRATIONS[step]} PRAGMA user_version = {step}; COMMIT;")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    players = json.dumps(json.loads(LINES[0])["players"])
    db.execute("INSERT INTO games (started, players, updated) VALUES ('2026-01-01T00:00:00Z', ?, 'x')", (players,))
    db.executemany("INSERT INTO lines VALUES (1, ?, ?)", [(n, t) for n, t in enumerate(LINES[:sqlite_lines], 1)])
    db.close()
    entries = []
    for n, text in enumerate(LINES[:journal_lines], 1):
        extra = {"s": {"year": 1}} if n == journal_lines else {}
        body = json.dumps({"g": 1, "n": n, "text": text, **extra}, separators=(",", ":")).encode()
        entries.append(b"%08x %s\n" % (zlib.crc32(body), body))
    (folder / JOURNAL).write_bytes(b"".join(entries) + bytes(4096))


@pytest.mark.parametrize("journal_lines", [120, 90])
def test_a_store_of_the_previous_version_opens_with_every_line_and_its_copies_get_order_numbers(
    tmp_path: Path, journal_lines: int
) -> None:
    folder = tmp_path / "state"
    previous_store(folder, 90 if journal_lines == 120 else 120, journal_lines)
    store = Store(folder)
    try:
        assert store.record(1)[0] == LINES and store.unfinished() == 1
        store.append(1, 121, [NEXT], {"year": 1})
    finally:
        store.close()
    (previous,) = folder.glob(f"{JOURNAL}.previous-*")
    assert b'"o":' not in previous.read_bytes(), "the previous journal kept as it was"
    assert all(b'"o":' in line for line in entries(folder)) and len(entries(folder)) == 121
    lines, said = reopened(folder)
    assert len(lines) == 121 and lines[:120] == LINES and said == ""


def test_an_entry_both_copies_hold_alike_is_decoded_once_and_one_sqlite_damaged_is_still_told(tmp_path: Path) -> None:
    """At every open both copies are read whole; where SQLite's bytes are the journal's for the same number, the
    journal's reading stands for both (the same bytes read the same), and where they differ SQLite's are read on
    their own, so a damaged SQLite entry is still one SQLite lacks."""
    store = Store(tmp_path)
    game = store.new_game(LINES[0])
    store.append(game, 2, LINES[1:10])
    store.close()
    db = sqlite3.connect(tmp_path / FILENAME)
    (text,) = db.execute("SELECT entry FROM entries WHERE o = 5").fetchone()
    db.execute("UPDATE entries SET entry = ? WHERE o = 5", (text.replace('"n":', '"n" :', 1),))
    copy = reconcile_module.journal.read(tmp_path / JOURNAL)
    assert copy is not None
    mine = reconcile_module.sqlite_entries(db, copy)
    assert sorted(mine) == [o for o in sorted(copy.entries) if o != 5]
    assert all(mine[o][0] is copy.entries[o] for o in mine)
    assert sorted(reconcile_module.sqlite_entries(db)) == sorted(mine)
    db.close()
    reopened = Store(tmp_path)
    assert reopened.record(game)[0] == LINES[:10]
    reopened.close()
