"""The end of a game (rules.md 9.2 to 9.4) as pages: the winners, the standings, the palace chart, the board.

Everything here is public once the game is over: palaces, districts and houses are on the board, and the chart is
the palaces counted at each year's end. The same pages make the game-over screens and the summary picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from display.screen import Screen

from ..engine import State, snapshot
from ..i18n import _
from .board_text import player_name
from .views import board_view, chart_view, final_view, standings_view


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    palaces: int
    districts: int
    houses: int
    met: tuple[str, ...]


def standings(state: State) -> list[Standing]:
    """Everyone, best first: a victory condition met, then most palaces, then most houses on the board (9.4)."""
    rows = []
    for seat, player in enumerate(state.players):
        palaces = state.palaces_of(seat)
        districts = state.districts_of(seat)
        met = state.victory_conditions(seat)
        rows.append((bool(met), palaces, state.houses_on_board(seat), districts, player, met))
    rows.sort(key=lambda row: (not row[0], -row[1], -row[2]))
    result: list[Standing] = []
    for index, (qualifies, palaces, houses, districts, player, met) in enumerate(rows):
        previous = rows[index - 1] if index else None
        same = previous is not None and previous[:3] == (qualifies, palaces, houses)
        rank = result[-1].rank if same else index + 1
        result.append(Standing(rank, player, palaces, districts, houses, met))
    return result


def tie_break_text(state: State) -> str:
    """rules.md 9.4 as the engine's outcome decided it, said with its subject: who alone met a condition, or who had
    the most palaces or houses among those who did (the game-over screen names the winner's condition above it)."""
    outcome = state.outcome()
    assert outcome is not None, "the game is over"
    if outcome.decided_by == "shared":
        return _("Tied on palaces and houses: a shared victory.")
    name = player_name(state.players[state.winners[0]])
    if outcome.decided_by == "only":
        return _("{name} alone meets a victory condition.").format(name=name)
    if outcome.decided_by == "palaces":
        return _("{n} meet a victory condition; {name} has the most palaces ({best}).").format(
            n=len(outcome.qualified), name=name, best=outcome.palaces
        )
    return _("Palaces tied at {best}; {name} has the most houses on the board ({h}).").format(
        best=outcome.palaces, name=name, h=outcome.houses
    )


def chart_of(state: State, palaces_by_year: Sequence[dict[str, int]]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((p, tuple(year[p] for year in palaces_by_year)) for p in state.players)


def ending_pages(state: State, palaces_by_year: Sequence[dict[str, int]]) -> list[Screen]:
    """The game-over pages: the winners, the standings, the palace chart."""
    players = state.players
    conditions: dict[str, tuple[str, ...]] = {p: state.victory_conditions(seat) for seat, p in enumerate(players)}
    chart = chart_of(state, palaces_by_year)
    return [
        final_view([players[s] for s in state.winners], tie_break_text(state), conditions, chart),
        standings_view(_rows(state)),
        chart_view(chart),
    ]


def summary_pages(state: State, palaces_by_year: Sequence[dict[str, int]]) -> list[Screen]:
    """The summary picture's panels, each shown once: the result (winners, tie-break, standings), the board at the
    end as a map with its key, and the palace chart. No keys to press on paper: no footers of keys."""
    players = state.players
    chart = chart_of(state, palaces_by_year)
    final = final_view([players[s] for s in state.winners], tie_break_text(state), {}, ())
    table = standings_view(_rows(state))
    result = Screen(final.title, final.lines + table.lines, rule=final.rule, tags=("summary", "result"))
    board = board_view(snapshot(state), 0)  # its key above it
    return [result, replace(board, footer="", tags=("summary", "board")), replace(chart_view(chart), footer="")]


def _rows(state: State) -> list[tuple[int, str, int, int, int, tuple[str, ...]]]:
    return [(r.rank, r.player, r.palaces, r.districts, r.houses, r.met) for r in standings(state)]
