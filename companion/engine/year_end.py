"""The year's end and the end of the game (rules.md 9): markers back, the victory check, the tie-break.

Every place that needs to know who won and why asks :func:`outcome` (through :meth:`State.outcome`): the tie-break
(9.4) is worked out here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .areas import DISTRICTS, MARKER_COUNTS, MARKERS_PER_PLAYER, MAX_PALACES
from .changes import MarkersBack
from .tasks import OVER, YEAR_END, Condition, Outcome, TieBreak

if TYPE_CHECKING:
    from .state import State


def conditions_met(palaces: int, districts: int) -> tuple[Condition, ...]:
    """rules.md 9.2: the victory conditions met by ``palaces`` palaces spread over ``districts`` districts."""
    met: list[Condition] = []
    if districts == 6:
        met.append("six_districts")
    if palaces >= 7 and districts >= 5:
        met.append("seven_in_five")
    if palaces >= 8 and districts >= 4:
        met.append("eight_in_four")
    return tuple(met)


# rules.md 9.2 as (condition, palaces, districts) it asks for; all 6 districts take a palace in each, no more.
CONDITIONS: tuple[tuple[Condition, int, int], ...] = (
    ("six_districts", 6, 6),
    ("seven_in_five", 7, 5),
    ("eight_in_four", 8, 4),
)


def palaces_to_go(state: State, player: int) -> tuple[tuple[Condition, int | None], ...]:
    """rules.md 9.2: for each victory condition, the fewest further palaces ``player`` needs to meet it (0: met),
    or None when their palace supply or the free palace spaces cannot give them that many (a district without their
    palace must have a free space for each district they still need). Houses, rivals and elections are not
    foreseen: this says how far away a condition is, not whether it will be reached."""
    palaces, districts = state.palaces_of(player), state.districts_of(player)
    supply = state._palace_supply[player]
    free = [MAX_PALACES - len(state._palaces[d]) for d in DISTRICTS]
    new_districts = sum(1 for d, room in enumerate(free) if room and player not in state._palaces[d])
    result: list[tuple[Condition, int | None]] = []
    for condition, want_palaces, want_districts in CONDITIONS:
        more_districts = max(0, want_districts - districts)
        more = max(more_districts, want_palaces - palaces)
        possible = more <= supply and more_districts <= new_districts and more <= sum(free)
        result.append((condition, more if possible else None))
    return tuple(result)


def end_year(state: State) -> None:
    """rules.md 9.1 to 9.5."""
    n = state._n
    if state._log is not None:
        state._log.append(MarkersBack())
    state._markers = list(MARKER_COUNTS) * n
    state._markers_left = [MARKERS_PER_PLAYER] * n
    state._used = [0] * n
    state._election = 0
    meeting = [p for p in range(n) if state.victory_conditions(p)]
    if not meeting:
        state._phase = YEAR_END
        return
    state._phase = OVER
    state._winners = tie_break(state, meeting)[0]


def tie_break(state: State, meeting: Sequence[int]) -> tuple[tuple[int, ...], TieBreak, int, int]:
    """rules.md 9.4: most palaces, then most houses on the board; [RULING] then a shared victory.

    Returns the winners, what decided, and the winners' palaces and houses on the board."""
    palaces = {p: state.palaces_of(p) for p in meeting}
    houses = {p: state.houses_on_board(p) for p in meeting}
    best = max((palaces[p], houses[p]) for p in meeting)
    winners = tuple(p for p in meeting if (palaces[p], houses[p]) == best)
    decided: TieBreak
    if len(meeting) == 1:
        decided = "only"
    elif sum(1 for p in meeting if palaces[p] == best[0]) == 1:
        decided = "palaces"
    elif len(winners) == 1:
        decided = "houses"
    else:
        decided = "shared"
    return winners, decided, best[0], best[1]


def outcome(state: State) -> Outcome:
    """The game's result as data (the state must be over)."""
    assert state._phase == OVER
    conditions = tuple(state.victory_conditions(p) for p in range(state._n))
    qualified = tuple(p for p in range(state._n) if conditions[p])
    winners, decided, palaces, houses = tie_break(state, qualified)
    return Outcome(winners, qualified, conditions, decided, palaces, houses)
