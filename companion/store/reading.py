"""The store's reading side (``Store``'s queries over SQLite's tables) and the types they and its writers raise and
return: none of them writes, so a listing or an export changes nothing."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ..i18n import _
from .damage import DAMAGED, screen_state, summary


class StoreError(Exception):
    """The store could not save: the message is for the screen (e.g. the disk is full)."""


class StoreUnavailable(StoreError):
    """The saved games cannot be opened now (a full disk, an I/O error), though nothing says they are damaged:
    nothing was moved or replaced, and starting again once the cause is fixed goes on with them."""


class DamagedGame(StoreError):
    """One game's record cannot be read (a line that is not text, or none at all): that game is set aside, the
    others are kept (damage.py)."""


@dataclass(frozen=True)
class GameInfo:
    id: int
    started: str
    players: list[str]
    status: str
    year: int
    winners: list[str]
    lines: int
    problem: str | None = None  # what of its row cannot be read (damage.py): the game is set aside, never resumed


class GameReads:
    """The games, lines and screens tables read, for ``Store``."""

    _db: sqlite3.Connection

    def games(self) -> list[GameInfo]:
        """Every game, a damaged row too (its ``problem`` says what cannot be read)."""
        rows = self._db.execute(
            "SELECT id, started, players, status, year, winners, "
            "(SELECT count(*) FROM lines WHERE game = games.id) FROM games ORDER BY id"
        ).fetchall()
        found = []
        for row in rows:
            started, players, status, year, winners, problem = summary(*row[1:6])
            found.append(GameInfo(row[0], started, players, status, year, winners, row[6], problem))
        return found

    def lines(self, game: int) -> list[str]:
        """A game's record lines, header first; raises DamagedGame if one is not text or one is missing."""
        rows = self._db.execute("SELECT seq, text FROM lines WHERE game = ? ORDER BY seq", (game,)).fetchall()
        if not rows and self._db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone():
            rows = [(0, None)]  # a game with no header: its line 1 is missing
        for number, (seq, text) in enumerate(rows, 1):
            if seq != number or type(text) is not str:
                why = _("line {number} is missing") if seq != number else _("line {number} is not text")
                raise DamagedGame(
                    _("game {game}'s record is damaged: {why}").format(game=game, why=why.format(number=number))
                )
        return [text for _seq, text in rows]

    def set_aside(self) -> list[int]:
        """The games set aside as damaged that nobody has dealt with yet (``recover``): told at every start."""
        return [row[0] for row in self._db.execute("SELECT id FROM games WHERE status = ? ORDER BY id", (DAMAGED,))]

    def screen(self, game: int) -> dict[str, Any]:
        row = self._db.execute("SELECT state FROM screens WHERE game = ?", (game,)).fetchone()
        return screen_state(row[0]) if row else {}

    def unfinished(self) -> int | None:
        row = self._db.execute("SELECT max(id) FROM games WHERE status = 'playing'").fetchone()
        return row[0] if row and row[0] is not None else None
