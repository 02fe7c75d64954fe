"""Stores whose content is damaged where SQLite sees nothing wrong: every case passes ``quick_check``.

The base is a healthy store made through the Store API: game 1 played to its end, game 2 unfinished at line 80 with
a screens row (a notice to read). Each case is a copy with one damage, those first found (players not JSON, a blob in
players, a dropped column or table, ``user_version=-5``) and their neighbours, one per column and table. Each case
says what the companion must make of it:

- ``store``: the file's shape cannot be trusted; it is moved aside as it is and a fresh store started;
- ``row 1`` / ``row 2``: that game's row cannot be read: it is listed as damaged (game 2 is set aside, not resumed),
  the other game kept as it was, and its record still exports;
- ``record 1`` / ``record 2``: a line of that game's record is not text, missing or not a line of Doge: its export
  is refused in one line (nothing written); game 2 is set aside, game 1 (finished) kept as it was;
- ``screen``: the screens row alone is lost; game 2 goes on at its next screen;
- ``harmless``: read as it is (SQLite's column affinity stores the number as text); everything goes on.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from companion.flow.narration import Notice
from companion.flow.notice_store import screen_state
from companion.store import FILENAME, Store
from display.screen import Line
from tests.helpers import random_game

GAMES_NO_NOT_NULL = """
    CREATE TABLE g2 (id INTEGER PRIMARY KEY, started TEXT, players TEXT, status TEXT DEFAULT 'playing',
                     year INTEGER DEFAULT 1, winners TEXT DEFAULT '[]', updated TEXT);
    INSERT INTO g2 SELECT * FROM games; DROP TABLE games; ALTER TABLE g2 RENAME TO games;
"""
LINES_NO_NOT_NULL = """
    CREATE TABLE l2 (game INTEGER, seq INTEGER, text TEXT, PRIMARY KEY (game, seq));
    INSERT INTO l2 SELECT * FROM lines; DROP TABLE lines; ALTER TABLE l2 RENAME TO lines;
