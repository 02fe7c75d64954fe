"""Undo at the table: what the players do to put the board back when a decision is taken back (rules.md 11.4).

A record line's board changes (record-format.md 4) brought the table from the board before the line to the board
after it; taking the line back must bring the table back again, or the device and the physical board differ. The
reverse of a line is its changes, last first, each turned around. record-format.md 4 has no words for two of the
turnarounds (houses leaving a district for the supply, a palace leaving its space), so they are the two kinds here,
worded like the rest; every other reverse is a change record-format.md 4 already has (a ring taken back is
``advisor_back``, a ring put back is ``advisor``, a move is a move the other way).

A line is the decision's own changes, then what the rules did after it (:func:`first_reveal` is the boundary): a
count, a turned card, a round's reveal, the year's end, and the board changes they cause. The decision may be taken
back while nothing of the second part has been shown (rules.md 11.4.1; the game flow knows what was shown), and the
table then undoes only the first part, which is all its board notice told it: :attr:`UndoneLine.changes`.
:attr:`UndoneLine.revealed` says what the line made public, so a refusal can name what of it was shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .changes import (
    AdvisorBack,
    BuildPalace,
    Change,
    MarkersBack,
    MoveAdvisor,
    MoveHouses,
    NewYear,
    PlaceHouses,
    PutMarkers,
    TakeAdvisor,
    TurnCard,
    change_kind,
    change_record,
)
from .decisions import Abstain, Advisor, Ballot, Build, Decision, Houses
from .state import Count, Event, State


class HousesBack(NamedTuple):
    """Undoing 8.2: ``player`` takes ``count`` of their houses from ``district`` back to their supply."""

    player: int
    district: int
    count: int  # type: ignore[assignment]  # record-format.md 4's name; it hides tuple.count, which nothing calls
    do: str = "houses_back"


class PalaceBack(NamedTuple):
    """Undoing 8.4: ``player`` takes their palace off the space printed ``space`` in ``district`` back to their
    supply and puts ``houses`` houses from their supply back into ``district`` (the houses the palace cost)."""

    player: int
    district: int
    space: int
    houses: int
    do: str = "palace_back"


UndoChange = Change | HousesBack | PalaceBack

# What a line made public (11.4), as (what, which): ("ballots", round), ("count", area), ("card", area).
Revealed = tuple[str, int]


@dataclass(frozen=True, slots=True)
class UndoneLine:
    """One decision line seen from the state before it: who decided what about which advisor or district
    (``subject``: a district, the Quarantia for a Quarantia advisor, None for a ballot or a free move), the
    changes that put the table back (its own part's), and what the line made public."""

    player: int
    decision: Decision
    subject: int | None
    changes: tuple[UndoChange, ...]
    revealed: tuple[Revealed, ...]


def reverse_change(change: Change) -> UndoChange:
    """The change that undoes ``change`` at the table. Reveals have none: they are never undone (11.4)."""
    if type(change) is PlaceHouses:
        return HousesBack(change.player, change.district, change.count)
    if type(change) is MoveHouses:
        return MoveHouses(change.player, change.target, change.source, change.count)
    if type(change) is BuildPalace:
        return PalaceBack(change.player, change.district, change.space, change.houses_back)
    if type(change) is TakeAdvisor:
        return AdvisorBack(change.player, change.advisor, change.area)
    if type(change) is MoveAdvisor:
        return MoveAdvisor(change.player, change.advisor, change.target, change.source)
    if type(change) is AdvisorBack:
        return TakeAdvisor(change.player, change.advisor, change.source)
    raise ValueError(f"a {change_kind(change)} change made something public: it is never undone (rules.md 11.4)")


def reverse_changes(changes: Sequence[Change]) -> tuple[UndoChange, ...]:
    """The changes that take the table from after ``changes`` back to before them, in an order it can carry out:
    the last change first (a palace comes off before the houses that paid for it go, a ring goes back to its former
    owner only after the new one took theirs off)."""
    return tuple(reverse_change(change) for change in reversed(changes))


REVEALING = (PutMarkers, MarkersBack, TurnCard, NewYear)


def first_reveal(events: Sequence[Event]) -> int:
    """Where a line's own part ends: the index of its first count or reveal (rules.md 4.3, 5.2, 6.1, 9.1), or the
    number of events. The engine notes events in the order the rules act, so a decision's own board changes (8.6's
    builds of every tied player too) come before the election it ends is wrapped up."""
    for index, event in enumerate(events):
        if isinstance(event, Count) or type(event) in REVEALING:
            return index
    return len(events)


def revealed_items(events: Sequence[Event], ballot_round: int) -> tuple[Revealed, ...]:
    """What ``events`` made public, in order: ("ballots", round), ("count", area), ("card", area)."""
    found: list[Revealed] = []
    for event in events:
        if isinstance(event, Count):
            found.append(("count", event.area))
        elif type(event) is PutMarkers:
            if not found or found[-1][0] != "ballots":
                found.append(("ballots", ballot_round))
        elif type(event) is TurnCard:
            found.append(("card", event.area))
    return tuple(found)


def decision_subject(before: State, decision: Decision) -> int | None:
    """What ``decision`` is about: the advisor's slot, the district, or None (a ballot, a free move)."""
    if type(decision) is Ballot:
        return None
    awaited = before.awaiting()[0]
    if type(decision) in (Advisor, Abstain):
        return awaited.slot
    if type(decision) in (Houses, Build):
        return awaited.district
    return None


def undo_line(before: State, seat: int, decision: Decision) -> UndoneLine:
    """``seat``'s ``decision``, applied to ``before``, seen for undoing it; ``before`` is not changed. The changes
    put back the line's own part only (:func:`first_reveal`): what came after it is undone with it unseen."""
    events = before.copy().apply_with_changes(seat, decision)
    own = events[: first_reveal(events)]
    changes = reverse_changes(own)  # type: ignore[arg-type]  # a count or a reveal ends the own part
    return UndoneLine(seat, decision, decision_subject(before, decision), changes, revealed_items(events, before.round))


def undo_record(change: UndoChange, players: Sequence[str]) -> dict[str, Any]:
    """record-format.md 4's object for one change of an undo (the two kinds of this module worded the same way)."""
    return change_record(change, list(players))  # type: ignore[arg-type]  # the same fields, read by name


__all__ = [
    "HousesBack",
    "PalaceBack",
    "Revealed",
    "UndoChange",
    "UndoneLine",
    "decision_subject",
    "first_reveal",
    "revealed_items",
    "reverse_change",
    "reverse_changes",
    "undo_line",
    "undo_record",
]
