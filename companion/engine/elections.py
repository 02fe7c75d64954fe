"""Elections (rules.md 6, 7, 10): the count, then the winner's and the others' decisions as a stack of tasks.

After every accepted decision :func:`advance` runs everything automatic (rings returning, empty elections, turning
cards, the year end) until someone must decide again, so at any moment the top task names who is awaited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from .areas import QUARANTIA, area_name
from .changes import AdvisorBack, MoveAdvisor, MoveHouses, PlaceHouses, TakeAdvisor, TurnCard
from .choices import NO_VOTES, SEAT_SETS, WITHOUT
from .decisions import Abstain, Advisor, Decision, HouseMove, Houses, Move
from .errors import IllegalDecisionError
from .tasks import (
    BALLOT,
    ELECTION,
    OVER,
    SETUP,
    YEAR_END,
    AdvisorTask,
    BuildsTask,
    CheckTask,
    Count,
    HousesTask,
    MovesTask,
    Task,
)
from .year_end import end_year

if TYPE_CHECKING:
    from .state import State

_ELECTION_RULE = "10.1"

# The tasks of a sole winner (10.2.1, 10.3), which every count with a winner needs: made once, shared (immutable).
_WINNER_ADVISOR = tuple(tuple(AdvisorTask(p, area) for p in range(4)) for area in range(7))
_WINNER_HOUSES = tuple(tuple(HousesTask(area, 2, (p,), (), False, "10.2.1") for p in range(4)) for area in range(6))


def name(state: State, player: int) -> str:
    return state._players[player]


def not_awaited(state: State, player: int, decision: Decision) -> IllegalDecisionError:
    player_name = name(state, player)
    if state._phase == OVER:
        return IllegalDecisionError(_("the game is over: nothing may follow"), "9.2")
    if state._phase in (SETUP, YEAR_END):
        rule = "2.2" if state._phase == SETUP else "5.3"
        return IllegalDecisionError(
            _("a shuffle of the voting-order deck is due, not a {kind}").format(kind=decision.kind), rule
        )
    awaited = state.awaiting()
    mine = [a for a in awaited if a.player == player]
    if state._phase == BALLOT:
        if mine:
            return IllegalDecisionError(
                _("only ballots are played in the ballot phase, not a {kind}").format(kind=decision.kind), "4.2"
            )
        if not state._markers_left[player]:
            return IllegalDecisionError(
                _("{name} has no marker left and sits this round out").format(name=player_name), "4.2"
            )
        return IllegalDecisionError(_("{name} has already chosen this round").format(name=player_name), "4.2")
    if mine:
        wanted = '"advisor" or "abstain"' if mine[0].decision == "advisor" else f'"{mine[0].decision}"'
        return IllegalDecisionError(
            _('{name} must answer with {wanted} now, not with "{kind}"').format(
                name=player_name, wanted=wanted, kind=decision.kind
            ),
            _ELECTION_RULE,
        )
    who = ", ".join(f"{name(state, a.player)} ({a.decision})" for a in awaited)
    return IllegalDecisionError(
        _("it is not {name}'s turn: awaiting {who}").format(name=player_name, who=who), _ELECTION_RULE
    )


def check_move(state: State, player: int, move: HouseMove, rule: str) -> None:
    source, target = move
    if not (0 <= source < 6 and 0 <= target < 6):
        raise IllegalDecisionError(_("houses stand only in districts, never in the Quarantia"), "8.1")
    if source == target:
        raise IllegalDecisionError(_("a house must move to a different district"), "8.3")
    if not state._board[source * state._n + player]:
        raise IllegalDecisionError(
            _("{name} has no house in {area} to move").format(name=name(state, player), area=area_name(source)),
            rule,
        )


def move_house(state: State, player: int, move: HouseMove) -> None:
    """Move a checked house and push the palace check the arrival triggers (8.4)."""
    n = state._n
    if state._log is not None:
        state._log.append(MoveHouses(player, move.source, move.target, 1))
    state._board[move.source * n + player] -= 1
    state._board[move.target * n + player] += 1
    if state.may_build(player, move.target):
        state._tasks.append(CheckTask(player, move.target))


def apply_advisor(state: State, player: int, decision: Decision, task: AdvisorTask) -> None:
    if player != task.player or type(decision) not in (Advisor, Abstain):
        raise not_awaited(state, player, decision)
    slot = task.slot
    if type(decision) is Advisor:
        area = decision.area
        if slot == QUARANTIA:
            if area == QUARANTIA:
                raise IllegalDecisionError(_("a Quarantia advisor may stand only in a district"), "7.2.2")
            if not state._rings[player]:
                raise IllegalDecisionError(
                    _("{name} has no free ring and must abstain").format(name=name(state, player)), "7.3"
                )
            state._tasks.pop()
            if state._log is not None:
                state._log.append(TakeAdvisor(player, QUARANTIA, area))
            state._rings[player] -= 1
            state._quarantia = tuple(sorted((*state._quarantia, (player, area))))
            return
        if area == slot:
            raise IllegalDecisionError(
                _("the {area} advisor may not stand in {area}, its home").format(area=area_name(slot)), "7.2"
            )
        controller = state._advisor_controller[slot]
        if controller != player:
            if not state._rings[player]:
                raise IllegalDecisionError(
                    _("{name} has no free ring and must abstain").format(name=name(state, player)), "7.3"
                )
            neutralize(state, slot)
            if state._log is not None:
                state._log.append(TakeAdvisor(player, slot, area))
            state._rings[player] -= 1
            state._advisor_controller[slot] = player
        elif state._log is not None and state._advisor_area[slot] != area:
            state._log.append(MoveAdvisor(player, slot, state._advisor_area[slot], area))
        state._advisor_area[slot] = area
        state._tasks.pop()
        return
    assert type(decision) is Abstain
    move = decision.move
    if move is not None:
        if slot == QUARANTIA:
            check_move(state, player, move, "8.3.2")
        else:
            check_move(state, player, move, "8.3.1")
            if slot != move.source and slot != move.target:
                raise IllegalDecisionError(
                    _("after abstaining on the {area} advisor, the house must move from or into {area}").format(
                        area=area_name(slot)
                    ),
                    "8.3.1",
                )
    state._tasks.pop()
    if slot != QUARANTIA:
        neutralize(state, slot)
    if move is not None:
        move_house(state, player, move)


def apply_houses(state: State, player: int, decision: Decision, task: HousesTask) -> None:
    if type(decision) is not Houses or player not in task.waiting:
        raise not_awaited(state, player, decision)
    count = decision.number
    if count < 0:
        raise IllegalDecisionError(_("the number of houses cannot be negative"), "8.2")
    if count > task.offer:
        raise IllegalDecisionError(
            ngettext(
                "{name} may place at most {n} house here", "{name} may place at most {n} houses here", task.offer
            ).format(name=name(state, player), n=task.offer),
            task.rule,
        )
    supply = state._house_supply[player]
    if count > supply:
        raise IllegalDecisionError(
            ngettext("{name} has only {n} house in supply", "{name} has only {n} houses in supply", supply).format(
                name=name(state, player), n=supply
            ),
            "8.2",
        )
    district = task.district
    if count and state._log is not None:
        state._log.append(PlaceHouses(player, district, count))
    state._house_supply[player] = supply - count
    state._board[district * state._n + player] += count
    if not task.together:
        state._tasks.pop()
        if count and state.may_build(player, district):
            state._tasks.append(CheckTask(player, district))
        return
    placed = tuple(sorted((*task.placed, player))) if count else task.placed
    state._tasks[-1] = HousesTask(district, task.offer, WITHOUT[task.waiting, player], placed, True, task.rule)


def apply_move(state: State, player: int, decision: Decision, task: MovesTask) -> None:
    if type(decision) is not Move or player != task.player:
        raise not_awaited(state, player, decision)
    move = decision.move
    if move is None:
        state._tasks.pop()
        return
    check_move(state, player, move, task.rule)
    if task.left > 1:
        state._tasks[-1] = MovesTask(player, task.left - 1, task.rule)
    else:
        state._tasks.pop()
    move_house(state, player, move)


def neutralize(state: State, district: int) -> None:
    """rules.md 7.4, 10.2.2: the advisor goes back to its symbol and its ring to its owner."""
    controller = state._advisor_controller[district]
    if controller >= 0:
        if state._log is not None:
            state._log.append(AdvisorBack(controller, district, state._advisor_area[district]))
        state._rings[controller] += 1
        state._advisor_controller[district] = -1
        state._advisor_area[district] = -1


def open_election(state: State) -> None:
    """rules.md 6.1 to 6.5: count the votes of the next area and queue its resolution (10.2 to 10.5)."""
    n = state._n
    area = state._this_order[state._election]
    base = area * n
    votes = state._stack_sum[base : base + n]
    advisor_votes = NO_VOTES[n]
    standing_in = state._advisor_area  # -1 for a neutral advisor, so a match means controlled (7.1)
    quarantia = state._quarantia
    if area in standing_in or (quarantia and any(standing == area for _controller, standing in quarantia)):
        extra = [0] * n
        for district in range(6):
            if standing_in[district] == area:
                extra[state._advisor_controller[district]] += 1
        for controller, standing in quarantia:
            if standing == area:
                extra[controller] += 1
        for player in range(n):
            votes[player] += extra[player]
        advisor_votes = tuple(extra)
    placed = tuple(state._stack_count[base : base + n])
    log = state._log
    top = max(votes)
    if top == 0:  # 6.5
        state._count = Count(area, tuple(votes), None, (), (), advisor_votes, placed)
        if log is not None:
            log.append(state._count)
        return
    runners: tuple[int, ...] = ()
    winner = None
    if votes.count(top) == 1:
        winner = votes.index(top)
        first: tuple[int, ...] = SEAT_SETS[1 << winner]
        votes_sorted = sorted(votes)
        second = votes_sorted[-2]  # below the winner's, who alone has the most
        if second > 0:  # 6.2: only players with a vote are ranked
            runners = tuple([p for p in range(n) if votes[p] == second])
    else:
        first = tuple([p for p in range(n) if votes[p] == top])
    state._count = Count(area, tuple(votes), winner, first, runners, advisor_votes, placed)
    if log is not None:
        log.append(state._count)
    plan: list[Task]
    if area != QUARANTIA:
        if winner is not None:  # 10.2.1; the stack runs from its end
            plan = [_WINNER_HOUSES[area][winner], _WINNER_ADVISOR[area][winner]]
            if runners:
                plan.insert(0, HousesTask(area, 1, runners, (), len(runners) > 1, "10.2.1"))
        else:  # 10.2.2
            neutralize(state, area)
            plan = [HousesTask(area, 2, first, (), True, "10.2.2")]
    else:
        for controller, standing in quarantia:  # 10.3 step 1, 10.5
            if log is not None:
                log.append(AdvisorBack(controller, QUARANTIA, standing))
            state._rings[controller] += 1
        state._quarantia = ()
        if winner is not None:
            plan = [_WINNER_ADVISOR[QUARANTIA][winner]]
            if len(runners) == 1:  # 10.3 step 3
                plan.append(_WINNER_ADVISOR[QUARANTIA][runners[0]])
            else:  # 10.4 [RULING] seat order
                plan.extend(MovesTask(p, 1, "10.4") for p in reversed(runners))
            plan.append(plan[0])
        else:  # 10.5 [RULING] seat order
            plan = [MovesTask(p, 2, "10.5") for p in reversed(first)]
    state._tasks = plan


def advance(state: State) -> None:
    """Run everything automatic until a decision is awaited or the year ends."""
    tasks = state._tasks
    while True:
        while tasks:
            task = tasks[-1]
            if type(task) is HousesTask:
                seats = task.waiting
                supply = state._house_supply
                if len(seats) == 1:
                    if supply[seats[0]]:
                        return
                    waiting: tuple[int, ...] = ()
                else:
                    waiting = tuple([p for p in seats if supply[p]])
                if waiting:
                    if waiting != seats:
                        tasks[-1] = HousesTask(
                            task.district, task.offer, waiting, task.placed, task.together, task.rule
                        )
                    return
                tasks.pop()
                if task.together and task.placed:  # 8.6
                    district = task.district
                    able = tuple(p for p in task.placed if state.may_build(p, district))
                    if able:
                        tasks.append(BuildsTask(district, able, ()))
                        return
            elif type(task) is MovesTask:
                if task.left and state.houses_on_board(task.player):
                    return
                tasks.pop()
            else:
                return
        close_election(state)
        if state._phase != ELECTION:
            return
        open_election(state)
        tasks = state._tasks


def close_election(state: State) -> None:
    """rules.md 5.2, 6.6: the area's markers are done and one more card of next year's order is turned."""
    n = state._n
    base = state._this_order[state._election] * n
    state._stack_count[base : base + n] = state._stack_sum[base : base + n] = NO_VOTES[n]
    if state._log is not None:
        state._log.append(TurnCard(state._next_order[state._turned]))
    state._turned += 1
    state._election += 1
    state._count = None
    if state._election == 7:
        end_year(state)
