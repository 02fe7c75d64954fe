"""Computer players: easy, normal and hard (benchmarks/bots.py measures them against each other).

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

from ..engine import (
    ALL_AREAS,
    QUARANTIA,
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
from ..engine.determinize import determinize, draw_order


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


def _area_worths(state: State, seat: int) -> list[float]:
    """How much winning each area this year is worth to ``seat``: palaces first, then advisors."""
    may_build = state.palace_supply(seat) > 0
    has_houses = state.house_supply(seat) > 0
    worths = []
    for area in ALL_AREAS:
        if area == QUARANTIA:
            worth = 1.6
        else:
            mine = state.houses(area, seat)
            if state.district_full(area) or not may_build:
                worth = 0.6
            else:
                worth = 1.0 + 0.35 * mine + (2.5 if mine + 2 >= state.palace_cost(area) else 0.0)
                if seat not in state.palaces_in(area):
                    worth += 1.0  # a new district counts towards every victory condition
            if not has_houses:
                worth *= 0.5
        stack = state.markers_on(area)
        rivals = sum(stack) - stack[seat]
        worths.append(worth / (1.0 + 0.45 * rivals))
    return worths


def _ballot_choice(state: State, seat: int, legal: tuple[Decision, ...]) -> Decision:
    worth = _area_worths(state, seat)
    used = state.areas_used(seat)
    unused = sorted((worth[a] for a in ALL_AREAS if a not in used), reverse=True)
    rounds_left = max(1, state.rounds_per_year() - state.round + 1)
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
    for decision, source, target in choices:
        enables = (
            not state.district_full(target)
            and state.palace_supply(seat)
            and state.houses(target, seat) + 1 >= state.palace_cost(target)
        )
        source_hopeless = state.houses(source, seat) < state.palace_cost(source) or state.district_full(source)
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
        keep = 2 if state.palace_supply(seat) > 1 else 0  # a few houses in hand for the next palaces
        return Houses(max(min(most, state.house_supply(seat) - keep), 0 if most == 0 else 1))
    if type(first) is Move:
        moves = [(d, d.move.source, d.move.target) for d in legal if type(d) is Move and d.move]
        return _build_move(state, seat, moves) or Move(None)
    # an advisor: stand it where it adds a vote this year, else where the next palace will be
    takes = [d for d in legal if type(d) is Advisor]
    abstain_moves = [(d, d.move.source, d.move.target) for d in legal if type(d) is Abstain and d.move]
    if takes:
        for area in state.upcoming():
            if state.markers_placed(area, seat) and any(d.area == area for d in takes):
                return Advisor(area)
        awaited = state.awaiting()
        slot = awaited[0].slot if awaited else None
        home = -1 if slot is None else slot
        worth = _area_worths(state, seat)
        best = max(
            (d for d in takes if d.area != home),
            key=lambda d: worth[d.area] + rng.random() * 0.01,
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

    winners = state.winners  # empty until the game is over

    def score(player: int) -> float:
        won = 1000.0 if player in winners else 0.0
        palaces, districts = state.palaces_of(player), state.districts_of(player)
        return won + 10 * palaces + 4 * districts + 0.6 * state.houses_on_board(player)

    mine = score(seat)
    return mine - max(score(p) for p in range(state.player_count) if p != seat)


def _rollout(state: State, rng: random.Random, limit: int = 400) -> tuple[State, int]:
    """Everyone plays the rule of thumb to the end of the year; also returns the work that took (see WORK)."""
    year = state.year
    work = 0
    for _step in range(limit):
        phase = state.phase
        if phase == "year_end" or phase == "over" or state.year != year:
            break
        work += STEP_WORK
        if state.chance_awaited():
            state.shuffle(draw_order(rng))
            continue
        player = state.awaiting()[0].player
        legal = state.legal(player)
        work += len(legal)
        if phase == "ballot" and rng.random() < 0.25:
            state.apply(player, rng.choice(legal))  # a little randomness: rivals are not this predictable
        else:
            state.apply(player, heuristic_choice(state, player, legal, rng))
    return state, work


class HardBot:
    """Flat Monte Carlo over imagined states: each promising choice is played out to the year's end by everyone's
    rule of thumb, in as many imagined worlds as its work allows; the best average wins.

    Its effort is counted in units of work (``work`` per decision, see WORK), not in seconds, so the same seed, view
    and work give the same move on any machine. ``work`` is pinned by the caller (tests, scripted replays) or, when
    None, set once per process from ``budget`` by :func:`~companion.bots.calibration.work_for`: the machine's speed
    sets the count once, not the moves. The view carries one imagined world; the others are imagined from it inside
    the decision (an imagined state holds nothing the real one would tell, see :func:`determinize`), so building
    them counts against the work too and the game thread only ever builds one.

    One timed escape, for measured work only: a search still running after ``OVERRUN`` budgets (the machine is far
    slower than when it was measured, e.g. busy with other programs) answers with what it has; ``cut_short`` counts
    those decisions. Pinned work is never cut, so a pinned count and a seed always give the same move.
    """

    level = "hard"
    samples = 1
    MAX_WORLDS = 400
    OVERRUN = 3.0

    def __init__(self, seed: int = 0, budget: float = 0.25, candidates: int = 6, work: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.candidates = candidates
        self.work = work
        self.pinned = work is not None
        self.spent = 0  # the work the last decision took
        self.cut_short = 0

    def _shortlist(self, view: BotView) -> list[Decision]:
        legal = list(view.legal)
        if len(legal) <= self.candidates:
            return legal
        state = view.samples[0]
        if type(legal[0]) is Ballot:
            worth = _area_worths(state, view.seat)
            legal.sort(key=lambda d: -worth[d.area] * sum(d.markers) + 0.2 * len(d.markers))  # type: ignore[union-attr]
        else:
            guess = heuristic_choice(state, view.seat, view.legal, self.rng)
            legal.sort(key=lambda d: d != guess)
        return legal[: self.candidates]

    def work_per_decision(self) -> int:
        """The pinned work, or what this machine does in ``budget`` (measured once per process)."""
        if self.work is None:
            from .calibration import work_for

            self.work = work_for(self.budget)
        return self.work

    def decide(self, view: BotView) -> Decision:
        options = self._shortlist(view)
        if len(options) == 1:
            return options[0]
        work = self.work_per_decision()
        totals = [0.0] * len(options)
        runs = [0] * len(options)
        used = worlds = 0
        give_up = None if self.pinned else time.perf_counter() + self.OVERRUN * self.budget
        while worlds < self.MAX_WORLDS:
            if give_up is not None and worlds and time.perf_counter() > give_up:
                self.cut_short += 1
                break
            # A next world is imagined only if one more like the average so far still fits; the first only if a
            # whole year for every option (the dearest world) fits, else the rule of thumb answers.
            expected = used / worlds if worlds else YEAR_WORK * len(options)
            if used + expected > work:
                break
            world = determinize(view.samples[0], view.seat, self.rng)
            used += DETERMINIZE_WORK
            worlds += 1
            for index, option in enumerate(options):
                trial = world.copy()
                used += COPY_WORK
                try:
                    trial.apply(view.seat, option)
                except ValueError:  # illegal in this imagined world (cannot happen for public choices)
                    continue
                end, spent = _rollout(trial, self.rng)
                used += spent + EVALUATE_WORK
                totals[index] += _evaluate(end, view.seat)
                runs[index] += 1
        self.spent = used
        if not any(runs):
            return heuristic_choice(view.samples[0], view.seat, view.legal, self.rng)
        best = max(range(len(options)), key=lambda i: totals[i] / max(runs[i], 1))
        return options[best]


# WORK: the search's cost in units of about 0.2 us here, counted instead of timed. A rollout step costs STEP_WORK plus
# its number of legal choices (listing and weighing them dominates: measured ~18 us for a ballot among ~70 choices,
# ~3-6 us for a build or houses among 2-3, ~12 us for a move among ~30); a copy and an imagined world cost fixed
# amounts (~1.5 us and ~12 us), and so does weighing a rollout's end (~10 us).
STEP_WORK = 30
COPY_WORK = 8
EVALUATE_WORK = 50
DETERMINIZE_WORK = 65
YEAR_WORK = 2400  # the most a year's rollout costs from its start (about 16 ballots and 14 other steps, 4 players)


def make_bot(level: str, seed: int = 0, work: int | None = None) -> Bot:
    """A computer player; ``work`` pins the hard player's steps per decision (None: measured from its budget)."""
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot(seed)
    return HardBot(seed, work=work)
