"""Building palaces (rules.md 8.4 to 8.6): a single palace check, and tied builders who answer at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .areas import MAX_PALACES
from .changes import BuildPalace
from .choices import WITHOUT
from .decisions import Build, Decision
from .elections import not_awaited
from .tasks import BuildsTask, CheckTask

if TYPE_CHECKING:
    from .state import State


def apply_check(state: State, player: int, decision: Decision, task: CheckTask) -> None:
    if type(decision) is not Build or player != task.player:
        raise not_awaited(state, player, decision)
    state._tasks.pop()
    if decision.build:
        build(state, task.district, (player,))


def apply_builds(state: State, player: int, decision: Decision, task: BuildsTask) -> None:
    if type(decision) is not Build or player not in task.waiting:
        raise not_awaited(state, player, decision)
    waiting = WITHOUT[task.waiting, player]
    builders = tuple(sorted((*task.builders, player))) if decision.build else task.builders
    if waiting:
        state._tasks[-1] = BuildsTask(task.district, waiting, builders)
        return
    state._tasks.pop()
    # rules.md 8.6 [RULING]: if the free spaces cannot take every builder, nobody builds in this check.
    if builders and len(builders) <= MAX_PALACES - len(state._palaces[task.district]):
        build(state, task.district, builders)


def build(state: State, district: int, builders: tuple[int, ...]) -> None:
    """rules.md 8.4, 8.6: every builder pays the cost of the first free space; palaces go in seat order."""
    n = state._n
    cost = state.palace_cost(district)
    for space, player in enumerate(builders, cost):
        if state._log is not None:
            state._log.append(BuildPalace(player, district, cost, space))
        state._board[district * n + player] -= cost
        state._house_supply[player] += cost
        state._palace_supply[player] -= 1
    state._palaces[district] = state._palaces[district] + builders
