"""Rule help: the host's left shows the rule behind the screen underneath; any host key goes back."""

from __future__ import annotations

from display.screen import Screen

from ...i18n import _
from ..context import Binding, Context, Mode, close
from ..views import help_view


class Help(Mode):
    """In small type on one screen where that fits; else its parts turn by themselves, and any key still closes it
    on every part (with part 2 behind a key that closed it, it could never be read)."""

    paging = "help"

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        return (Binding("any", close, _("close")),)

    def view(self, ctx: Context) -> Screen:
        return help_view(ctx.mode().view(ctx).rule)
