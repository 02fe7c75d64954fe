"""Board changes: what the players do at the table after a record line (record-format.md 4), as data.

The engine notes each change at the moment a rule acts (a ballot revealed, a house placed, a palace built, a ring
returning, a card turned), so the list is complete and in an order the table can carry out. Nothing here is derived
from snapshots afterwards. Players and areas are indices as everywhere in the engine; :func:`change_record` gives the
record-format.md form with ids.

Only public facts are ever noted (rules.md 11.3): how many markers went where, never their values.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .areas import AREAS


class PutMarkers(NamedTuple):
    """4.3: ``player`` puts ``count`` of their markers face down on ``area``."""

    player: int
    area: int
    count: int  # type: ignore[assignment]  # record-format.md 4's name; it hides tuple.count, which nothing calls


class MarkersBack(NamedTuple):
    """9.1: everyone takes back all their markers."""


class PlaceHouses(NamedTuple):
    """8.2: ``player`` puts ``count`` houses from their supply into ``district``."""

    player: int
    district: int
    count: int  # type: ignore[assignment]  # record-format.md 4's name; it hides tuple.count, which nothing calls


class MoveHouses(NamedTuple):
    """8.3: ``player`` moves ``count`` of their houses from ``source`` to ``target``."""

    player: int
    source: int
    target: int
    count: int  # type: ignore[assignment]  # record-format.md 4's name; it hides tuple.count, which nothing calls


class BuildPalace(NamedTuple):
    """8.4, 8.6: ``player`` takes ``houses_back`` houses from ``district`` back and builds on the space printed
    ``space`` (3 to 7). Tied builders all pay the first free space's cost, so ``space`` can exceed ``houses_back``."""

    player: int
    district: int
    houses_back: int
    space: int


class TakeAdvisor(NamedTuple):
    """7.2: ``player`` puts a ring on ``advisor`` (a district, or the Quarantia for a neutral Quarantia advisor) and
    stands it in ``area``."""

    player: int
    advisor: int
    area: int


class MoveAdvisor(NamedTuple):
    """7.2: ``player``, who already controls ``advisor``, stands it again, from ``source`` to ``target``."""

    player: int
    advisor: int
    source: int
    target: int


class AdvisorBack(NamedTuple):
    """7.2, 7.4, 10.2.2, 10.3: the advisor standing in ``source`` becomes neutral; ``player`` takes their ring."""

    player: int
    advisor: int
    source: int


class TurnCard(NamedTuple):
    """5.2: the next card of next year's order is turned face up: ``area``."""

    area: int


class NewYear(NamedTuple):
    """5.3: year ``year`` begins with the turned cards as its order; the set-aside cards are next year's."""

    year: int


Change = (
    PutMarkers
    | MarkersBack
    | PlaceHouses
    | MoveHouses
    | BuildPalace
    | TakeAdvisor
    | MoveAdvisor
    | AdvisorBack
    | TurnCard
    | NewYear
)

# record-format.md 4's name of each change (its "do").
_DO: dict[type, str] = {
    PutMarkers: "markers",
    MarkersBack: "markers_back",
    PlaceHouses: "houses",
    MoveHouses: "move",
    BuildPalace: "palace",
    TakeAdvisor: "advisor",
    MoveAdvisor: "advisor_move",
    AdvisorBack: "advisor_back",
    TurnCard: "card",
    NewYear: "new_year",
}

# Which fields hold a seat and which an area, for the record form.
_SEAT_FIELDS = frozenset({"player"})
_AREA_FIELDS = frozenset({"area", "district", "advisor", "source", "target"})
_RECORD_NAMES = {"source": "from", "target": "to"}


def change_kind(change: Change) -> str:
    """record-format.md 4's name of a change (its ``do``); a kind defined elsewhere (undo's) carries its own."""
    kind = _DO.get(type(change))
    return kind if kind is not None else str(getattr(change, "do"))  # noqa: B009 - not every Change has it


def change_record(change: Change, players: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """record-format.md 4's object for one change (without its ``text``): ids instead of indices."""
    found: dict[str, Any] = {"do": change_kind(change)}
    for name in change._fields:
        if name == "do":
            continue
        value = getattr(change, name)
        if name in _SEAT_FIELDS:
            value = players[value]
        elif name in _AREA_FIELDS:
            value = AREAS[value]
        found[_RECORD_NAMES.get(name, name)] = value
    return found
