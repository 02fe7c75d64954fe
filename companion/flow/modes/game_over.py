"""The end (rules.md 9.4): the winners and the tie-break explained; host right pages on to the standings (rank,
palaces, districts, houses, the victory condition each met) and the palace chart."""

from __future__ import annotations

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Binding, Context, Mode, close
from ..ending import ending_pages
from ..seats import Seat
from .evening import NextGame
from .game_mode import GameMode


def _pages(ctx: Context) -> list[Screen]:
    assert ctx.state is not None
    return ending_pages(ctx.state, ctx.palaces_by_year)


class GameOverMode(GameMode):
    def host_bindings(self, ctx: Context) -> tuple[Binding, ...]:
        """The game-over screen too long for the display: right and ok show its parts first (left is the rule
        help's, as on every game screen)."""
        return (
            Binding("ok", standings, _("standings, chart"), turn="next"),
            Binding("right", standings, _("standings, chart"), turn="next"),
            Binding("back", next_game, _("next game")),
        )

    def view(self, ctx: Context) -> Screen:
        return _pages(ctx)[0]


def standings(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
    return EndingPages(1)


def next_game(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
    return NextGame()


class EndingPages(Mode):
    """The standings and the chart, on top of the game-over screen: host left/right pages, back closes."""

    def __init__(self, page: int) -> None:
        self.page = page

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        return (
            Binding("ok", self._next, _("next page"), turn="next"),
            Binding("left", self._previous, _("previous page"), turn="back"),
            Binding("right", self._next, _("next page"), turn="next"),
            Binding("back", close, _("close")),
        )

    def _next(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        self.page += 1
        return self if self.page < len(_pages(ctx)) else None

    def _previous(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        self.page -= 1
        return self if self.page > 0 else None

    def view(self, ctx: Context) -> Screen:
        return _pages(ctx)[self.page]
