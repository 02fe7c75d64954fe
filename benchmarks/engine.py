"""Rules-engine throughput (docs/engine.md), single process, in-process, interpreter start not counted.

- random games/s: complete games where every step picks uniformly among the engine's own legal choices
  (and shuffles uniformly), 3 and 4 players. Budget: at least 200 games/s on the development machine.
- replayed lines/s: record text lines parsed, validated and applied (`Replay.feed`), with and without the optional
  "t" time stamps. Budget: at least 200,000 lines/s.
- state copy and legal-choice listing cost, which computer players pay thousands of times per decision.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.engine import DecisionLine, Replay, ShuffleLine, State, dump_header, dump_line
from companion.engine.determinize import draw_order

from . import figures

PLAYERS = {3: ("red", "blue", "green"), 4: ("red", "blue", "green", "yellow")}
GAMES_BUDGET = 200.0
LINES_BUDGET = 200_000.0


def play_random(
    rng: random.Random,
    players: Sequence[str],
    make_state: Callable[[Sequence[str]], Any] = State,
    draw: Callable[[random.Random], Any] = draw_order,
) -> int:
    """One complete random game (by default on this checkout's engine); returns the number of lines it took."""
    state = make_state(players)
    steps = 0
    choice = rng.choice
    while not state.is_over:
        if state.chance_awaited():
            state.shuffle(draw(rng))
        else:
            player = choice(state.awaiting()).player
            state.apply(player, choice(state.legal(player)))
        steps += 1
    return steps


def record_random(rng: random.Random, players: Sequence[str], stamped: bool) -> list[str]:
    state = State(players)
    lines = [dump_header(players)]
    stamp = "2026-11-22T20:15:03.250Z" if stamped else None
    while not state.is_over:
        if state.chance_awaited():
            order = draw_order(rng)
            state.shuffle(order)
            lines.append(dump_line(ShuffleLine(order, stamp)))
        else:
            player = rng.choice(state.awaiting()).player
            decision = rng.choice(state.legal(player))
            state.apply(player, decision)
            lines.append(dump_line(DecisionLine(players[player], decision, stamp)))
    return lines


def best_of(runs: int, work: Callable[[], float]) -> float:
    """The best rate of several runs: the least disturbed by whatever else the machine is doing."""
    return max(work() for _ in range(runs))


def games_per_second(players: int, games: int = 300, runs: int = 3) -> tuple[float, float]:
    steps: list[int] = []

    def run() -> float:
        rng = random.Random(1000 + players)
        start = time.perf_counter()
        steps.extend(play_random(rng, PLAYERS[players]) for _ in range(games))
        return games / (time.perf_counter() - start)

    rate = best_of(runs, run)
    return rate, statistics.mean(steps)


def lines_per_second(stamped: bool, games: int = 200, runs: int = 3) -> tuple[float, int]:
    rng = random.Random(7)
    records = [record_random(rng, PLAYERS[3 + i % 2], stamped) for i in range(games)]
    total = sum(len(r) for r in records)

    def run() -> float:
        start = time.perf_counter()
        for record in records:
            replay = Replay()
            feed = replay.feed
            for text in record:
                feed(text)
        return total / (time.perf_counter() - start)

    return best_of(runs, run), total


def micro(label: str, work: Callable[[], object], number: int = 20000) -> float:
    start = time.perf_counter()
    for _ in range(number):
        work()
    micros = (time.perf_counter() - start) / number * 1e6
    print(f"{label:<44} {micros:10.2f} µs")
    return micros


def main(smoke: bool = False) -> None:
    """``smoke``: two games and a few repetitions of everything, no verdict (the test suite's run)."""
    games, runs, number = (2, 1, 10) if smoke else (None, 3, 20000)
    print("rules engine (single process, in-process)")
    worst_games = float("inf")
    rates = []
    for players in (3, 4):
        rate, steps = games_per_second(players, games or 300, runs)
        worst_games = min(worst_games, rate)
        rates.append(rate)
        print(f"{f'random games, {players} players':<44} {rate:10.0f} games/s   ({steps:.0f} lines per game)")
    figures.report("complete random legal games, 3 / 4 players", f"{rates[0]:,.0f} / {rates[1]:,.0f} games/s",
           f"{GAMES_BUDGET:,.0f} games/s")  # fmt: skip
    worst_lines = float("inf")
    rates = []
    for stamped in (False, True):
        rate, total = lines_per_second(stamped, games or 200, runs)
        worst_lines = min(worst_lines, rate)
        rates.append(rate)
        label = f"replayed lines{', with t stamps' if stamped else ''}"
        print(f"{label:<44} {rate:10.0f} lines/s   ({total} lines)")
    figures.report("record lines replayed (parsed, validated, applied), without / with time stamps",
           f"{rates[0]:,.0f} / {rates[1]:,.0f} lines/s", f"{LINES_BUDGET:,.0f} lines/s")  # fmt: skip
    rng = random.Random(3)
    state = State(PLAYERS[4])
    while state.year < 3 or state.chance_awaited() or state.phase != "election":
        if state.chance_awaited():
            state.shuffle(rng.sample(range(7), 7))
        else:
            player = rng.choice(state.awaiting()).player
            state.apply(player, rng.choice(state.legal(player)))
        if state.is_over:
            state = State(PLAYERS[4])
    figures.report("`State.copy()`", f"{micro('State.copy()', state.copy, number):.1f} µs")
    player = state.awaiting()[0].player
    election = micro("State.legal() in an election", lambda: state.legal(player), number)
    ballot_state = State(PLAYERS[4])
    ballot_state.shuffle(range(7))
    ballot_state.shuffle(range(7))
    ballot = micro("State.legal() in the ballot phase (273 ballots)", lambda: ballot_state.legal(0), number)
    figures.report("legal choices in an election / in the ballot phase", f"{election:.1f} / {ballot:.1f} µs")
    if smoke:
        return
    print(
        f"budgets: {GAMES_BUDGET:.0f} games/s {'met' if worst_games >= GAMES_BUDGET else 'MISSED'}, "
        f"{LINES_BUDGET:,.0f} lines/s {'met' if worst_lines >= LINES_BUDGET else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
