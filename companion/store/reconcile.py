"""The two copies compared (issue 42): SQLite's lines and the journal's, game by game, at every open.

Which wins: while every journal entry reads (checksums good, nothing cut short), the journal is the truth. It is the
commit point (a press is acknowledged once its entries are synced, and SQLite commits after them, unsynced), so
SQLite can only lack what the journal has (its last commits lost in a power cut, a flipped bit in its -wal, a file
cut to nothing) or hold an undo's lines the journal has already taken back. Once an entry of the journal is damaged,
neither is trusted over the other: for each game the longer valid history wins (the copy that lost nothing). The
loser is repaired: SQLite's rows rewritten from the journal's lines, or the journal written anew from SQLite.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _
from . import files, journal
from .damage import DAMAGED, STATUSES, summary
from .journal import History, Journal

log = logging.getLogger(__package__)

# With the journal as the commit point, SQLite's -wal is copied into its file (a checkpoint: the -wal's pages and the
# file's, each synced, some 1,000 blocks on the card after SQLite's default 1,000 pages) when the game waits for a
# press (:func:`idle`); on a press only once the -wal has grown this far (some 30 MB) without an idle moment.
WAL_PAGES = 8000


@dataclass
class Outcome:
    recovered: dict[int, int] = field(default_factory=dict)  # game -> lines SQLite got back from the journal
    rows: list[int] = field(default_factory=list)  # games whose row was rewritten from the journal
    journal_stale: bool = False  # the journal lacks or contradicts what SQLite holds: write it anew


def sqlite_lines(db: sqlite3.Connection) -> dict[int, list[str]]:
    """Each game's lines as far as they read (numbered from 1 without a gap, each text)."""
    found: dict[int, list[str]] = {}
    broken: set[int] = set()
    for game, seq, text in db.execute("SELECT game, seq, text FROM lines ORDER BY game, seq"):
        if type(game) is not int or game in broken:
            continue
        lines = found.setdefault(game, [])
        if seq != len(lines) + 1 or type(text) is not str:
            broken.add(game)
            continue
        lines.append(text)
    for (game,) in db.execute("SELECT id FROM games"):
        found.setdefault(game, [])
    return found


def _row_problem(db: sqlite3.Connection, game: int) -> bool | None:
    """None: no row; True: a row that cannot be read (damage.py); False: a good one."""
    row = db.execute("SELECT started, players, status, year, winners FROM games WHERE id = ?", (game,)).fetchone()
    return None if row is None else summary(*row)[5] is not None


def reconcile(db: sqlite3.Connection, history: History | None, stamp: str) -> Outcome:
    """Brings DB (in a transaction of the caller's) in line with the winning copy of each game; says what changed."""
    outcome = Outcome()
    stored = sqlite_lines(db)
    if history is None:
        outcome.journal_stale = bool(stored)
        return outcome
    if history.damage is not None:
        outcome.journal_stale = True
    for game in sorted(set(stored) | set(history.lines)):
        mine, theirs = stored.get(game, []), history.lines.get(game, [])
        row = _row_problem(db, game)
        journal_wins = bool(theirs) and (len(theirs) > len(mine) if history.damage is not None else True)
        if not journal_wins:
            if mine != theirs:
                outcome.journal_stale = True
            continue
        if mine == theirs and row is False:
            continue
        if mine != theirs:
            same = next(
                (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), min(len(mine), len(theirs))
            )
            outcome.recovered[game] = max(len(theirs) - same, 1)
            db.execute("DELETE FROM lines WHERE game = ?", (game,))
        _write_row(db, game, theirs, history.summaries.get(game, {}), row, stamp)
        if mine != theirs:
            db.executemany(
                "INSERT INTO lines (game, seq, text) VALUES (?, ?, ?)", [(game, n, t) for n, t in enumerate(theirs, 1)]
            )
        elif row is not False:
            outcome.rows.append(game)
    return outcome


