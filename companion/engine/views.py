"""What people may see: the public snapshot (record-format.md 2) and each player's private view (rules.md 11).

Screens and computer players receive only these, never a :class:`~companion.engine.state.State`, so nothing they
show or use can contain another player's secret. The snapshot is built from public fields only: pending ballots,
marker values, unrevealed stacks' values and unturned cards are never read here except through the private view of
their own owner.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .areas import AREAS, QUARANTIA
from .decisions import Ballot
from .state import State
from .tasks import ELECTION, PHASES


def snapshot(state: State) -> dict[str, Any]:
    """The public state as record-format.md 2 defines it (a JSON-ready dict)."""
    players = state._players
    n = state._n
    phase = state._phase
    awaiting: list[dict[str, Any]]
    if state.chance_awaited():
        awaiting = [{"chance": "shuffle"}]
    else:
        awaiting = []
        for item in state.awaiting():
            entry: dict[str, Any] = {"player": players[item.player], "decision": item.decision}
            if item.decision == "build" and item.district is not None:
                entry["district"] = AREAS[item.district]
            awaiting.append(entry)
    districts = {}
    for d in range(6):
        houses = {players[p]: state._board[d * n + p] for p in range(n) if state._board[d * n + p]}
        districts[AREAS[d]] = {"houses": houses, "palaces": [players[p] for p in state._palaces[d]]}
    advisors: dict[str, Any] = {}
    for d in range(6):
        controller = state._advisor_controller[d]
        advisors[AREAS[d]] = (
            None if controller < 0 else {"controller": players[controller], "area": AREAS[state._advisor_area[d]]}
        )
    advisors["quarantia"] = [
        {"controller": controller, "area": area}
        for controller, area in sorted((players[p], AREAS[a]) for p, a in state._quarantia)
    ]
    # Counts are zeroed when an area's election finishes (6.6), so the areas with counts are exactly the ones
    # record-format.md 2 lists: revealed this year and not yet finished.
    stacks: dict[str, dict[str, int]] = {}
    for area in range(7):
        counts = {players[p]: state._stack_count[area * n + p] for p in range(n) if state._stack_count[area * n + p]}
        if counts:
            stacks[AREAS[area]] = counts
    return {
        "year": state._year,
        "phase": PHASES[phase],
        "round": state._round if PHASES[phase] == "ballot" else None,
        "area": AREAS[state._this_order[state._election]] if phase == ELECTION else None,
        "order": {
            "this_year": [AREAS[a] for a in state._this_order],
            "next_year": [AREAS[a] for a in state._next_order[: state._turned]],
        },
        "players": {
            players[p]: {
                "houses": state._house_supply[p],
                "palaces": state._palace_supply[p],
                "rings": state._rings[p],
                "markers": state._markers_left[p],
            }
            for p in range(n)
        },
        "districts": districts,
        "advisors": advisors,
        "stacks": stacks,
        "awaiting": awaiting,
        "winners": [players[p] for p in state._winners],
    }


class PrivateView(NamedTuple):
    """What one player alone may know (rules.md 11.1): the values they still hold and their unrevealed choice."""

    player: int
    markers: tuple[int, ...]
    pending: Ballot | None
    used_areas: tuple[int, ...]


def private_view(state: State, player: int) -> PrivateView:
    held = state._markers[4 * player : 4 * player + 4]
    values = tuple(value for value in (3, 2, 1, 0) for _copy in range(held[value]))
    used = tuple(area for area in range(QUARANTIA + 1) if state._used[player] >> area & 1)
    return PrivateView(player, values, state._pending[player], used)
