"""Host presses per whole scripted game, by display size (issue 34): ``python3 dev.py bench presses [N]``.

N whole games (default 10, seeds 0 to N-1) of three keypad players and a computer player, played by key presses only
(tests/scripted_table.py: the same seed is the same game at every size and before and after issue 34), then the
standings and the chart paged as the documented new-group script does. Counted: the host's presses (setup, the
reminder, what only the host may confirm) and the players' own presses (ballots, decisions, "done" on their pads),
against the figures measured before issue 34, when every notice waited for the host's ok. The check that the games
are the ones measured then: each record's hash.
"""

from __future__ import annotations

import hashlib
import statistics

from benchmarks import figures
from tests.scripted_table import ScriptedTable

# Measured before issue 34 (main at d62f8cd) with the same table: host presses a game for seeds 0-9, and the hash of
# each game's record (sha256 of its lines, first 16 hex digits).
BEFORE = {
    (320, 240): (253, 289, 302, 314, 394, 309, 274, 353, 282, 310),
    (160, 128): (378, 427, 447, 453, 573, 452, 397, 523, 413, 466),
}
PAD_BEFORE = (374, 419, 448, 457, 578, 454, 392, 515, 398, 456)  # the same at both sizes: no pad turned a part
RECORDS = (
    "cc0bd4a5f3b109d4", "335af073b4cf1e41", "f17c6535d715b2d8", "aa2d402798b4db0b", "87ed23f87fe73814",
    "fc65d11f37d7cb70", "263b816be7ab1e74", "2e2c3347eb683537", "941e8901076d7259", "a5655d9bdcab360a",
)  # fmt: skip


def game(seed: int, size: tuple[int, int]) -> ScriptedTable:
    table = ScriptedTable(seed, size)
    table.setup()
    table.play()
    table.ending()
    return table


def record_hash(table: ScriptedTable) -> str:
    return hashlib.sha256("\n".join(table.controller.record).encode()).hexdigest()[:16]


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
