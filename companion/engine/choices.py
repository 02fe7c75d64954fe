"""The legal choices of each kind of decision, as shared immutable tables (rules.md 4.2, 7.2 to 7.4, 8.2 to 8.4).

Computer players ask for legal choices millions of times, so each distinct answer is built once and memoized by
what it depends on (a hand of markers and the areas used; the advisor, a free ring and where the houses stand).
"""

from __future__ import annotations

from ..i18n import _
from .areas import MARKER_COUNTS, QUARANTIA
from .decisions import (
    ABSTAIN_MOVES,
    ABSTAIN_STILL,
    ADVISORS,
    BUILD_NO,
    BUILD_YES,
    HOUSES,
    MOVE_STOP,
    MOVES,
    Ballot,
    Decision,
)
from .errors import IllegalDecisionError

# Every multiset of 1 to 4 markers a full supply can give, as (values high to low, counts per value 0..3).
MARKER_SETS: tuple[tuple[tuple[int, ...], tuple[int, int, int, int]], ...] = tuple(
    (tuple([3] * c3 + [2] * c2 + [1] * c1 + [0] * c0), (c0, c1, c2, c3))
    for c0 in range(MARKER_COUNTS[0] + 1)
    for c1 in range(MARKER_COUNTS[1] + 1)
    for c2 in range(MARKER_COUNTS[2] + 1)
    for c3 in range(MARKER_COUNTS[3] + 1)
    if 1 <= c0 + c1 + c2 + c3 <= 4
)
_ALL_BALLOTS = tuple(tuple(Ballot(area, values) for values, _counts in MARKER_SETS) for area in range(7))
_BALLOT_CACHE: dict[tuple[int, tuple[int, ...]], tuple[Ballot, ...]] = {}
_HAND_CACHE: dict[tuple[int, ...], tuple[tuple[Ballot, ...], ...]] = {}
_ADVISOR_CACHE: dict[tuple[int, bool, int], tuple[Decision, ...]] = {}
_MOVE_CACHE: dict[int, tuple[Decision, ...]] = {}
NO_VOTES = {n: (0,) * n for n in (3, 4)}
# Who may be awaited is always a subset of the seats in seat order: each subset exists once.
SEAT_SETS = tuple(tuple(p for p in range(4) if mask >> p & 1) for mask in range(16))
WITHOUT = {(seats, p): tuple(q for q in seats if q != p) for seats in SEAT_SETS for p in seats}
HOUSES_UP_TO = tuple(HOUSES[: k + 1] for k in range(len(HOUSES)))
BUILD_CHOICES = (BUILD_YES, BUILD_NO)


def ballot_choices(used: int, held: tuple[int, ...]) -> tuple[Ballot, ...]:
    key = (used, held)
    choices = _BALLOT_CACHE.get(key)
    if choices is None:
        per_area = _ballots_by_area(held)
        choices = ()
        for area in range(7):
            if not used >> area & 1:
                choices += per_area[area]
        _BALLOT_CACHE[key] = choices
    return choices


def _ballots_by_area(held: tuple[int, ...]) -> tuple[tuple[Ballot, ...], ...]:
    """For each area, the ballots a hand of ``held`` markers allows there (each Ballot value made once)."""
    found = _HAND_CACHE.get(held)
    if found is None:
        allowed = [
            index
            for index, (_values, counts) in enumerate(MARKER_SETS)
            if counts[0] <= held[0] and counts[1] <= held[1] and counts[2] <= held[2] and counts[3] <= held[3]
        ]
        found = _HAND_CACHE[held] = tuple(tuple(_ALL_BALLOTS[area][i] for i in allowed) for area in range(7))
    return found


def advisor_choices(slot: int, may_control: bool, houses_mask: int) -> tuple[Decision, ...]:
    """Legal answers on one advisor (7.2, 7.3, 7.4, 8.3.1, 8.3.2); ``houses_mask`` has bit d set if a house is in d."""
    key = (slot, may_control, houses_mask)
    choices = _ADVISOR_CACHE.get(key)
    if choices is None:
        found: list[Decision] = []
        if may_control:
            if slot == QUARANTIA:
                found.extend(ADVISORS[d] for d in range(6))
            else:
                found.extend(ADVISORS[a] for a in range(7) if a != slot)
        found.append(ABSTAIN_STILL)
        for source in range(6):
            if houses_mask >> source & 1:
                found.extend(
                    ABSTAIN_MOVES[source, target]
                    for target in range(6)
                    if target != source and (slot == QUARANTIA or slot in (source, target))
                )
        choices = _ADVISOR_CACHE[key] = tuple(found)
    return choices


def move_choices(houses_mask: int) -> tuple[Decision, ...]:
    choices = _MOVE_CACHE.get(houses_mask)
    if choices is None:
        found: list[Decision] = [MOVE_STOP]
        for source in range(6):
            if houses_mask >> source & 1:
                found.extend(MOVES[source, target] for target in range(6) if target != source)
        choices = _MOVE_CACHE[houses_mask] = tuple(found)
    return choices


def wanted_counts(markers: tuple[int, ...]) -> tuple[int, int, int, int]:
    """How many markers of each value 0..3 a ballot asks for (rules.md 1.1, 4.2); memoized in ``WANTED``."""
    if not 1 <= len(markers) <= 4:
        raise IllegalDecisionError(_("a ballot takes 1 to 4 markers, not {count}").format(count=len(markers)), "4.2")
    counts = [0, 0, 0, 0]
    for value in markers:
        if type(value) is not int or not 0 <= value <= 3:
            raise IllegalDecisionError(
                _("there is no {value}-marker: markers are worth 0 to 3").format(value=value), "1.1"
            )
        counts[value] += 1
    wanted = (counts[0], counts[1], counts[2], counts[3])
    WANTED[markers] = wanted
    return wanted


WANTED: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
