"""Rule help: the host's left shows the rule behind the screen underneath; any host key goes back."""

from __future__ import annotations

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Context, Mode
from ..seats import Seat
from ..views import help_view


class Help(Mode):
    """In small type on one screen where that fits; else its parts turn by themselves, and any key still closes it
    on every part (with part 2 behind a key that closed it, it could never be read)."""

    paging = "help"

    def handle(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        return None

    def keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        return (("any", _("close")),)

    def view(self, ctx: Context) -> Screen:
        return help_view(ctx.mode().view(ctx).rule)
