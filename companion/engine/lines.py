"""The record's lines as values (record-format.md 1.1 to 1.3), and a line as :meth:`Replay.read` read it.

Kept out of the modules mypyc compiles (build_support/backend.py), as every NamedTuple of the engine: mypyc
builds a class-based NamedTuple through ``typing``'s machinery, slowly, and the compiled record reads them as any
tuple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .decisions import Decision
    from .tasks import Event, Revealed


class Header(NamedTuple):
    """record-format.md 1.1: the format version, the players in seat order, and any extra keys (names, dates...)."""

    players: tuple[str, ...]
    extra: dict[str, Any]


class ShuffleLine(NamedTuple):
    """record-format.md 1.2: a chance line, the order of one voting-order deck."""

    order: tuple[int, ...]
    t: str | None = None


class DecisionLine(NamedTuple):
    """record-format.md 1.3: one player's decision."""

    player: str
    decision: Decision
    t: str | None = None


Line = ShuffleLine | DecisionLine


class Read(NamedTuple):
    """One record line as :meth:`Replay.read` read it: its 1-based number, the parsed line, its events (board changes
    and counts, record-format.md 4) and what it made public (rules.md 11)."""

    number: int
    line: Header | Line
    events: list[Event]
    revealed: Revealed
