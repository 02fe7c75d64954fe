"""Rule help: the host's left shows the rule behind the screen underneath; any host key goes back."""

from __future__ import annotations

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Context
from ..seats import Seat
from ..views import help_view
from .base import Mode


class Help(Mode):
    def handle(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        return None

    def keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        return (("any", _("close")),)

    def view(self, ctx: Context) -> Screen:
        return help_view(ctx.mode().view(ctx).rule)
