"""The ballot phase (rules.md 4): secret ballots, locked in one by one, revealed all at once at the round's end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from .areas import area_name, rounds_per_year
from .changes import PutMarkers
from .choices import WANTED, WITHOUT, wanted_counts
from .decisions import Ballot
from .elections import advance, not_awaited, open_election
from .elections import name as player_name
from .errors import IllegalDecisionError
from .tasks import ELECTION

if TYPE_CHECKING:
    from .state import State


def with_markers(state: State) -> tuple[int, ...]:
    """rules.md 4.2: who chooses in a new ballot round (a player without markers sits it out)."""
    left = state._markers_left
    return tuple([p for p in range(state._n) if left[p]])


def apply_ballot(state: State, player: int, ballot: Ballot) -> None:
    waiting = state._waiting
    if player not in waiting:
        raise not_awaited(state, player, ballot)
    markers, area = ballot.markers, ballot.area
    wanted = WANTED.get(markers)
    if wanted is None:
        wanted = wanted_counts(markers)
    if state._used[player] >> area & 1:
        raise IllegalDecisionError(
            _("{name} has already put markers in {area} this year").format(
                name=player_name(state, player), area=area_name(area)
            ),
            "4.4",
        )
    held = state._markers
    base = 4 * player
    if wanted[0] > held[base] or wanted[1] > held[base + 1] or wanted[2] > held[base + 2] or wanted[3] > held[base + 3]:
        for value in range(4):
            have = held[base + value]
            if wanted[value] > have:
                name = player_name(state, player)
                if have == 0:
                    raise IllegalDecisionError(
                        _("{name} has no {value}-marker left").format(name=name, value=value), "4.2"
                    )
                raise IllegalDecisionError(
                    ngettext(
                        "{name} has only {have} {value}-marker left",
                        "{name} has only {have} {value}-markers left",
                        have,
                    ).format(name=name, have=have, value=value),
                    "4.2",
                )
    state._pending[player] = ballot
    waiting = state._waiting = WITHOUT[waiting, player]
    if not waiting:
        reveal(state)


def reveal(state: State) -> None:
    """rules.md 4.3: all chosen cards are turned at once; the markers go face down onto their areas."""
    n = state._n
    pending, held, log = state._pending, state._markers, state._log
    for player in range(n):
        ballot = pending[player]
        if ballot is None:
            continue
        area, markers = ballot
        placed = len(markers)
        slot = area * n + player
        state._used[player] |= 1 << area
        if log is not None:
            log.append(PutMarkers(player, area, placed))
        state._stack_count[slot] += placed
        state._stack_sum[slot] += sum(markers)
        for value in markers:
            held[4 * player + value] -= 1
        state._markers_left[player] -= placed
        pending[player] = None
    state._round += 1
    state._waiting = with_markers(state)
    if state._round > rounds_per_year(n) or not state._waiting:
        state._waiting = ()
        state._phase = ELECTION
        state._round = 0
        state._election = 0
        open_election(state)
        advance(state)
