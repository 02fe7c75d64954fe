"""Which phone holds which seat of a game, as the store keeps it (docs/web-pads.md): the SHA-256 of its seat token,
never the token, and whether the seat's locked-in ballot is hidden from it (the host gave it the seat after another
pad locked in; rules.md 11). Not in the journal: after a rebuild from the journal alone the host gives the seats
again (docs/architecture.md), so no phone is ever shown a ballot it did not key."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import Any


class PhoneRows:
    """The phones table's side of ``Store``."""

    _db: sqlite3.Connection

    def _write(
        self, statements: Iterable[tuple[str, tuple[Any, ...]]], entries: Callable[[], list[bytes]] = list
    ) -> None:
        raise NotImplementedError

    def give_seat(self, game: int, source: str, digest: str, hidden: bool = False) -> None:
        """The seat of ``source`` now held by the phone of ``digest`` (the host gave it); ``hidden``: the seat's
        locked-in ballot is not that phone's to see (another pad made it). Raises StoreError."""
        self._write([("INSERT OR REPLACE INTO phones VALUES (?, ?, ?, ?)", (game, source, digest, int(hidden)))])

    def unhide(self, game: int, source: str) -> None:
        """The ballot hidden from ``source``'s phone is revealed or undone: its next one is its own to see."""
        self._write([("UPDATE phones SET hidden = 0 WHERE game = ? AND source = ?", (game, source))])

    def phones(self, game: int) -> dict[str, str]:
        """Each seat's phone (source -> digest)."""
        return dict(self._db.execute("SELECT source, digest FROM phones WHERE game = ?", (game,)).fetchall())

    def hidden(self, game: int) -> set[str]:
        """The seats whose locked-in ballot their phone may not see."""
        rows = self._db.execute("SELECT source FROM phones WHERE game = ? AND hidden != 0", (game,)).fetchall()
        return {str(source) for (source,) in rows}
