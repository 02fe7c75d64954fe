"""Computer players' tournament (companion/bots): ``python -m benchmarks bots [GAMES]``.

Seeded games, seats rotated so no level always sits first, win rates with Wilson 95% intervals (a shared victory
counts as a fraction), and the time per decision (making the bot's view included). Targets: normal wins at least 70%
of 3-player games against two easy; hard wins more than 45% against two normal; hard decides within 0.3 s.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import Pool

from companion.bots import Bot, make_bot, make_view
from companion.engine import State
from companion.engine.determinize import draw_order

from . import figures

MATCHES = (
    (("normal", "easy", "easy"), 1.0),
    (("normal", "easy", "easy", "easy"), 1.0),
    (("hard", "normal", "normal"), 0.2),
    (("hard", "normal", "normal", "normal"), 0.1),
)
WINS_BUDGET = {"normal": ">= 70%", "hard": "> 45%"}  # the first seat's share of wins the README holds it to


def play_bots(
    state: State, bots: Sequence[Bot], rng: random.Random, max_year: int, clock: Callable[[], float] = time.perf_counter
) -> Iterator[tuple[int, float]]:
    """Computer players play ``state`` on, up to ``max_year``; yields each decision's seat and seconds (of ``clock``:
    wall time, or the thread's CPU time)."""
    while not state.is_over and state.year <= max_year:
        if state.chance_awaited():
            state.shuffle(draw_order(rng))
            continue
        seat = state.awaiting()[0].player
        started = clock()
        decision = bots[seat].decide(make_view(state, seat, rng, bots[seat].samples))
        yield seat, clock() - started
        state.apply(seat, decision)


def play(args: tuple[tuple[str, ...], int, int]) -> tuple[list[float], dict[str, list[float]]]:
    levels, seed, max_year = args
    rotation = seed % len(levels)
    seated = levels[rotation:] + levels[:rotation]
    rng = random.Random(seed)
    bots = [make_bot(level, seed * 31 + seat) for seat, level in enumerate(seated)]
    state = State([f"p{seat}" for seat in range(len(seated))])
    times: dict[str, list[float]] = {level: [] for level in levels}
    for seat, seconds in play_bots(state, bots, rng, max_year):
        times[seated[seat]].append(seconds)
    share = [0.0] * len(levels)
    for winner in state.winners:
        share[(winner + rotation) % len(levels)] += 1 / len(state.winners)
    return share, times


def wilson(wins: float, games: int) -> tuple[float, float]:
    if not games:
        return 0.0, 0.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main(argv: list[str] | None = None, smoke: bool = False) -> None:
    """``smoke``: one game a match, its first year only (the test suite's run)."""
    games = int(argv[0]) if argv else 200
    max_year = 1 if smoke else 99
    print(f"computer players: seeded tournaments (up to {games} games a match)")
    with Pool(2) as pool:
        for levels, weight in MATCHES:
            count = 1 if smoke else max(10, int(games * weight))
            started = time.monotonic()
            results = pool.map(play, [(levels, 1000 + g, max_year) for g in range(count)])
            wins = [sum(share[i] for share, _ in results) for i in range(len(levels))]
            times: dict[str, list[float]] = {}
            for _, per_level in results:
                for level, values in per_level.items():
                    times.setdefault(level, []).extend(values)
            low, high = wilson(wins[0], count)
            label = f"{levels[0]} vs {' + '.join(levels[1:])}"
            print(f"{label:<36} {levels[0]} wins {wins[0] / count:6.1%}  95% CI {low:6.1%} .. {high:6.1%}  "
                  f"({count} games, {time.monotonic() - started:.0f} s)")  # fmt: skip
            decisions = ""
            for level, values in sorted(times.items()):
                values.sort()
                p99 = values[int(len(values) * 0.99)]
                mean = statistics.mean(values) * 1000
                print(
                    f"    {level:<8} time per decision: mean {mean:7.2f} ms  p99 {p99 * 1000:7.2f} ms  "
                    f"max {values[-1] * 1000:7.2f} ms  ({len(values)} decisions)"
                )
                if level == levels[0]:
                    decisions = f"; {level} decides in p99 {p99 * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms"
            figures.report(
                f"{label}: the first's wins (seeded tournament, `bench bots`)",
                f"{wins[0] / count:.1%} (95% CI {low:.0%}-{high:.0%}, {count} games){decisions}",
                WINS_BUDGET[levels[0]],
            )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
