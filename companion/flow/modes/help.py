"""Rule help: the host's left shows the rule behind the screen underneath; any host key goes back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..views import help_view
from .base import Mode

if TYPE_CHECKING:
    from ..controller import Controller


class Help(Mode):
    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        return None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("any", _("close")),)

    def view(self, ctx: Controller) -> Screen:
        return help_view(ctx.mode().view(ctx).rule)
