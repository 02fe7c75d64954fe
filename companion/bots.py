"""Computer players (issue 8): easy, normal and hard.

A bot gets a :class:`BotView` and nothing else: the public snapshot, its own private view, its legal choices, and
states *imagined* by :func:`~companion.engine.determinize.determinize` (others' secrets drawn from public facts), so it
cannot see another player's ballot or markers. Bots are pure and seeded: the same view and seed give the same choice.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .engine import (
    BALLOT,
    ELECTION,
    OVER,
    QUARANTIA,
    YEAR_END,
    Abstain,
    Advisor,
    Ballot,
    Build,
    Decision,
    Houses,
    Move,
    PrivateView,
    State,
    private_view,
    snapshot,
)
from .engine.determinize import determinize, draw_order
from .engine.state import AdvisorTask


@dataclass(frozen=True)
class BotView:
    seat: int
    snapshot: dict[str, Any]
    private: PrivateView
    legal: tuple[Decision, ...]
    samples: tuple[State, ...]


def make_view(state: State, seat: int, rng: random.Random, samples: int = 1) -> BotView:
    """Everything a bot in ``seat`` may know, and ``samples`` states it may imagine."""
    return BotView(
        seat,
        snapshot(state),
        private_view(state, seat),
        state.legal(seat),
        tuple(determinize(state, seat, rng) for _ in range(samples)),
    )


class Bot(Protocol):
    level: str
    samples: int

    def decide(self, view: BotView) -> Decision: ...


class EasyBot:
    """Uniform among the legal choices."""

    level = "easy"
    samples = 0

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: BotView) -> Decision:
        return self.rng.choice(view.legal)


# ---------------------------------------------------------------------------------------------- the heuristic


def _area_worth(state: State, seat: int, area: int) -> float:
    """How much winning ``area`` this year is worth to ``seat``: palaces first, then advisors."""
    n = state.n
    if area == QUARANTIA:
        worth = 1.6
    else:
        built = len(state.palaces[area])
        mine = state.board[area * n + seat]
        cost = 3 + built
        if built >= 5 or not state.palace_supply[seat]:
            worth = 0.6
        else:
            worth = 1.0 + 0.35 * mine + (2.5 if mine + 2 >= cost else 0.0)
            if seat not in state.palaces[area]:
                worth += 1.0  # a new district counts towards every victory condition
        if not state.house_supply[seat]:
            worth *= 0.5
    rivals = sum(state.stack_count[area * n + p] for p in range(n) if p != seat)
    return worth / (1.0 + 0.45 * rivals)


def _ballot_choice(state: State, seat: int, legal: tuple[Decision, ...]) -> Decision:
    worth = [_area_worth(state, seat, area) for area in range(7)]
    unused = sorted((worth[a] for a in range(7) if not state.used[seat] >> a & 1), reverse=True)
    rounds_left = max(1, (4 if state.n == 3 else 3) - state.round + 1)
    threshold = unused[min(len(unused) - 1, rounds_left)] if unused else 0.0  # what markers could buy later
    best, best_score = legal[0], float("-inf")
    for choice in legal:
        assert type(choice) is Ballot
        total = sum(choice.markers)
        score = (worth[choice.area] - threshold) * total - 0.2 * len(choice.markers)
        if score > best_score:
            best, best_score = choice, score
    return best


def _build_move(state: State, seat: int, choices: Sequence[tuple[Decision, int, int]]) -> Decision | None:
    """A house move that makes a palace possible where it arrives, if there is one."""
    n = state.n
    for decision, source, target in choices:
        built = len(state.palaces[target])
        enables = built < 5 and state.palace_supply[seat] and state.board[target * n + seat] + 1 >= 3 + built
        source_hopeless = (
            state.board[source * n + seat] < 3 + len(state.palaces[source]) or len(state.palaces[source]) >= 5
        )
        if enables and source_hopeless:  # a house from where it could not build anyway
            return decision
    return None


def heuristic_choice(state: State, seat: int, legal: tuple[Decision, ...], rng: random.Random) -> Decision:
    """The normal bot's rule of thumb, on a (possibly imagined) state."""
    first = legal[0]
    if type(first) is Ballot:
        return _ballot_choice(state, seat, legal)
    if type(first) is Build:
        return Build(True)
    if type(first) is Houses:
        most = max(d.number for d in legal if type(d) is Houses)
        keep = 2 if state.palace_supply[seat] > 1 else 0  # a few houses in hand for the next palaces
        return Houses(max(min(most, state.house_supply[seat] - keep), 0 if most == 0 else 1))
    if type(first) is Move:
        moves = [(d, d.move.source, d.move.target) for d in legal if type(d) is Move and d.move]
        return _build_move(state, seat, moves) or Move(None)
    # an advisor: stand it where it adds a vote this year, else where the next palace will be
    takes = [d for d in legal if type(d) is Advisor]
    abstain_moves = [(d, d.move.source, d.move.target) for d in legal if type(d) is Abstain and d.move]
    if takes:
        n = state.n
        upcoming = state.this_order[state.election + 1 :] if state.phase == ELECTION else state.this_order
        for area in upcoming:
            if state.stack_count[area * n + seat] and any(d.area == area for d in takes):
                return Advisor(area)
        task = state.tasks[-1] if state.tasks else None
        home = task.slot if isinstance(task, AdvisorTask) else -1
        best = max(
            (d for d in takes if d.area != home),
            key=lambda d: _area_worth(state, seat, d.area) + rng.random() * 0.01,
            default=takes[0],
        )
        return best
    return _build_move(state, seat, abstain_moves) or Abstain(None)


