"""Decision values: what a player (or chance) supplies when the engine awaits them (record-format.md 1.3).

They are small immutable tuples so that legal-choice lists can be built once and shared, compared with ``==`` and
used as dictionary keys; :mod:`companion.engine.record` turns them into record lines and back.
"""

from __future__ import annotations

from typing import NamedTuple

from .areas import AREAS


def _same_kind_eq(self: tuple[object, ...], other: object) -> bool:
    # Plain tuple equality would make Houses(0) == Advisor(0); a decision equals only a decision of its own kind.
    return type(self) is type(other) and tuple.__eq__(self, other)


def _same_kind_ne(self: tuple[object, ...], other: object) -> bool:
    return not _same_kind_eq(self, other)


def _kind_hash(self: tuple[object, ...]) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


class Ballot(NamedTuple):
    """rules.md 4.2: one player card (an area) and 1 to 4 markers from the player's supply."""

    area: int
    markers: tuple[int, ...]

    @property
    def kind(self) -> str:
        """The KIND key of its record line."""
        return "ballot"


class Advisor(NamedTuple):
    """rules.md 7.2: take control of the advisor in question and stand it in ``area``."""

    area: int

    @property
    def kind(self) -> str:
        """The KIND key of its record line."""
        return "advisor"


class HouseMove(NamedTuple):
    """rules.md 8.3: one of the player's houses goes from one district to a different one."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{AREAS[self.source]}->{AREAS[self.target]}"


class Abstain(NamedTuple):
    """rules.md 7.4: the advisor becomes neutral; the player may move one house (``move`` is None for no move)."""

    move: HouseMove | None = None

    @property
    def kind(self) -> str:
        """The KIND key of its record line."""
        return "abstain"


class Houses(NamedTuple):
    """rules.md 8.2: how many of the offered houses the player places."""

    number: int

    @property
    def kind(self) -> str:
        """The KIND key of its record line."""
        return "houses"


class Build(NamedTuple):
    """rules.md 8.4: whether the player builds after a palace check that allows it."""

    build: bool

    @property
    def kind(self) -> str:
        """The KIND key of its record line."""
        return "build"


class Move(NamedTuple):
    """rules.md 10.4, 10.5: one house move, or ``move`` None to stop moving."""

    move: HouseMove | None = None

    @property
    def kind(self) -> str:
        """The KIND key of its record line."""
        return "move"


Decision = Ballot | Advisor | Abstain | Houses | Build | Move

# Installed after the fact: inside a NamedTuple body these assignments would be read as fields by type checkers.
for _kind in (Ballot, Advisor, Abstain, Houses, Build, Move):
    setattr(_kind, "__eq__", _same_kind_eq)  # noqa: B010
    setattr(_kind, "__ne__", _same_kind_ne)  # noqa: B010
    setattr(_kind, "__hash__", _kind_hash)  # noqa: B010

# Every decision value the rules can ever produce exists once; legal-choice lists share these objects.
HOUSE_MOVES = {(s, t): HouseMove(s, t) for s in range(6) for t in range(6) if s != t}
ADVISORS = tuple(Advisor(area) for area in range(7))
ABSTAIN_STILL = Abstain(None)
ABSTAIN_MOVES = {key: Abstain(move) for key, move in HOUSE_MOVES.items()}
MOVE_STOP = Move(None)
MOVES = {key: Move(move) for key, move in HOUSE_MOVES.items()}
HOUSES = tuple(Houses(n) for n in range(3))
BUILD_YES = Build(True)
BUILD_NO = Build(False)
