"""The controller's :class:`Saver` on the game store: one game's lines, committed before the screen shows them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..flow.game import Saver
from ..store import Store


class StoreSaver(Saver):
    """Binds the controller to one game in the store."""

    def __init__(self, store: Store, game: int | None = None, length: int = 0) -> None:
        self.store = store
        self.game = game
        self.length = length  # lines committed so far (the header is line 1)
        self.acks: Any = None  # a stream to announce each commit on (the crash harness reads it)
        self.phones: Callable[[], dict[str, str]] = dict  # which phone holds each seat (app/phones.py), stored with it

    def begin(self, header: str) -> None:
        self.game = self.store.new_game(header, self.phones())
        self.length = 1
        self._ack(header)

    def save(self, lines: list[str], summary: dict[str, Any], screen: dict[str, Any] | None = None) -> None:
        assert self.game is not None
        self.store.append(self.game, self.length + 1, lines, summary, screen)
        self.length += len(lines)
        for line in lines:
            self._ack(line)

    def rewind(self, keep: int, summary: dict[str, Any]) -> None:
        assert self.game is not None
        self.store.truncate(self.game, keep, summary)
        self.length = keep
        if self.acks is not None and self.store.saving:
            print(f"rewind {self.game} {keep}", file=self.acks, flush=True)

    def screen(self, state: dict[str, Any]) -> None:
        if self.game is not None:
            self.store.save_screen(self.game, state)

    def abandon(self) -> None:
        if self.game is not None:
            self.store.abandon(self.game)
            self.game, self.length = None, 0

    def _ack(self, line: str) -> None:
        # Only what is on disk is acknowledged: a read-only or throw-away store keeps its lines in memory only.
        if self.acks is not None and self.store.saving:
            import hashlib

            digest = hashlib.sha256(line.encode()).hexdigest()[:16]
            print(f"ack {self.game} {self.length} {digest}", file=self.acks, flush=True)
