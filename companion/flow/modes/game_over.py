"""The end (rules.md 9.4): the winners and the tie-break explained; host right pages on to the standings (rank,
palaces, districts, houses, the victory condition each met) and the palace chart."""

from __future__ import annotations

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Context, Mode
from ..ending import ending_pages
from ..paging import Turn
from ..seats import Seat
from .evening import NextGame
from .game_mode import GameMode


def _pages(ctx: Context) -> list[Screen]:
    assert ctx.state is not None
    return ending_pages(ctx.state, ctx.palaces_by_year)


class GameOverMode(GameMode):
    def page_turn(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Turn | None:
        """The game-over screen too long for the display: right and ok show its parts first (left is the rule
        help's, as on every game screen)."""
        return "next" if event.source == "host" and event.key in ("right", "ok") else None

    def host(self, ctx: Context, key: str) -> Mode | None:
        if key == "back":
            return NextGame()
        return EndingPages(1) if key in ("right", "ok") else self

    def host_keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        return (("ok", _("standings, chart")), ("right", _("standings, chart")), ("back", _("next game")))

    def view(self, ctx: Context) -> Screen:
        return _pages(ctx)[0]


class EndingPages(Mode):
    """The standings and the chart, on top of the game-over screen: host left/right pages, back closes."""

    def __init__(self, page: int) -> None:
        self.page = page

    def page_turn(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Turn | None:
        if event.source != "host":
            return None
        return "next" if event.key in ("right", "ok") else "back" if event.key == "left" else None

    def handle(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        if event.source != "host":
            return self
        if event.key in ("right", "ok"):
            self.page += 1
        elif event.key == "left":
            self.page -= 1
        return self if event.key != "back" and 0 < self.page < len(_pages(ctx)) else None

    def keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        return (("ok", _("next page")), ("left", _("previous page")), ("right", _("next page")), ("back", _("close")))

    def view(self, ctx: Context) -> Screen:
        return _pages(ctx)[self.page]
