"""The store's schema: its version, its migrations, and the check that a file is a store of ours before anything
writes to it."""

from __future__ import annotations

import sqlite3
from contextlib import suppress

from ..i18n import _
from . import files
from .damage import DAMAGED, WrongStore, check_shape, migration_failed

SCHEMA_VERSION = 5
APPLICATION_ID = 0x446F6765  # "Doge": marks the file as ours (PRAGMA application_id)

MIGRATIONS = {
    1: """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            started TEXT NOT NULL,
            players TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing',
            year INTEGER NOT NULL DEFAULT 1,
            winners TEXT NOT NULL DEFAULT '[]',
            updated TEXT NOT NULL
        );
        CREATE TABLE lines (
            game INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (game, seq)
        );
    """,
    2: """
        CREATE TABLE screens (
            game INTEGER PRIMARY KEY REFERENCES games(id),
            state TEXT NOT NULL
        );
    """,
    # Which phone holds a seat (the pad source the header names): the SHA-256 of its seat token, never the token.
    3: "CREATE TABLE phones (game INTEGER NOT NULL REFERENCES games(id), source TEXT NOT NULL, "
    "digest TEXT NOT NULL, PRIMARY KEY (game, source));",
    # Whether the seat's locked-in ballot was made before its phone got the seat (another phone's, a keypad's): that
    # phone is shown only that it is locked in, through a restart too, until the ballot is revealed or undone.
    4: "ALTER TABLE phones ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;",
    # Every acknowledged event as the journal holds it, under the same order number (entries.py), and from which
    # entry the journal is behind when SQLite went on alone (reconcile.py).
    5: "CREATE TABLE entries (o INTEGER PRIMARY KEY, entry TEXT NOT NULL); "
    "CREATE TABLE behind (copy TEXT PRIMARY KEY, since INTEGER NOT NULL);",
}


def check_ours(db: sqlite3.Connection) -> None:
    """Raises WrongStore for a file that is not a store of ours, or is damaged beyond its header (a torn copy of
    the file and its -wal): integrity_check reads every page and index, so damage shows here and not halfway
    through a game."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    app = db.execute("PRAGMA application_id").fetchone()[0]
    tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app not in (0, APPLICATION_ID) or (app == 0 and tables):
        raise WrongStore("not a Doge Companion store")
    if version > SCHEMA_VERSION:
        raise WrongStore(
            _("made by a newer version (schema {version}, this reads up to {SCHEMA_VERSION})").format(
                version=version, SCHEMA_VERSION=SCHEMA_VERSION
            )
        )
    verdict = db.execute("PRAGMA integrity_check(1)").fetchone()[0]
    if verdict != "ok":
        raise WrongStore(f"{DAMAGED} ({files.clip(verdict)})")
    check_shape(db, version, app == APPLICATION_ID, MIGRATIONS)  # what SQLite finds nothing wrong with


def migrate(db: sqlite3.Connection) -> sqlite3.Connection:
    """DB brought to SCHEMA_VERSION, one transaction a step; closed, and the failure raised, if a step fails."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    for step in range(version + 1, SCHEMA_VERSION + 1):
        # One script, one transaction: a migration is applied whole or not at all.
        try:
            db.executescript(
                f"BEGIN IMMEDIATE; {MIGRATIONS[step]} PRAGMA user_version = {step}; "
                f"PRAGMA application_id = {APPLICATION_ID}; COMMIT;"
            )
        except sqlite3.Error as error:
            with suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            db.close()
            raise migration_failed(error, step) from None
    return db
