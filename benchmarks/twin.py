"""The table twin over thousands of games (record-format.md's board changes): following the board changes literally
rebuilds the board.

Not a speed figure but the large run of the suite's property test (tests/engine/test_board_changes.py plays a few
hundred games in CI): ``python3 dev.py bench twin [GAMES]``, default 5,000, half with 3 players and half with 4, in
tie-prone play so that tied elections and simultaneous builds come up in most games. Any game whose board the twin
cannot rebuild stops the run with the seed, the line and the difference.
"""

from __future__ import annotations

import time

from benchmarks import figures
from tests.helpers import RGB, RGBY
from tests.twin_games import GameStats, follow_random_game


def main(argv: list[str] | None = None) -> None:
    games = int(argv[0]) if argv else 5000
    started = time.perf_counter()
    totals = GameStats()
    for players in (RGB, RGBY):
        stats = GameStats()
        for seed in range(games // 2):
            follow_random_game(seed, players, stats)
        print(
            f"twin, {len(players)} players: {stats.games} games followed, board rebuilt after all {stats.lines} lines "
            f"({stats.changes} changes; {stats.ties} tied elections; {stats.simultaneous_builds} simultaneous builds)"
        )
        totals.games, totals.lines = totals.games + stats.games, totals.lines + stats.lines
        totals.simultaneous_builds += stats.simultaneous_builds
    print(f"twin: {time.perf_counter() - started:.1f} s")
    figures.report(
        "board changes followed by the rules-blind table twin, 3 and 4 players",
        f"{totals.games:,} of {totals.games:,} games rebuilt, {totals.lines:,} lines, {totals.simultaneous_builds:,} "
        "simultaneous builds",
        "all",
    )
