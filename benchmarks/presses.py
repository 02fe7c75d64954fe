"""Host presses per whole scripted game, by display size (issue 34): ``python3 dev.py bench presses [N]``.

N whole games (default 10, seeds 0 to N-1) of three keypad players and a computer player, played by key presses only
(tests/scripted_table.py: the same seed is the same game at every size and before and after issue 34), then the
standings and the chart paged as the documented new-group script does. Counted: the host's presses (setup, the
reminder, what only the host may confirm) and the players' own presses (ballots, decisions, "done" on their pads),
against the figures measured before issue 34, when every notice waited for the host's ok. The check that the games
are the ones measured then: each record's hash.
"""

from __future__ import annotations

import statistics

from benchmarks import figures
from tests.scripted_table import BEFORE, PAD_BEFORE, RECORDS, game, record_hash


def main(argv: list[str] | None = None) -> None:
    games = int(argv[0]) if argv else 10
    for size, before in BEFORE.items():
        host, pads, years, same = [], [], [], 0
        for seed in range(games):
            table = game(seed, size)
            host.append(sum(table.host_presses.values()))
            pads.append(table.pad_presses)
            state = table.controller.state
            assert state is not None
            years.append(state.year)
            same += seed < len(RECORDS) and record_hash(table) == RECORDS[seed]
        measured = min(games, len(before))
        was = statistics.mean(before[:measured])
        now = statistics.mean(host[:measured])
        figures.report(
            f"host presses per whole scripted game at {size[0]}x{size[1]} (three keypad players and a computer player, "
            "the same games before issue 34 and after, by their records)",
            f"{was:.1f} -> {now:.1f} over seeds 0-{measured - 1} ({was / statistics.mean(years[:measured]):.1f} -> "
            f"{now / statistics.mean(years[:measured]):.1f} a year); the players' own presses "
            f'{statistics.mean(PAD_BEFORE[:measured]):.1f} -> {statistics.mean(pads):.1f}, their "done" on their pads',
            "at most half",
        )
        print(
            f"presses, {size[0]}x{size[1]}: {was:.1f} -> {now:.1f} host presses a game "
            f"({was / statistics.mean(years[:measured]):.1f} -> {now / statistics.mean(years[:measured]):.1f} a year) "
            f"over seeds 0-{measured - 1}, the same games ({same} of {measured} records as before); "
            f"players' own presses {statistics.mean(PAD_BEFORE[:measured]):.1f} -> {statistics.mean(pads):.1f} a "
            f'game (with "done" on their pads)'
        )
