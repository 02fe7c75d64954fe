"""The end (rules.md 9.4): the winners and the tie-break explained; host right pages on to the standings (rank,
palaces, districts, houses, the victory condition each met) and the palace chart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..ending import ending_pages
from .base import GameMode, Mode
from .evening import NextGame

if TYPE_CHECKING:
    from ..controller import Controller


def _pages(ctx: Controller) -> list[Screen]:
    assert ctx.state is not None
    return ending_pages(ctx.state, ctx.palaces_by_year)


class GameOverMode(GameMode):
    def host(self, ctx: Controller, key: str) -> Mode | None:
        if key == "back":
            return NextGame()
        if (key in ("right", "ok") and ctx.parts.next()) or (key == "left" and ctx.parts.back()):
            return self  # the game-over screen too long for the display: its parts first (paging.py)
        return EndingPages(1) if key in ("right", "ok") else self

    def host_keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("standings, chart")), ("right", _("standings, chart")), ("back", _("next game")))

    def view(self, ctx: Controller) -> Screen:
        return _pages(ctx)[0]


class EndingPages(Mode):
    """The standings and the chart, on top of the game-over screen: host left/right pages, back closes."""

    def __init__(self, page: int) -> None:
        self.page = page

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.source != "host":
            return self
        # the standings too long for the display: their parts first (paging.py)
        if event.key in ("right", "ok") and not ctx.parts.next():
            self.page += 1
        elif event.key == "left" and not ctx.parts.back():
            self.page -= 1
        # back closes on every page, as its footer says (issue 34: on the chart it once asked about the next game)
        return self if event.key != "back" and 0 < self.page < len(_pages(ctx)) else None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("next page")), ("left", _("previous page")), ("right", _("next page")), ("back", _("close")))

    def view(self, ctx: Controller) -> Screen:
        return _pages(ctx)[self.page]