class NormalBot:
    level = "normal"
    samples = 1

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: BotView) -> Decision:
        return heuristic_choice(view.samples[0], view.seat, view.legal, self.rng)


# ---------------------------------------------------------------------------------------------- search


def _evaluate(state: State, seat: int) -> float:
    """Palaces, spread over districts, and houses on the board; relative to the best rival."""

    def score(player: int) -> float:
        palaces = sum(owners.count(player) for owners in state.palaces)
        districts = sum(1 for owners in state.palaces if player in owners)
        won = 1000.0 if state.phase == OVER and player in state.winners else 0.0
        return won + 10 * palaces + 4 * districts + 0.6 * state.houses_on_board(player)

    mine = score(seat)
    return mine - max(score(p) for p in range(state.n) if p != seat)


def _rollout(state: State, rng: random.Random, limit: int = 400) -> State:
    """Everyone plays the rule of thumb to the end of the year."""
    year = state.year
    for _step in range(limit):
        if state.phase in (YEAR_END, OVER) or state.year != year:
            break
        if state.chance_awaited():
            state.shuffle(draw_order(rng))
            continue
        player = state.awaiting()[0].player
        legal = state.legal(player)
        if state.phase == BALLOT and rng.random() < 0.25:
            state.apply(player, rng.choice(legal))  # a little randomness: rivals are not this predictable
        else:
            state.apply(player, heuristic_choice(state, player, legal, rng))
    return state


class HardBot:
    """Flat Monte Carlo over imagined states: each promising choice is played out to the year's end by everyone's
    rule of thumb, in as many imagined worlds as the time allows; the best average wins."""

    level = "hard"
    samples = 24

    def __init__(self, seed: int = 0, budget: float = 0.25, candidates: int = 6) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.candidates = candidates

    def _shortlist(self, view: BotView) -> list[Decision]:
        legal = list(view.legal)
        if len(legal) <= self.candidates:
            return legal
        state = view.samples[0]
        if type(legal[0]) is Ballot:
            worth = [_area_worth(state, view.seat, a) for a in range(7)]
            legal.sort(key=lambda d: -worth[d.area] * sum(d.markers) + 0.2 * len(d.markers))  # type: ignore[union-attr]
        else:
            guess = heuristic_choice(state, view.seat, view.legal, self.rng)
            legal.sort(key=lambda d: d != guess)
        return legal[: self.candidates]

    def decide(self, view: BotView) -> Decision:
        options = self._shortlist(view)
        if len(options) == 1:
            return options[0]
        totals = [0.0] * len(options)
        runs = [0] * len(options)
        deadline = time.perf_counter() + self.budget
        world = 0
        while time.perf_counter() < deadline or min(runs) == 0:
            sample = view.samples[world % len(view.samples)]
            world += 1
            for index, option in enumerate(options):
                trial = sample.copy()
                try:
                    trial.apply(view.seat, option)
                except ValueError:  # illegal in this imagined world (cannot happen for public choices)
                    continue
                totals[index] += _evaluate(_rollout(trial, self.rng), view.seat)
                runs[index] += 1
            if world > 400:
                break
        best = max(range(len(options)), key=lambda i: totals[i] / max(runs[i], 1))
        return options[best]


def make_bot(level: str, seed: int = 0) -> Bot:
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot(seed)
    return HardBot(seed)
