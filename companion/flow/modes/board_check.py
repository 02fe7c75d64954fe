"""The board check: the host's back shows the board as the game has it, page by page, to compare with the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...engine import snapshot
from ...i18n import _
from ..views import board_view
from .base import Mode
from .evening import abandon, abandon_view

if TYPE_CHECKING:
    from ..controller import Controller

PAGES = 5  # the map, districts, advisors, supplies, voting order
END = PAGES  # then the pages the App adds (ctx.additions.pages), then, during a game, the way out of it


class BoardCheck(Mode):
    """The board pages; right from the last one (in a game) shows the way out of it: a held back there gives the game
    up (modes/evening.py). Left from the map wraps to the voting order, so the way out is never one stray key away."""

    def __init__(self) -> None:
        self.page = 0
        self.end = END

    @property
    def holds_back(self) -> bool:  # type: ignore[override]
        return self.page == self.end

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        self.end = END + len(ctx.additions.pages)
        pages = self.end + (ctx.stage == "game")
        if event.kind == "hold" and self.page == self.end:
            abandon(ctx)
            return self  # the overlays are gone with the game
        if event.key == "right":
            if not ctx.parts.next():  # a page too long for the display: its next part first (paging.py)
                self.page = (self.page + 1) % pages
        elif event.key == "left":
            if not ctx.parts.back():
                self.page = self.page - 1 if self.page > 0 else PAGES - 1
        else:
            return None
        return self

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        if self.page == self.end:
            return (("hold:back", _("abandon the game")), ("back", _("close")), ("left", _("previous page")))
        return (("ok", _("close")), ("left", _("previous page")), ("right", _("next page")), ("back", _("close")))

    def view(self, ctx: Controller) -> Screen:
        assert ctx.state is not None
        if self.page == self.end:
            return abandon_view(ctx)
        if self.page >= PAGES:
            return ctx.additions.pages[self.page - PAGES](ctx)
        return board_view(snapshot(ctx.state), self.page)
