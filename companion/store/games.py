"""The game store: every game's record lines in SQLite, committed before the screen acknowledges them.

WAL with ``synchronous=FULL``: a committed line survives a power cut. The schema is versioned and migrated forward.
A store that cannot be used (damaged, another program's file, a newer schema) is moved aside under a name no earlier
one has, never deleted, and a fresh one is made; only the companion itself does that (``repair=True``), never a
listing or an export. A full disk or an I/O error is not damage: nothing is moved, the companion says which directory
and stops (:class:`StoreUnavailable`), and the saved game goes on once there is room (tests/fault_harness.py). On a
read-only disk the saved games are copied into memory: the unfinished game goes on, unsaved, and the screen says so. The
directory is made 0700 and the file 0600: it holds ballots not yet revealed (rules.md 11).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from ..i18n import _
from . import files, journal
from .damage import WrongStore, damaged, link_problem
from .entries import encode, line_entries
from .journal import Journal
from .phones import PhoneRows
from .reading import GameReads, StoreError, StoreUnavailable
from .reconcile import Outcome, idle, lost_said, open_journal, readable_record, reconcile
from .schema import check_ours, migrate

log = logging.getLogger(__package__)  # "companion.store", the name its lines have always had

FILENAME = "games.sqlite3"


def now() -> str:
    """UTC in record-format.md's "t" form."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store(GameReads, PhoneRows):
    """One SQLite file of games. ``problem`` is set (and shown on screen) when the store had to be replaced or
    cannot save at all."""

    def __init__(
        self, directory: Path | None, *, memory: bool = False, read_only: bool = False, repair: bool = True
    ) -> None:
        """``read_only``: only read (``games``, ``export``): nothing is created, moved or written, and a store that
        cannot be read raises StoreError. ``repair=False`` is implied by it."""
        self.problem: str | None = None
        self.failure: str | None = None  # why the last write failed (the disk is full...), for the screen
        self.path: Path | None = None if memory or directory is None else directory / FILENAME
        self.saving = self.path is not None and not read_only
        self._repair = repair and not read_only
        self._journal: Journal | None = None
        self._written = False  # since the last idle moment's checkpoint
        self._next = 1  # the next entry's order number (entries.py)
        self._heads: dict[int, int] = {}  # each game's last entry
        self._head = (0, 0)  # the game and last entry of the write under way
        self._losses: dict[int, str] = {}  # games with an entry read in neither copy: which lines
        self._db = self._open_only() if read_only else self._open()
        if self.saving and self.path is not None:
            self._db = self._with_journal(self._db)

    # ------------------------------------------------------------------ opening

    def _connect(self, target: str) -> sqlite3.Connection:
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
        db.text_factory = files.text
        db.execute("PRAGMA busy_timeout = 5000")
        try:
            check_ours(db)  # before anything writes to the file: someone else's file stays untouched
            if target != ":memory:":
                mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode != "wal":
                    raise sqlite3.OperationalError(f"journal mode {mode}")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            db.close()
            raise
        return db

    def _open_only(self) -> sqlite3.Connection:
        """The games of the file and its -wal copied into memory, then brought in line with the journal there: SQLite
        never opens the files themselves, so nothing in the state directory is written or deleted (a listing must not
        change what it lists); raises StoreError when neither copy can be read."""
        assert self.path is not None
        history = journal.read(self.path.with_name(journal.NAME)) if not link_problem(self.path) else None
        entries = history.entries if history is not None else {}
        try:
            db = self._copy_of(self.path)
        except (sqlite3.DatabaseError, WrongStore, OSError) as error:
            problem = _("the saved games cannot be read ({error})").format(error=files.clip(str(error)))
            if not entries and not (history and history.legacy):
                if damaged(error):
                    problem += " " + _("(the companion moves it aside when it next starts)")
                raise StoreError(problem) from None
            db = migrate(self._connect(":memory:"))
            self.problem = problem + "; " + _("the games are read from the journal (the companion restores them "
                                              "when it next starts)")  # fmt: skip
        outcome = reconcile(db, history, now())
        if (said := self._found(outcome)) and self.problem is None:
            self.problem = _("{found} (shown so; the companion repairs its copies when it next starts)").format(
                found=said
            )
        return db

    def _found(self, outcome: Outcome) -> str | None:
        """What the copies' comparison found, kept: the order numbers to go on from, which games lost what."""
        self._next = outcome.state.last + 1
        self._heads = dict(outcome.state.heads)
        self._losses = {lost.game: lost_said(lost) for lost in outcome.state.lost if lost.game}
        return outcome.said()

    def _copy_of(self, path: Path) -> sqlite3.Connection:
        """The file and its -wal copied to a private temporary folder and read there into memory."""
        if problem := link_problem(path):
            raise WrongStore(problem)
        if not path.is_file():
            raise sqlite3.OperationalError("no such file")
        if problem := files.cut_to_nothing(path):
            raise WrongStore(problem)
        with files.reading_copy(path) as copy:
            source = sqlite3.connect(copy, check_same_thread=False)
            source.text_factory = files.text
            try:
                check_ours(source)
                source.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a damaged file fails here
                db = self._connect(":memory:")
                source.backup(db)
            finally:
                source.close()
        return migrate(db)

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return migrate(self._connect(":memory:"))
        try:
            files.private_directory(self.path.parent)
        except OSError as error:
            return self._without_saving(
                _("cannot create {parent} ({strerror})").format(
                    parent=files.short(self.path.parent), strerror=error.strerror
                )
            )
        if self.path.exists() and files.read_only(self.path):
            try:
                db = self._copy_of(self.path)
                self._found(reconcile(db, journal.read(self.path.with_name(journal.NAME)), now()))
            except (sqlite3.DatabaseError, WrongStore, OSError) as error:
                return self._without_saving(
                    _("{path} is read-only ({error})").format(path=files.short(self.path), error=error)
                )
            self.saving = False
            self.problem = _("games are not being saved: {reason}").format(
                reason=_("the disk is read-only; the saved game goes on")
            )
            log.error("game store: %s (%s)", self.problem, files.short(self.path))
            return db
        if files.no_room(self.path.parent, None):  # before SQLite opens a leftover -wal and writes its -shm
            raise self._unavailable(OSError(28, "no space left on device"))
        try:
            if problem := link_problem(self.path):
                raise WrongStore(problem)  # moved aside as it is: a rename moves the link, never what it points at
            if problem := files.cut_to_nothing(self.path):
                raise WrongStore(problem)  # SQLite would take it for an empty store and delete the -wal
            files.make_private(self.path)
            return migrate(self._connect(str(self.path)))
        except (sqlite3.DatabaseError, WrongStore, OSError) as error:
            if files.read_only(self.path):
                return self._without_saving(
                    _("{path} is read-only ({error})").format(path=files.short(self.path), error=error)
                )
            if not damaged(error):
                raise self._unavailable(error) from None
            if not self._repair:
                return self._without_saving(
                    _("{path} cannot be used ({error})").format(path=files.short(self.path), error=error)
                )
            aside = files.move_aside(self.path)
            if aside is not None:
                log.warning("game store moved aside to %s: %s", aside, error)
            else:
                return self._without_saving(
                    _("{path} cannot be used ({error}) and cannot be moved aside").format(
                        path=files.short(self.path), error=error
                    )
                )
            self.problem = _("the saved games could not be read ({error}); the old file is kept as {name}").format(
                error=error, name=aside.name
            )
            log.error("game store: %s", self.problem)
        try:
            files.make_private(self.path)
            return migrate(self._connect(str(self.path)))
        except (sqlite3.DatabaseError, WrongStore, OSError) as error:  # the fresh file: room or the disk failed
            raise self._unavailable(error) from None

    def _with_journal(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """The journal compared with SQLite, the loser repaired, then opened for appending (reconcile.py)."""
        assert self.path is not None
        self._journal, outcome = open_journal(db, self.path.with_name(journal.NAME))
        if said := self._found(outcome):
            self.problem = f"{self.problem}; {said}" if self.problem else said
        return db

    def _unavailable(self, error: BaseException) -> StoreUnavailable:
        """The one line said when the store cannot be opened and is not damaged: which directory, and what to do."""
        assert self.path is not None
        directory = files.short(self.path.parent)
        if files.no_room(self.path.parent, error):
            message = _(
                "the disk holding {directory} is full ({error}): make room there, then start again; "
                "the saved games are kept and go on"
            ).format(directory=directory, error=files.clip(str(error)))
        else:
            message = _(
                "the saved games in {directory} cannot be opened ({error}); nothing was moved: check the disk, "
                "then start again"
            ).format(directory=directory, error=files.clip(str(error)))
        return StoreUnavailable(message)  # said once, by whoever catches it (the command's one line)

    def _without_saving(self, reason: str) -> sqlite3.Connection:
        self.saving = False
        self.problem = _("games are not being saved: {reason}").format(reason=reason)
        log.error("game store: %s", self.problem)
        return migrate(self._connect(":memory:"))

    def close(self) -> None:
        self._db.close()
        if self._journal is not None:
            self._journal.close()

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _transaction(self, entries: Callable[[], list[bytes]] = list) -> Iterator[sqlite3.Connection]:
        """All or nothing; any failure becomes a StoreError whose message can go on the screen. The ENTRIES, the
        same bytes in SQLite's ``entries`` and the journal, are synced to the journal between SQLite's statements
        and its commit: that is the commit point (journal.py)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield self._db
            made = entries()
            self._db.executemany(
                "INSERT INTO entries (o, entry) VALUES (?, ?)",
                [(self._next + i, e.decode()) for i, e in enumerate(made)],
            )
            data = b"".join(made)
            size = self._journal.write(data) if self._journal is not None and data else None
            try:
                self._db.execute("COMMIT")
                self._written = True
                self._next += len(made)
                if made:
                    self._heads[self._head[0]] = self._head[1]
            except sqlite3.Error:
                if size is not None and self._journal is not None:
                    self._journal.cut(size)
                raise
        except (sqlite3.Error, OSError) as error:
            with suppress(sqlite3.Error):
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            full = "full" in str(error).lower() or getattr(error, "errno", None) in (28, 122)
            message = _("the disk is full") if full else _("saving failed ({error})").format(error=error)
            self.failure = message
            log.error("game store: %s", message)
            raise StoreError(message) from None

    def _write(
        self, statements: Iterable[tuple[str, tuple[Any, ...]]], entries: Callable[[], list[bytes]] = list
    ) -> None:
        with self._transaction(entries) as db:
            for sql, parameters in statements:
                db.execute(sql, parameters)

    def new_game(self, header: str, phones: Mapping[str, str] | None = None) -> int:
        """A new game, and which phone holds each of its seats (source -> digest): one transaction."""
        players = json.loads(header)["players"]
        stamp = now()
        game = 0
        with self._transaction(lambda: self._lines(game, 1, [header], {"started": stamp, "status": "playing"})) as db:
            cursor = db.execute(
                "INSERT INTO games (started, players, updated) VALUES (?, ?, ?)", (stamp, json.dumps(players), stamp)
            )
            assert cursor.lastrowid is not None
            game = cursor.lastrowid
            db.execute("INSERT INTO lines (game, seq, text) VALUES (?, 1, ?)", (game, header))
            db.executemany("INSERT INTO phones VALUES (?, ?, ?, 0)", [(game, *held) for held in (phones or {}).items()])
        return game

    def append(
        self,
        game: int,
        seq: int,
        lines: list[str],
        summary: Mapping[str, Any] | None = None,
        screen: Mapping[str, Any] | None = None,
    ) -> None:
        """Commit record lines ``seq``, ``seq + 1``... of a game (1 is the header), with ``screen``, the screen step
        they lead to, in the same transaction (one write a decision); raises StoreError."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO lines (game, seq, text) VALUES (?, ?, ?)", (game, seq + i, text))
            for i, text in enumerate(lines)
        ]
        statements.append(self._summary(game, summary))
        if screen is not None:
            statements.append((_SAVE_SCREEN, (game, json.dumps(screen))))
        self._write(statements, lambda: self._lines(game, seq, lines, _said(summary)))

    def truncate(self, game: int, keep: int, summary: Mapping[str, Any] | None = None) -> None:
        """Undo: keep the first ``keep`` lines."""
        self._write(
            [("DELETE FROM lines WHERE game = ? AND seq > ?", (game, keep)), self._summary(game, summary)],
            lambda: self._entry(game, keep=keep, **({"s": _said(summary)} if summary else {})),
        )

    def _lines(self, game: int, first: int, lines: list[str], summary: Mapping[str, Any] | None) -> list[bytes]:
        made = line_entries(self._next, game, self._heads.get(game, 0), first, lines, summary)
        self._head = (game, self._next + len(made) - 1)  # the game's last entry once they are committed
        return made

    def _entry(self, game: int, **fields: Any) -> list[bytes]:
        self._head = (game, self._next)
        return [encode(self._next, game, self._heads.get(game, 0), **fields)]

    def _summary(self, game: int, summary: Mapping[str, Any] | None) -> tuple[str, tuple[Any, ...]]:
        summary = summary or {}
        return (
            "UPDATE games SET status = coalesce(?, status), year = coalesce(?, year), "
            "winners = coalesce(?, winners), updated = ? WHERE id = ?",
            (
                summary.get("status"),
                summary.get("year"),
                json.dumps(summary["winners"]) if "winners" in summary else None,
                now(),
                game,
            ),
        )

    def save_screen(self, game: int, state: Mapping[str, Any]) -> None:
        """The screen step to come back to (pending notices); a failure here loses no decision."""
        try:
            self._db.execute(_SAVE_SCREEN, (game, json.dumps(state)))
            self._written = True
        except sqlite3.Error as error:
            log.warning("game store: the screen step was not saved (%s)", error)

    def idle(self) -> None:
        """What no press should wait for, done while the game waits for one (reconcile.idle)."""
        if self._journal is not None and self._written:
            self._written = not idle(self._db, self._journal)

    def record(self, game: int) -> tuple[list[str], str | None]:
        """A game's lines as far as they can be read, and why the next cannot be (None: all of them can): an entry
        of it read in neither copy names the lines it lost."""
        lines, why = readable_record(self._db, game)
        return lines, self._losses.get(game) or why

    def abandon(self, game: int, status: str = "abandoned") -> None:
        """The game is kept as STATUS (abandoned: given up at the table; damaged: set aside, damage.py)."""
        self._write(
            [("UPDATE games SET status = ?, updated = ? WHERE id = ?", (status, now(), game))],
            lambda: self._entry(game, s={"status": status}),
        )


_SAVE_SCREEN = "INSERT INTO screens (game, state) VALUES (?, ?) ON CONFLICT(game) DO UPDATE SET state = excluded.state"


def _said(summary: Mapping[str, Any] | None) -> dict[str, Any]:
    """What of a summary the journal keeps (the row's columns)."""
    return {k: summary[k] for k in ("status", "year", "winners") if summary and k in summary}
