"""Host presses per whole scripted game, by display size: ``python3 dev.py bench presses [N]``.

N whole games (default 10, seeds 0 to N-1) of three keypad players and a computer player, played by key presses only
(tests/scripted_table.py: the same seed is the same game at every size and before and after main d62f8cd), then the
standings and the chart paged as the documented new-group script does. Counted: the host's presses (setup, the
reminder, what only the host may confirm) and the players' own presses (ballots, decisions, "done" on their pads),
against the figures measured on main d62f8cd, when every notice waited for the host's ok. The check that the games
are the ones measured then: each record's hash.

Then the same games at the default display in English and at 160x128 in German (the goal: the same presses a
game-year within 10%, as parts turn by themselves): host and players' presses a game-year, and how many times a part
turned by itself (the page timer's ticks the table waited for), against main d038a94, where a player's ok turned a
notice's parts. Last, the timed German evenings of tests/flow/test_part_times.py: every part's time on screen, the
parts under page_seconds, the lines dismissed unseen and the presses a game-year, the players' "done" before a
notice that moves no piece went by itself.
"""

from __future__ import annotations

import statistics

from benchmarks import figures
from companion.i18n import set_language
from tests.scripted_table import BEFORE, PAD_BEFORE, RECORDS, game, record_hash

TABLES = (("en", (320, 240)), ("de", (160, 128)))
# Measured on main d038a94, before the page timer, with these games (seeds 0-9, 79 game-years): host and players'
# presses a game-year; a player's ok then turned a notice's parts (so: paged by ok).
OK_PAGED = {"en": (1.39, 106.2), "de": (2.66, 151.3)}


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
            "the same games on main d62f8cd and now, by their records)",
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
    by_language(games)
    timed_evenings()


def timed_evenings() -> None:
    """The German evening at 160x128 through the App on a fake clock (tests/flow/test_part_times.py): every part's
    time on screen, the parts under page_seconds, the lines dismissed unseen, the presses a game-year."""
    import tempfile
    from pathlib import Path

    from tests.flow.test_part_times import DONE_BEFORE, evening, report

    for seed in DONE_BEFORE:
        with tempfile.TemporaryDirectory() as folder:
            try:
                table = evening(Path(folder), seed)
            finally:
                set_language("en")
        print(f"timed German evening at 160x128, {report(table, seed)}; done a game-year before {DONE_BEFORE[seed]}")


def by_language(games: int) -> None:
    """Presses a game-year at 320x240 in English and at 160x128 in German, the same games."""
    rows = {}
    for language, size in TABLES:
        set_language(language)
        try:
            tables = [game(seed, size) for seed in range(games)]
        finally:
            set_language("en")
        years = sum(table.controller.state.year for table in tables if table.controller.state is not None)
        host = sum(sum(table.host_presses.values()) for table in tables) / years
        pads = sum(table.pad_presses for table in tables) / years
        ticks = sum(table.ticks for table in tables) / years
        rows[language] = (host, pads, ticks, size)
    (en_host, en_pads, _t, _s), (de_host, de_pads, _t2, _s2) = rows["en"], rows["de"]
    for language, (host, pads, ticks, size) in rows.items():
        was_host, was_pads = OK_PAGED[language]
        print(
            f"presses a game-year, {language} at {size[0]}x{size[1]}: host {was_host:.2f} -> {host:.2f}, players "
            f"{was_pads:.1f} -> {pads:.1f}; parts turned by themselves {ticks:.1f} (seeds 0-{games - 1}, {years} years)"
        )
    figures.report(
        "presses a game-year, English at 320x240 / German at 160x128 (the same games; main d038a94 -> now): host; "
        "players",
        f"host {OK_PAGED['en'][0]:.2f} / {OK_PAGED['de'][0]:.2f} -> {en_host:.2f} / {de_host:.2f}; players "
        f"{OK_PAGED['en'][1]:.1f} / {OK_PAGED['de'][1]:.1f} -> {en_pads:.1f} / {de_pads:.1f} (seeds 0-{games - 1})",
        "the same within 10%",
    )
