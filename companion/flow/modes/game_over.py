"""The end (RULES.md 9.4): the winners, the tie-break explained, the victory condition each met, the chart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen

from ...engine import State
from ...i18n import _
from ..views import final_view
from .base import GameMode

if TYPE_CHECKING:
    from ..controller import Controller


def tie_break_text(state: State) -> str:
    meeting = [s for s in range(state.n) if state.victory_conditions(s)]
    if len(meeting) == 1:
        return _("The only player to meet a victory condition.")
    palaces = {s: sum(owners.count(s) for owners in state.palaces) for s in meeting}
    best = max(palaces.values())
    if sum(1 for v in palaces.values() if v == best) == 1:
        return _("{n} qualify; most palaces decides ({best}).").format(n=len(meeting), best=best)
    if len(state.winners) == 1:
        return _("Palaces tied at {best}; most houses on the board decides ({h}).").format(
            best=best, h=state.houses_on_board(state.winners[0])
        )
    return _("Tied on palaces and houses: a shared victory.")


class GameOverMode(GameMode):
    def view(self, ctx: Controller) -> Screen:
        state = ctx.state
        assert state is not None
        players = state.players
        chart = tuple((p, tuple(year[p] for year in ctx.palaces_by_year)) for p in players)
        conditions = {p: state.victory_conditions(seat) for seat, p in enumerate(players)}
        return final_view([players[s] for s in state.winners], tie_break_text(state), conditions, chart)
