"""A state as one player may imagine it: everything they cannot know is drawn at random (rules.md 11).

Computer players search over whole states; handing them the real one would hand them everyone's secrets. This
returns a copy whose secrets other than ``viewer``'s own are replaced by draws that depend only on public facts and on
the viewer's private view: the real values are never read. For each other player the markers not yet spent in counted
areas are dealt at random into their uncounted stacks (whose sizes are public), their unrevealed ballot (whose
existence is public) and their hand (whose size is public); which values were spent is not kept by the engine, so the
lowest stand in for them. Unturned cards of next year's order are shuffled. The area being counted keeps its public
total.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .areas import MARKER_VALUES
from .decisions import Ballot
from .state import State
from .tasks import ELECTION

if TYPE_CHECKING:  # the engine draws only from the generator it is handed, never from one of its own
    from random import Random


def draw_order(rng: Random) -> tuple[int, ...]:
    """A shuffled voting-order deck (rules.md 2.2, 5.3), drawn from the caller's generator: the chance line."""
    order = list(range(7))
    rng.shuffle(order)
    return tuple(order)


def determinize(state: State, viewer: int, rng: Random) -> State:
    sample = state.copy()
    n = state._n
    counted_area = state._this_order[state._election] if state._phase == ELECTION else -1
    for player in range(n):
        if player == viewer:
            continue
        shown = _shown_values(state, player)
        secret = list(MARKER_VALUES)
        for value in shown:
            secret.remove(value)
        rng.shuffle(secret)
        stacks = [area for area in range(7) if state._stack_count[area * n + player] and area != counted_area]
        for area in stacks:
            count = state._stack_count[area * n + player]
            dealt, secret = secret[:count], secret[count:]
            sample._stack_sum[area * n + player] = sum(dealt)
        pending = state._pending[player] is not None
        if pending:
            count = rng.randint(1, min(4, len(secret)))
            dealt = secret[:count]
            areas = [a for a in range(7) if not state._used[player] >> a & 1]
            sample._pending[player] = Ballot(rng.choice(areas), tuple(sorted(dealt, reverse=True)))
            hand = secret[count:] + dealt  # an unrevealed ballot's markers are still counted in the hand
        else:
            hand = secret
        hand = hand[: state._markers_left[player]]
        counts = [0, 0, 0, 0]
        for value in hand:
            counts[value] += 1
        sample._markers[4 * player : 4 * player + 4] = counts
    hidden = sorted(state._next_order[state._turned :])  # canonical first: the true order must not show through
    rng.shuffle(hidden)
    sample._next_order = state._next_order[: state._turned] + tuple(hidden)
    return sample


def _shown_values(state: State, player: int) -> list[int]:
    """Stand-ins for the markers ``player`` has already spent in counted areas this year.

    Only how many they are is kept (the engine clears a stack after its election); their values enter no future count,
    so the lowest values stand in for them, which depends on public facts only.
    """
    n = state._n
    counted_area = state._this_order[state._election] if state._phase == ELECTION else -1
    in_play = state._markers_left[player] + sum(
        state._stack_count[area * n + player] for area in range(7) if area != counted_area
    )
    return sorted(MARKER_VALUES)[: 7 - in_play]
