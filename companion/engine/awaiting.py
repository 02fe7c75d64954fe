"""What the next line must supply (rules.md 4.2, 7, 8, 10): who is awaited and for what, and every decision a
player may make now. Computer players ask both millions of times, so the answers are tables made once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .areas import QUARANTIA
from .choices import BUILD_CHOICES, HOUSES_UP_TO, SEAT_SETS, advisor_choices, ballot_choices, move_choices
from .decisions import Decision
from .tasks import BALLOT, ELECTION, AdvisorTask, Awaited, BuildsTask, CheckTask, HousesTask, MovesTask, Task

if TYPE_CHECKING:
    from .state import State

# What awaited() answers, made once per distinct task: computer players ask millions of times.
_BALLOT_AWAITED = tuple(Awaited(p, "ballot", rule="4.2") for p in range(4))
_BALLOTS_AWAITED = {seats: tuple(_BALLOT_AWAITED[p] for p in seats) for seats in SEAT_SETS}
_HOUSES_AWAITED: dict[HousesTask, tuple[Awaited, ...]] = {}
_OTHER_AWAITED: dict[BuildsTask | MovesTask, tuple[Awaited, ...]] = {}


def _awaited_for(task: Task) -> tuple[Awaited, ...]:
    kind = type(task)
    if kind is AdvisorTask:
        slot = task.slot  # type: ignore[union-attr]
        return (Awaited(task.player, "advisor", slot=slot, rule="7.2.2" if slot == QUARANTIA else "7.2"),)  # type: ignore[union-attr]
    if kind is HousesTask:
        h: HousesTask = task  # type: ignore[assignment]
        return tuple(Awaited(p, "houses", h.district, None, h.offer, h.together, h.rule) for p in h.waiting)
    if kind is BuildsTask:
        b: BuildsTask = task  # type: ignore[assignment]
        return tuple(Awaited(p, "build", b.district, together=True, rule="8.6") for p in b.waiting)
    if kind is CheckTask:
        c: CheckTask = task  # type: ignore[assignment]
        return (Awaited(c.player, "build", c.district, rule="8.4"),)
    m: MovesTask = task  # type: ignore[assignment]
    return (Awaited(m.player, "move", offer=m.left, rule=m.rule),)


_ADVISOR_AWAITED = tuple(tuple(_awaited_for(AdvisorTask(p, slot)) for slot in range(7)) for p in range(4))
_CHECK_AWAITED = tuple(tuple(_awaited_for(CheckTask(p, d)) for d in range(6)) for p in range(4))


def awaited(state: State) -> tuple[Awaited, ...]:
    """The players' decisions the next lines must supply, in seat order (empty when chance or nobody is)."""
    phase = state._phase
    if phase == BALLOT:
        return _BALLOTS_AWAITED[state._waiting]
    if phase != ELECTION:
        return ()
    task = state._tasks[-1]
    kind = type(task)
    if kind is AdvisorTask:
        return _ADVISOR_AWAITED[task.player][task.slot]  # type: ignore[union-attr]
    if kind is CheckTask:
        return _CHECK_AWAITED[task.player][task.district]  # type: ignore[union-attr]
    if kind is HousesTask:
        found = _HOUSES_AWAITED.get(task)  # type: ignore[arg-type]
        if found is None:
            found = _HOUSES_AWAITED[task] = _awaited_for(task)  # type: ignore[index]
        return found
    other = _OTHER_AWAITED.get(task)  # type: ignore[arg-type]
    if other is None:
        other = _OTHER_AWAITED[task] = _awaited_for(task)  # type: ignore[index]
    return other


def legal(state: State, player: int) -> tuple[Decision, ...]:
    """Every decision ``player`` may make now; empty when they are not awaited."""
    phase = state._phase
    if phase == BALLOT:
        if player not in state._waiting:
            return ()
        base = 4 * player
        return ballot_choices(state._used[player], tuple(state._markers[base : base + 4]))
    if phase != ELECTION:
        return ()
    task = state._tasks[-1]
    if type(task) is AdvisorTask:
        if task.player != player:
            return ()
        slot = task.slot
        may_control = state._rings[player] > 0 or (slot != QUARANTIA and state._advisor_controller[slot] == player)
        return advisor_choices(slot, may_control, _houses_mask(state, player))
    if type(task) is HousesTask:
        if player not in task.waiting:
            return ()
        supply = state._house_supply[player]
        return HOUSES_UP_TO[task.offer if task.offer < supply else supply]
    if type(task) is BuildsTask:
        return BUILD_CHOICES if player in task.waiting else ()
    if type(task) is CheckTask:
        return BUILD_CHOICES if task.player == player else ()
    assert type(task) is MovesTask
    if task.player != player:
        return ()
    return move_choices(_houses_mask(state, player))


def _houses_mask(state: State, player: int) -> int:
    board, n = state._board, state._n
    mask = 0
    for d in range(6):
        if board[d * n + player]:
            mask |= 1 << d
    return mask
