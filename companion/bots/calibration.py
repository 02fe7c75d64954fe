"""How much work (see WORK in ``companion.bots``) the hard computer player may do per decision here (so a Pi's hard
player thinks within its time, not a desktop's).

The hard player counts its effort in units of work, not seconds, so that a seed reproduces its moves; the machine's
speed enters once, here: a short, time-boxed probe runs its search on a fixed reference view and measures work per
second. A Pi gets less work than a desktop for the same budget in seconds, and every decision, the first one (which
pays for the probe) included, stays inside the budget. The probe decides a game's first ballot (whole years to play
out in every imagined world); the units weigh steps by their cost, so the count holds for other decisions too.
"""

from __future__ import annotations

import random
import statistics
import threading
from collections.abc import Callable
from time import perf_counter

PROBE_SECONDS = 0.03  # the probe's length: a dozen imagined worlds here, enough to average out
SHARE = 0.75  # of the budget spent searching: room for the probe on the first decision and for uneven steps

_rate: float | None = None
_lock = threading.Lock()


def _reference_view() -> object:
    """The first ballot of a four-player game from a fixed seed: a whole year to play out in every imagined world."""
    from ..engine import State
    from ..engine.determinize import draw_order
    from .players import HardBot, make_view

    rng = random.Random(18)
    state = State(["a", "b", "c", "d"])
    while state.chance_awaited():
        state.shuffle(draw_order(rng))
    return make_view(state, state.awaiting()[0].player, rng, HardBot().samples)  # compiled: an instance's


def work_per_second(clock: Callable[[], float] = perf_counter, probe: float = PROBE_SECONDS) -> float:
    """Measure the hard player's search speed for at least ``probe`` seconds of ``clock`` (injectable for tests):
    the very search it runs, on a fixed view, so overheads the units leave out are measured too. The median over
    rounds of one imagined world each, so a round that lost the processor to another program does not count much."""
    from .players import YEAR_WORK, BotView, HardBot

    started = clock()
    view = _reference_view()
    assert isinstance(view, BotView)
    bot = HardBot(seed=0, work=YEAR_WORK * 8)  # one imagined world per round of the probe
    rates: list[float] = []
    before = clock()
    while not rates or before - started < probe:
        bot.decide(view)
        after = clock()
        rates.append(bot.spent / max(after - before, 1e-9))
        before = after
    return statistics.median(rates)


def work_for(budget: float) -> int:
    """Work per decision for a ``budget`` in seconds; the probe runs once per process, on first use."""
    global _rate
    with _lock:
        if _rate is None:
            _rate = work_per_second()
        return int(_rate * budget * SHARE)
