"""A player's decision in an election (rules.md 10): a menu built only from the engine's legal choices, on the
acting player's pad; left/right move, ok picks, back goes up a level, a keypad's direct keys pick at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen

from ...engine import State
from ..menus import Menu, advisor_menu, build_menu, houses_menu, move_menu, navigate
from ..views import decision_view
from .base import GameMode

if TYPE_CHECKING:
    from ..controller import Controller


def decision_menu(state: State) -> Menu:
    awaited = state.awaiting()[0]
    seat = awaited.player
    legal = state.legal(seat)
    if awaited.decision == "advisor":
        assert awaited.slot is not None
        return advisor_menu(state, seat, awaited.slot, legal)
    if awaited.decision == "houses":
        assert awaited.district is not None
        return houses_menu(legal, awaited.district, awaited.rule)
    if awaited.decision == "build":
        assert awaited.district is not None
        return build_menu(state, awaited.district, awaited.together)
    return move_menu(legal, awaited.rule)


def current_menus(ctx: Controller) -> list[Menu]:
    """The acting player's menu and the submenus they opened, rebuilt whenever the awaited decision changes."""
    state = ctx.state
    assert state is not None
    signature = (len(ctx.record), state.awaiting()[:1])
    if signature != ctx.menus_for:
        ctx.menus_for = signature
        ctx.menus = [decision_menu(state)]
    return ctx.menus


class DecisionMode(GameMode):
    def pad(self, ctx: Controller, seat: int, key: str) -> None:
        state = ctx.state
        assert state is not None
        awaited = state.awaiting()
        if not awaited or awaited[0].player != seat:
            return
        menus = current_menus(ctx)
        if key == "back":
            if len(menus) > 1:
                menus.pop()
            return
        picked = navigate(menus[-1], key)
        if picked is None:
            return
        if isinstance(picked.value, Menu):
            menus.append(picked.value)
        else:
            ctx.apply(seat, picked.value)

    def view(self, ctx: Controller) -> Screen:
        state = ctx.state
        assert state is not None
        awaited = state.awaiting()[0]
        computer = ctx.seats.is_bot(ctx.seats.source_of(awaited.player))
        menus = current_menus(ctx)
        player = ctx.seats.players[awaited.player]
        return decision_view(player, awaited.decision, menus[-1], computer, submenu=len(menus) > 1)