"""
UNFINISHED_AT = 80

# name -> (what the companion must make of it, the SQL that damages a copy of the base)
CASES: dict[str, tuple[str, str]] = {
    # games.players, .winners, .started, .year, .status
    "players-not-json-finished": ("row 1", "UPDATE games SET players = 'red, blue' WHERE id = 1"),
    "players-not-json-unfinished": ("row 2", "UPDATE games SET players = 'red, blue' WHERE id = 2"),
    "players-blob": ("row 1", "UPDATE games SET players = X'00FF10' WHERE id = 1"),
    "players-json-number": ("row 1", "UPDATE games SET players = '42' WHERE id = 1"),
    "players-json-list-of-numbers": ("row 1", "UPDATE games SET players = '[1, 2, 3]' WHERE id = 1"),
    "players-json-object": ("row 1", "UPDATE games SET players = '{\"red\": 1}' WHERE id = 1"),
    "players-null": ("row 1", GAMES_NO_NOT_NULL + "UPDATE games SET players = NULL WHERE id = 1"),
    "players-deep-json": ("row 1", "UPDATE games SET players = '" + "[" * 100_000 + "]" * 100_000 + "' WHERE id = 1"),
    "winners-not-json": ("row 1", "UPDATE games SET winners = 'red' WHERE id = 1"),
    "winners-blob": ("row 1", "UPDATE games SET winners = X'FFFE' WHERE id = 1"),
    "winners-json-numbers": ("row 1", "UPDATE games SET winners = '[7]' WHERE id = 1"),
    "started-null": ("row 1", GAMES_NO_NOT_NULL + "UPDATE games SET started = NULL WHERE id = 1"),
    "started-integer": ("harmless", "UPDATE games SET started = 12345 WHERE id = 1"),  # TEXT affinity: '12345'
    "year-text": ("row 2", "UPDATE games SET year = 'abc' WHERE id = 2"),
    "year-null": ("row 2", GAMES_NO_NOT_NULL + "UPDATE games SET year = NULL WHERE id = 2"),
    "status-unknown": ("row 2", "UPDATE games SET status = 'zzz' WHERE id = 2"),
    "status-null": ("row 2", GAMES_NO_NOT_NULL + "UPDATE games SET status = NULL WHERE id = 2"),
    # the file's shape: columns, tables, the schema version
    "dropped-column-players": ("store", "ALTER TABLE games DROP COLUMN players"),
    "dropped-column-winners": ("store", "ALTER TABLE games DROP COLUMN winners"),
    "dropped-column-status": ("store", "ALTER TABLE games DROP COLUMN status"),
    "dropped-column-screens-state": ("store", "ALTER TABLE screens DROP COLUMN state"),
    "dropped-table-games": ("store", "DROP TABLE games"),
    "dropped-table-lines": ("store", "DROP TABLE lines"),
    "dropped-table-screens": ("store", "DROP TABLE screens"),
    "games-is-a-view": ("store", "ALTER TABLE games RENAME TO g_old; CREATE VIEW games AS SELECT * FROM g_old"),
    "user-version-minus-5": ("store", "PRAGMA user_version = -5"),
    "user-version-0-with-tables": ("store", "PRAGMA user_version = 0"),
    "user-version-1-with-screens": ("store", "PRAGMA user_version = 1"),
    # record lines
    "header-not-json-unfinished": ("record 2", "UPDATE lines SET text = 'not json' WHERE game = 2 AND seq = 1"),
    "header-not-json-finished": ("record 1", "UPDATE lines SET text = 'not json' WHERE game = 1 AND seq = 1"),
    "line-not-json-unfinished": ("record 2", "UPDATE lines SET text = '{\"player\": ' WHERE game = 2 AND seq = 50"),
    "line-illegal-unfinished": (
        "record 2",
        'UPDATE lines SET text = \'{"player": "red", "houses": 99}\' WHERE game = 2 AND seq = 50',
    ),
    "line-not-json-finished": ("record 1", "UPDATE lines SET text = '{\"player\": ' WHERE game = 1 AND seq = 50"),
    "line-blob-unfinished": ("record 2", "UPDATE lines SET text = X'FF00FF' WHERE game = 2 AND seq = 50"),
    "line-null-unfinished": (
        "record 2",
        LINES_NO_NOT_NULL + "UPDATE lines SET text = NULL WHERE game = 2 AND seq = 50",
    ),
    "line-missing-unfinished": ("record 2", "DELETE FROM lines WHERE game = 2 AND seq = 50"),
    "no-lines-unfinished": ("record 2", "DELETE FROM lines WHERE game = 2"),
    # the screens row: which notice was showing, nothing else
    "screens-not-json": ("screen", "UPDATE screens SET state = 'not json' WHERE game = 2"),
    "screens-blob": ("screen", "UPDATE screens SET state = X'00FF' WHERE game = 2"),
    "screens-wrong-shape": ("screen", "UPDATE screens SET state = '[1, 2]' WHERE game = 2"),
    "screens-bad-notice": ("screen", 'UPDATE screens SET state = \'{"notices": [{"title": 5}]}\' WHERE game = 2'),
    "screens-notice-not-text": (
        "screen",
        'UPDATE screens SET state = \'{"notices": [{"title": 5, "lines": [], "rule": null, "tag": "x"}]}\' '
        "WHERE game = 2",
    ),
}


def make_base(folder: Path) -> Path:
    """The healthy store: game 1 over, game 2 unfinished with a notice still to read."""
    finished, _snaps, state = random_game(1)
    assert state.is_over
    unfinished = random_game(2)[0][:UNFINISHED_AT]
    store = Store(folder)
    one = store.new_game(finished[0])
    store.append(one, 2, finished[1:], {"status": "over", "year": state.year, "winners": ["red"]})
    two = store.new_game(unfinished[0])
    store.append(two, 2, unfinished[1:], {"year": 2})
    notice = Notice("Blue: put 2 houses", (Line("Blue: take 2 houses from your supply", "normal", "blue"),), "6.1")
    store.save_screen(two, screen_state([notice]))
    store.close()
    return folder / FILENAME


def damaged_copy(base: Path, case: str, folder: Path) -> Path:
    """FOLDER holding a copy of BASE with CASE's damage, checkpointed (no -wal left), private as the companion makes
    it; quick_check still says ok. Its ``entries`` are emptied and no journal is beside it: with either, the rows
    and lines would be rebuilt from the events (tests/test_store_copies.py); these cases are the last resort."""
    folder.mkdir(mode=0o700, parents=True)
    target = folder / FILENAME
    shutil.copy(base, target)
    db = sqlite3.connect(target, isolation_level=None)
    db.execute("PRAGMA foreign_keys = OFF")
    db.executescript(CASES[case][1])
    if db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'entries'").fetchone()[0]:
        db.execute("DELETE FROM entries")  # and no order-numbered copy of the events: the rows are all there is
    assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok", "SQLite must see nothing wrong"
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    return target
