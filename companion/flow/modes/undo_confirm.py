"""Undo (rules.md 11.4): after a held host back, ok takes back the last decision; any other host key keeps it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..undo_text import undo_question
from ..views import undo_view
from .base import Mode

if TYPE_CHECKING:
    from ..controller import Controller


def undo_key(ctx: Controller) -> tuple[tuple[str, str], ...]:
    """The host's held back asks to undo on any screen of a game (``Controller.handle``), when there is something
    that may be undone: said with the keys of whatever screen is on top."""
    if ctx.stage == "game" and not ctx.confirm_undo and ctx.game.undo_blocker() is None:
        return (("hold:back", _("undo")),)
    return ()


class UndoConfirm(Mode):
    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.key == "ok":
            ctx.undo()
        return None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("undo")), ("left", _("keep")), ("right", _("keep")), ("back", _("keep")))

    def view(self, ctx: Controller) -> Screen:
        undone = ctx.game.last_decision()
        return undo_view(undo_question(undone, ctx.players), bool(undone.changes))
