"""The board check: the host's back shows the board as the game has it, page by page, to compare with the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...engine import snapshot
from ...i18n import _
from ..views import board_view
from .base import Mode
from .evening import AbandonConfirm

if TYPE_CHECKING:
    from ..controller import Controller

PAGES = 5  # the map, districts, advisors, supplies, voting order


class BoardCheck(Mode):
    def __init__(self) -> None:
        self.page = 0

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.key == "right":
            if not ctx.parts.next():  # a page too long for the display: its next part first (paging.py)
                self.page = (self.page + 1) % PAGES
        elif event.key == "left":
            if not ctx.parts.back():
                self.page = (self.page - 1) % PAGES
        elif event.key == "ok" and event.source == "host" and ctx.stage == "game":
            return AbandonConfirm()  # the way out of a game: only a held back on the next page gives it up
        else:
            return None
        return self

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        end = (("ok", _("end the game...")),) if ctx.stage == "game" else (("ok", _("close")),)
        return (*end, ("left", _("previous page")), ("right", _("next page")), ("back", _("close")))

    def view(self, ctx: Controller) -> Screen:
        assert ctx.state is not None
        return board_view(snapshot(ctx.state), self.page)
