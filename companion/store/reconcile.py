"""The two copies compared entry by entry (entries.py), at every open, reads included.

Every acknowledged event carries the same order number in SQLite's ``entries`` and in the journal, so neither copy is
the truth over the other: the state is rebuilt from the union of the entries that read in either, in order, and each
copy is then given what it lacks (docs/architecture.md, "Which copy is the truth", has the cases). A copy that could
not be written is known to be behind: SQLite records from which entry it went on alone (the ``behind`` table), and
the journal's entries from there are not read (whatever is there was never acknowledged) until it is written anew.
What came back, from which copy, and what read in neither (then the game is set aside, and says which lines) is said.
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
from . import files, journal, legacy
from .damage import DAMAGED, STATUSES, summary
from .entries import Entry, Lost, State, decode, encode, line_entries, rebuild
from .journal import Copy, Journal

log = logging.getLogger(__package__)

# With the journal as the commit point, SQLite's -wal is copied into its file (a checkpoint: the -wal's pages and the
# file's, each synced, some 1,000 blocks on the card after SQLite's default 1,000 pages) when the game waits for a
# press (:func:`idle`); on a press only once the -wal has grown this far (some 30 MB) without an idle moment.
WAL_PAGES = 8000


@dataclass
class Outcome:
    state: State = field(default_factory=State)
    from_journal: dict[int, int] = field(default_factory=dict)  # game -> lines SQLite lacked and the journal had
    from_sqlite: dict[int, int] = field(default_factory=dict)  # game -> lines the journal lacked and SQLite had
    damaged: list[int] = field(default_factory=list)  # entries that did not read in the journal; SQLite had them
    lost: list[Lost] = field(default_factory=list)  # entries read in neither copy, found now
    journal_stale: bool = False  # the journal lacks what the union holds (or holds damage): write it anew
    behind: int | None = None  # the journal is behind from this entry (SQLite went on alone)
    migrated: bool = False  # a store of the previous version, given order numbers
    raws: list[bytes] = field(default_factory=list)  # the union's entries in order: the journal written anew
    lacks: int | None = None  # the first entry the journal lacks (None: it lacks nothing)

    def said(self) -> str | None:
        """What the table is told, one sentence a fact, None when the copies agreed."""
        parts = [
            _("{count} acknowledged lines of game {game} brought back from the journal").format(count=n, game=g)
            for g, n in sorted(self.from_journal.items())
        ]
        parts += [
            _("{count} acknowledged lines of game {game} brought back from SQLite").format(count=n, game=g)
            for g, n in sorted(self.from_sqlite.items())
        ]
        if len(self.damaged) == 1:
            parts.append(_("entry {entry} of the journal was damaged; SQLite had it").format(entry=self.damaged[0]))
        elif self.damaged:
            parts.append(
                _("entries {entries} of the journal were damaged; SQLite had them").format(entries=spans(self.damaged))
            )
        parts += [lost_said(lost) for lost in self.lost]
        return "; ".join(parts) or None


def spans(numbers: list[int]) -> str:
    """1, 2, 3, 7 -> "1-3, 7"."""
    found: list[list[int]] = []
    for number in sorted(numbers):
        if found and number == found[-1][1] + 1:
            found[-1][1] = number
        else:
            found.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in found)


def lost_said(lost: Lost) -> str:
    """An entry read in neither copy, in one sentence: which lines of which game, as far as that can be told."""
    if lost.lines is not None:
        first, last = lost.lines
        return (
            _("line {first} of game {game} is lost (damaged in both copies); the game is set aside at line {kept}")
            if first == last
            else _(
                "lines {first}-{last} of game {game} are lost (line {first} damaged in both copies); the game is set "
                "aside at line {kept}"
            )
        ).format(first=first, last=last, game=lost.game, kept=first - 1)
    if lost.game:
        return _(
            "entry {entry} of game {game} (a line, an undo or a change of status) is lost, damaged in both copies; "
            "the game is set aside"
        ).format(entry=lost.order, game=lost.game)
    return _("entry {entry} is lost, damaged in both copies; which game's it was cannot be told").format(
        entry=lost.order
    )


def sqlite_entries(db: sqlite3.Connection, copy: Copy | None = None) -> dict[int, tuple[Entry, bytes]]:
    """SQLite's entries that read whole (each under its checksum, as in the journal), by order number. An entry
    whose bytes are the journal's own for the same number reads as the journal's did: it is decoded once, not twice
    (at every open, a year of games is some ten thousand entries in each copy)."""
    found = {}
    same = {} if copy is None else copy.raw
    for order, text in db.execute("SELECT o, entry FROM entries ORDER BY o"):
        raw = text.encode() if type(text) is str else text if type(text) is bytes else b""
        if same.get(order) == raw and copy is not None:
            found[order] = (copy.entries[order], raw)
            continue
        value = decode(raw.rstrip(b"\n"))
        if value is not None and value["o"] == order:
            found[order] = (value, raw)
    return found


def behind(db: sqlite3.Connection) -> int | None:
    row = db.execute("SELECT since FROM behind WHERE copy = 'journal'").fetchone()
    return row[0] if row and type(row[0]) is int else None


def reconcile(db: sqlite3.Connection, copy: Copy | None, stamp: str) -> Outcome:
    """Brings DB (in a transaction of the caller's) in line with the union of both copies; says what changed. The
    journal is only read: the caller writes it anew when ``journal_stale``."""
    outcome = Outcome(behind=behind(db))
    mine = sqlite_entries(db, copy)
    previous = not mine and (copy is None or not copy.entries)
    if previous and ((copy is not None and copy.legacy) or any(legacy.sqlite_lines(db).values())):
        mine = _migrated(db, copy, stamp)
        outcome.migrated = outcome.journal_stale = True
        copy = None
    theirs = {} if copy is None else dict(copy.entries)
    raw = {} if copy is None else dict(copy.raw)
    if outcome.behind is not None:  # never acknowledged there: SQLite went on alone from here
        theirs = {o: e for o, e in theirs.items() if o < outcome.behind}
    union: dict[int, Entry] = {o: e for o, (e, _raw) in mine.items()}
    union.update(theirs)  # where both read and differ, the journal's: it is the commit point
    raws = {o: r for o, (_e, r) in mine.items()}
    raws.update({o: raw[o] for o in theirs})
    state = rebuild(union)
    outcome.lost = [lost for lost in state.lost if not lost.told]
    fills = _fills(state)
    for line in fills:
        value = decode(line.rstrip(b"\n"))
        assert value is not None
        union[value["o"]], raws[value["o"]] = value, line
    if fills:
        state = rebuild(union)
    outcome.state = state
    for game, origins in state.origins.items():
        if count := sum(1 for o in origins if o not in mine):
            outcome.from_journal[game] = count
        if copy is not None and (
            count := sum(1 for o in origins if o not in theirs and o in mine and not copy.damaged_at(o))
        ):
            outcome.from_sqlite[game] = count
    if copy is not None:
        outcome.damaged = [o for o in sorted(mine) if o not in theirs and copy.damaged_at(o)]
    outcome.lacks = min((o for o in union if o not in theirs), default=None)
    outcome.journal_stale = outcome.journal_stale or (
        copy is None or bool(copy.damaged) or copy.torn or outcome.behind is not None or outcome.lacks is not None
    )
    db.executemany(
        "INSERT OR REPLACE INTO entries (o, entry) VALUES (?, ?)",
        [(o, raws[o].decode()) for o in sorted(union) if o not in mine],
    )
    _write_state(db, state, stamp)
    outcome.raws = [raws[o] for o in sorted(union)]
    return outcome


def _fills(state: State) -> list[bytes]:
    """For each entry read in neither copy and not yet said: an entry in its place saying so, and its game (when
    that is known) set aside as damaged after its last entry: so a later start neither says it again as news nor
    resumes the game, and ``games`` names the lines until the game is dealt with (``recover``)."""
    found, order = [], state.last
    for lost in state.lost:
        if lost.told or not lost.order:
            continue
        found.append(encode(lost.order, lost.game, 0, lost=list(lost.lines or ())))
    for game in sorted({lost.game for lost in state.lost if lost.game and not lost.told}):
        order += 1
        found.append(encode(order, game, state.heads.get(game, 0), s={"status": DAMAGED}))
    return found


def _migrated(db: sqlite3.Connection, copy: Copy | None, stamp: str) -> dict[int, tuple[Entry, bytes]]:
    """A store of the previous version (no order numbers in either copy): its games as its own rule chose them,
    written as SQLite's first entries."""
    history = legacy.read_lines(copy.lines) if copy is not None else None
    chosen = legacy.winners(history, legacy.sqlite_lines(db))
    rows = {row[0]: row[1:] for row in db.execute("SELECT id, started, players, status, year, winners FROM games")}
    whole = _whole(db)
    found: dict[int, tuple[Entry, bytes]] = {}
    order = 1
    for game, (lines, said) in sorted(chosen.items()):
        if not said and game not in whole:
            continue  # its row or lines do not read: left as they are, for damage.py's checks to set it aside
        started, _players, status, year, won, problem = summary(*rows.get(game, (None,) * 5))
        told = {"started": started, "status": status, "year": year, "winners": won} if problem is None else {}
        told.update(said)
        for line in line_entries(order, game, 0, 1, lines, told) or [encode(order, game, 0, s=told)]:
            value = decode(line.rstrip(b"\n"))
            assert value is not None
            found[value["o"]] = (value, line)
            order += 1
    db.executemany("INSERT INTO entries (o, entry) VALUES (?, ?)", [(o, r.decode()) for o, (_e, r) in found.items()])
    return found


def _whole(db: sqlite3.Connection) -> set[int]:
    """The games whose row reads and whose lines are all text, numbered from 1 without a gap."""
    counts = dict(db.execute("SELECT game, count(*) FROM lines GROUP BY game").fetchall())
    lines = legacy.sqlite_lines(db)
    return {
        game
        for game, (started, players, status, year, winners) in (
            (row[0], row[1:]) for row in db.execute("SELECT id, started, players, status, year, winners FROM games")
        )
        if summary(started, players, status, year, winners)[5] is None
        and lines.get(game)
        and len(lines[game]) == counts.get(game)
    }


def _write_state(db: sqlite3.Connection, state: State, stamp: str) -> None:
    """SQLite's lines and rows made what STATE says, where they differ: a game with an entry lost is set aside."""
    stored = legacy.sqlite_lines(db)
    damaged = {lost.game for lost in state.lost}
    for game, lines in state.lines.items():
        if not lines and game not in damaged:
            continue  # a game whose header no entry holds (one the previous version's store had set aside)
        said = dict(state.summaries.get(game, {}))
        if game in damaged and said.get("status") not in (DAMAGED, "recovered"):
            said["status"] = DAMAGED
        row = _row_problem(db, game)
        if row is not False or _differs(db, game, said):
            _write_row(db, game, lines, said, row, stamp)
        if stored.get(game) != lines:
            db.execute("DELETE FROM lines WHERE game = ?", (game,))
            db.executemany(
                "INSERT INTO lines (game, seq, text) VALUES (?, ?, ?)", [(game, n, t) for n, t in enumerate(lines, 1)]
            )


def _differs(db: sqlite3.Connection, game: int, said: dict[str, Any]) -> bool:
    row = db.execute("SELECT status, year, winners FROM games WHERE id = ?", (game,)).fetchone()
    if row is None:
        return True
    now = {"status": row[0], "year": row[1], "winners": json.loads(row[2]) if type(row[2]) is str else row[2]}
    return any(key in said and said[key] != now[key] for key in now)


def _row_problem(db: sqlite3.Connection, game: int) -> bool | None:
    """None: no row; True: a row that cannot be read (damage.py); False: a good one."""
    row = db.execute("SELECT started, players, status, year, winners FROM games WHERE id = ?", (game,)).fetchone()
    return None if row is None else summary(*row)[5] is not None


def _write_row(
    db: sqlite3.Connection, game: int, lines: list[str], said: dict[str, Any], row: bool | None, stamp: str
) -> None:
    try:
        players = json.loads(lines[0]).get("players") if lines else None
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


def open_journal(db: sqlite3.Connection, path: Path) -> tuple[Journal | None, Outcome]:
    """The journal at PATH compared with DB (a writable store), each copy given what it lacks, then opened for
    appending: from here a press is acknowledged once its entries are synced there, and SQLite commits without a
    sync of its own. Returns it (None: it cannot be written; SQLite alone keeps the games, synced, and records from
    which entry) and what was found."""
    from .games import now

    outcome = Outcome()
    try:
        if path.is_symlink():
            files.move_journal_aside(path, "link")
        copy = journal.read(path)
        db.execute("BEGIN IMMEDIATE")
        outcome = reconcile(db, copy, now())
        db.execute("COMMIT")
        if outcome.journal_stale:
            if copy is not None and (copy.damaged or copy.torn or copy.legacy):
                aside = files.move_journal_aside(path, "previous" if copy.legacy else "broken")
                log.warning("game store: the journal was %s; kept as %s", "old" if copy.legacy else DAMAGED, aside)
            journal.rewrite(path, outcome.raws)
            db.execute("DELETE FROM behind")
        opened = Journal(path)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
    except (OSError, sqlite3.Error) as error:
        with suppress(sqlite3.Error):
            if db.in_transaction:
                db.execute("ROLLBACK")
        log.error("game store: the journal cannot be written (%s); SQLite alone keeps the games", error)
        with suppress(sqlite3.Error):  # from where the journal lacks entries, or the next one
            since = outcome.lacks or (db.execute("SELECT max(o) FROM entries").fetchone()[0] or 0) + 1
            db.execute("INSERT OR IGNORE INTO behind (copy, since) VALUES ('journal', ?)", (since,))
        return None, outcome
    if said := outcome.said():
        log.warning("game store: %s", said)
    return opened, outcome


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
