"""A player's decision in an election (rules.md 10): a menu built only from the engine's legal choices, on the
acting player's pad; left/right move, ok picks, back goes up a level, a keypad's direct keys pick at once. The menu
is built when the game settles on a new awaited decision (``flow/settling.py``), never while a screen is drawn."""

from __future__ import annotations

from display.screen import Screen

from ..context import Context
from ..menus import Menu, navigate
from ..seats import Seat
from ..views import decision_view
from .game_mode import GameMode


class DecisionMode(GameMode):
    def pad(self, ctx: Context, seat: Seat, key: str) -> None:
        state = ctx.state
        assert state is not None
        awaited = state.awaiting()
        if not awaited or awaited[0].player != seat:
            return
        keying = ctx.between.keying
        if key == "back":
            keying.close_submenu()
            return
        picked = navigate(keying.menus[-1], key)
        if picked is None:
            return
        if isinstance(picked.value, Menu):
            keying.open_submenu(picked.value)
        else:
            ctx.decide(seat, picked.value)

    def view(self, ctx: Context) -> Screen:
        state = ctx.state
        assert state is not None
        awaited = state.awaiting()[0]
        seats = ctx.seats
        seat = Seat(awaited.player)
        computer = seats.is_bot(seats.source_of(seat))
        menus = ctx.between.keying.menus
        return decision_view(seats.colour_of(seat), awaited.decision, menus[-1], computer, len(menus) > 1)
