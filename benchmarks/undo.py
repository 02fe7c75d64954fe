"""Undo that keeps the board true (rules.md 11.4.1), the large run of the suite's tests: ``python3 dev.py bench undo
[N]``.

Two parts, each stopping at the first table that no longer matches the game:
- the engine: N tie-prone random games (default 2,000, half with 3 players, half with 4) in which a third of the
  decision lines is taken back while its own board notice is up (rules.md 11.4.1); the rules-blind table twin
  follows the line's own part and each undo's changes and must be back at the snapshot before the line
  (tests/engine/test_undo_changes.py plays 40);
- the screen: N // 50 whole games through button events (default 40) in which the host holds back at random; the
  twin follows the undo sentences it reads off the shared screen (tests/flow/test_undo_twin.py plays 8).
Figures: undos carried out, by the kind of decision taken back, those of lines whose reveals were still unseen,
undo chains that took computer players' decisions back with a human's, and refusals (rules.md 11.4).
"""

from __future__ import annotations

import time
from collections import Counter

from benchmarks import figures
from tests.flow.test_undo_twin import GAMES, play_with_undos
from tests.helpers import RGB, RGBY
from tests.twin_games import GameStats, follow_random_game


def main(argv: list[str] | None = None) -> None:
    games = int(argv[0]) if argv else 2000
    started = time.perf_counter()
    stats = GameStats()
    for players in (RGB, RGBY):
        for seed in range(games // 2):
            follow_random_game(seed, players, stats, max_years=60, undo_rate=0.3)
    print(
        f"undo, engine: {stats.games} games, {stats.undos} undos followed by the twin, {stats.unseen} of lines whose "
        f"reveals were not yet shown (11.4.1); "
        f"{dict(stats.undone.most_common())}; {time.perf_counter() - started:.1f} s"
    )
    started = time.perf_counter()
    kinds: Counter[str] = Counter()
    refusals = chains = under = 0
    screen_games = max(1, games // 50)
    for n in range(screen_games):
        seed, players, keypads, bots = GAMES[n % len(GAMES)]
        table = play_with_undos(seed + 1000 + n, players, keypads, bots, rate=0.15)
        kinds.update(table.undone)
        refusals, chains, under = refusals + table.refusals, chains + table.chains, under + table.under_notices
    print(
        f"undo, screen: {screen_games} games by buttons, {sum(kinds.values())} undos read off the screen and followed "
        f"({chains} with computer players' decisions, {under} while the line's notice was up), {refusals} refused "
        f"naming only what was shown (11.4); {dict(kinds.most_common())}; {time.perf_counter() - started:.1f} s"
    )
    figures.report(
        "undos followed by the table twin: engine / whole games by buttons, read off the screen",
        f"{stats.undos:,} undos in {stats.games:,} games, every kind of line taken back while its own notice is up "
        f"({stats.unseen:,} of lines whose reveals were still unseen) / {sum(kinds.values()):,} in {screen_games} "
        f"games ({chains:,} with computer players' decisions, {under:,} while the line's notice was up), every one "
        f"back at the snapshot before the line; {refusals:,} refused, each naming only what the table had seen (11.4)",
        "all",
    )