def _write_row(
    db: sqlite3.Connection, game: int, lines: list[str], said: dict[str, Any], row: bool | None, stamp: str
) -> None:
    try:
        players = json.loads(lines[0]).get("players")
    except (ValueError, AttributeError, RecursionError):
        players = None
    players = players if type(players) is list and all(type(p) is str for p in players) else []
    status = said.get("status") if said.get("status") in STATUSES else "playing"
    year = said.get("year") if type(said.get("year")) is int else 1
    winners = said.get("winners") if type(said.get("winners")) is list else []
    started = said.get("started") if type(said.get("started")) is str else stamp
    if row is None:
        db.execute(
            "INSERT INTO games (id, started, players, status, year, winners, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game, started, json.dumps(players), status, year, json.dumps(winners), stamp),
        )
    elif row:
        db.execute(
            "UPDATE games SET started = ?, players = ?, status = ?, year = ?, winners = ?, updated = ? WHERE id = ?",
            (started, json.dumps(players), status, year, json.dumps(winners), stamp, game),
        )
    else:
        fields: dict[str, Any] = {k: said[k] for k in ("status", "year") if k in said}
        if "winners" in said:
            fields["winners"] = json.dumps(winners)
        if fields.get("status") not in (None, *STATUSES) or type(fields.get("year", 0)) is not int:
            return
        for key, value in fields.items():
            db.execute(f"UPDATE games SET {key} = ? WHERE id = ?", (value, game))


def summaries_of(db: sqlite3.Connection) -> dict[int, dict[str, Any]]:
    """Each game's summary as SQLite holds it, for a journal written anew."""
    found = {}
    for game, started, players, status, year, winners in db.execute(
        "SELECT id, started, players, status, year, winners FROM games"
    ):
        _s, _p, status, year, won, problem = summary(started, players, status, year, winners)
        if problem is None:
            found[game] = {"started": started, "status": status, "year": year, "winners": won}
    return found


def open_journal(db: sqlite3.Connection, path: Path) -> tuple[Journal | None, str | None]:
    """The journal at PATH compared with DB (a writable store), the loser repaired, then opened for appending: from
    here a press is acknowledged once its entries are synced there, and SQLite commits without a sync of its own.
    Returns it (None: it cannot be written, SQLite alone keeps the games, synced) and what to tell the table."""
    from .games import now

    try:
        if path.is_symlink():
            files.move_journal_aside(path, "link")
        history = journal.read(path)
        db.execute("BEGIN IMMEDIATE")
        outcome = reconcile(db, history, now())
        db.execute("COMMIT")
        if outcome.journal_stale:
            if history is not None and history.damage is not None:
                aside = files.move_journal_aside(path, "broken")
                log.warning("game store: the journal is %s (%s); kept as %s", DAMAGED, history.damage, aside)
            journal.rewrite(path, sqlite_lines(db), summaries_of(db))
        opened = Journal(path)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
    except (OSError, sqlite3.Error) as error:
        with suppress(sqlite3.Error):
            if db.in_transaction:
                db.execute("ROLLBACK")
        log.error("game store: the journal cannot be written (%s); SQLite alone keeps the games", error)
        return None, None
    if not outcome.recovered and not outcome.rows:
        return opened, None
    games = sorted({*outcome.recovered, *outcome.rows})
    said = _("{count} acknowledged lines of game {games} brought back from the journal").format(
        count=sum(outcome.recovered.values()), games=", ".join(map(str, games))
    )
    log.warning("game store: %s", said)
    return opened, said


def idle(db: sqlite3.Connection, opened: Journal) -> bool:
    """What no press should wait for, done while the game waits for one: SQLite's -wal copied into its file (the
    journal holds every acknowledged line meanwhile) and the journal's zeros written ahead. False if it failed, which
    loses nothing: the next idle moment tries again."""
    try:
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        opened.make_room()
    except (sqlite3.Error, OSError) as error:
        log.warning("game store: the checkpoint was not made (%s)", error)
        return False
    return True


def readable_record(db: sqlite3.Connection, game: int) -> tuple[list[str], str | None]:
    """A game's lines as far as they can be read (numbered from 1, text, replaying: export.py's ``readable``), and
    why the next cannot be (None: the whole record reads): what export writes and recover goes on from."""
    from .export import readable

    lines: list[str] = []
    why = None
    for seq, text in db.execute("SELECT seq, text FROM lines WHERE game = ? ORDER BY seq", (game,)):
        if seq != len(lines) + 1 or type(text) is not str:
            why = _("line {number} is missing") if seq != len(lines) + 1 else _("line {number} is not text")
            why = why.format(number=len(lines) + 1)
            break
        lines.append(text)
    if not lines and why is None:
        why = _("line {number} is missing").format(number=1)
    valid, bad = readable(lines)
    return lines[:valid], bad or why
