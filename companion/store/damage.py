"""What the store does not take on trust: a file SQLite reads without complaint can still hold what the companion
never wrote (tests/store_damage.py's cases: a column dropped, a blob where a list of players belongs, a schema version
of -5).

Two kinds, each handled where it lies, so that nothing is lost and nothing stops the companion:

- the file's shape: a table or column missing, a view where a table belongs, a schema version no migration leads
  from. Nothing in it can be trusted to mean what it says: the whole file is moved aside, as SQLite damage is, and a
  fresh store started (:class:`WrongStore`).
- one game's content: its row in ``games`` (players not a list of names, a year that is not a number) or its
  record lines (not text, missing). That game alone is set aside, marked ``damaged``; the others are kept and go on.
  A screens row holds only which notice was showing: a bad one loses only that (:func:`screen_state`).

Every check reads what a healthy store holds anyway, at most once per open: the schema (a few rows of sqlite_master)
and, lazily, each row as it is listed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from ..i18n import _, shown

STATUSES = ("playing", "over", "abandoned", "damaged", "recovered")  # recovered: damaged, its valid lines go on
DAMAGED = "damaged"
# SQLite's primary result codes that mean the file itself is damaged; any other failure (SQLITE_FULL, SQLITE_IOERR
# when the -shm cannot be grown on a full disk, SQLITE_CANTOPEN...) leaves the file as it is.
_DAMAGE_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


class WrongStore(Exception):
    """Not a store of ours, or a damaged one: the companion moves it aside."""


def damaged(error: BaseException) -> bool:
    """Only a file that is really damaged (or not ours) is moved aside; a full disk or an I/O error is not damage."""
    if isinstance(error, WrongStore):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.DatabaseError) and code is not None and code & 0xFF in _DAMAGE_CODES


def link_problem(path: Path) -> str | None:
    """Why the store at PATH must not be opened where it is: it, or its -wal or -shm, is a symbolic link, which
    SQLite would follow out of the private state directory (a dangling one it would create at its target)."""
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").is_symlink():
            return _("{name} is a symbolic link; the companion does not follow links in its state directory").format(
                name=f"{path.name}{suffix}"
            )
    return None


@cache
def _shape(version: int, migrations: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Each table a store of schema VERSION has, with its columns: the migrations applied to an empty database, so
    a migration added later is checked without anything here changing."""
    db = sqlite3.connect(":memory:")
    try:
        for script in migrations[:version]:
            db.executescript(script)
        return _tables(db)
    finally:
        db.close()


def _tables(db: sqlite3.Connection) -> dict[str, frozenset[str]]:
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: frozenset(row[1] for row in db.execute(f'PRAGMA table_info("{name}")')) for name in names}


def check_shape(db: sqlite3.Connection, version: int, ours: bool, migrations: Mapping[int, str]) -> None:
    """Raises WrongStore unless the file has every table and column schema VERSION has (OURS: it carries our
    application id). A newer version's file is refused before this, by its version alone."""
    if version < 0 or (ours and version == 0):
        raise WrongStore(_("damaged (schema version {version})").format(version=version))
    if version == 0:
        return  # a new, empty file, or another program's (refused by its tables already)
    expected = _shape(version, tuple(migrations[step] for step in sorted(migrations)))
    found = _tables(db)
    for table, columns in expected.items():
        if table not in found:
            raise WrongStore(_("damaged (the table {name} is missing)").format(name=table))
        missing = sorted(columns - found[table])
        if missing:
            raise WrongStore(_("damaged (the column {name} is missing)").format(name=f"{table}.{missing[0]}"))


def migration_failed(error: sqlite3.Error, step: int) -> Exception:
    """A migration that SQLite refuses as a statement (a table it creates is there already: the schema version
    lies) means a damaged file; any other failure (a full disk) is left for the caller to tell apart."""
    if getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_ERROR:
        reason = shown(str(error), 80)
        return WrongStore(
            _("damaged (it cannot be brought to schema {step}: {reason})").format(step=step, reason=reason)
        )
    return error


Summary = tuple[str, list[str], str, int, list[str], str | None]


def summary(started: Any, players: Any, status: Any, year: Any, winners: Any) -> Summary:
    """A games row read without trusting it: (started, players, status, year, winners, problem), where PROBLEM says
    what could not be read (the row's game is then set aside, never resumed) and the rest is what could be."""
    names = _names(players)
    won = _names(winners)
    problem = None
    if type(started) is not str:
        problem = _("its start is not readable")
    elif names is None:
        problem = _("its players are not readable")
    elif status not in STATUSES:
        problem = _("its status is not readable")
    elif type(year) is not int:
        problem = _("its year is not readable")
    elif won is None:
        problem = _("its winners are not readable")
    return (
        shown(str(started), 20) if type(started) is not str else started,
        names or [],
        status if problem is None else DAMAGED,
        year if type(year) is int else 0,
        won or [],
        problem,
    )


def _names(text: Any) -> list[str] | None:
    """A JSON list of player ids, as the store writes them, or None."""
    try:
        value = json.loads(text) if type(text) is str else None
    except (ValueError, RecursionError):
        return None
    if type(value) is not list or not all(type(name) is str for name in value):
        return None
    return [shown(name, 16) for name in value]


def screen_state(text: Any) -> dict[str, Any]:
    """A screens row's state (the notices still to read), or {} when it cannot be read: the game goes on without
    them, at its next screen (the row holds nothing else)."""
    try:
        value = json.loads(text) if type(text) is str else None
    except (ValueError, RecursionError):
        value = None
    return value if type(value) is dict else {}
