"""Setup (rules.md 2.3): pads join and pick colours; the host adds computer players, picks the ballot entry and the
language, and starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.pages import paginate
from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..views import keep_names_together, setup_view
from .base import Mode

if TYPE_CHECKING:
    from ..controller import Controller


class SetupMode(Mode):
    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        seats = ctx.seats
        if event.source != "host":
            seats.pad_key(event.source, event.key)
        elif event.key == "back":
            seats.add_or_clear_bots()
        elif event.key == "right":
            seats.next_entry()
        elif event.key == "left":
            seats.next_language()
        elif event.key == "ok" and ctx.parts.next():
            pass  # a setup too long for the display (160x128): its next part first, so none goes unseen (paging.py)
        elif event.key == "ok" and seats.ready:
            ctx.start()
        elif event.key == "ok":
            while ctx.parts.back():  # not ready: back to the first part
                pass
        return self

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        seats = ctx.seats
        keys = [("ok", _("start"))] if seats.ready else []
        if _more(ctx):
            keys = [("ok", _("next page"))]
        keys += [("left", _("language")), ("right", _("ballot entry"))]
        full = len(seats.joined) >= 4
        if not full or seats.bot_levels:
            keys.append(("back", _("no computers") if full else _("add a computer")))
        return tuple(keys)

    def view(self, ctx: Controller) -> Screen:
        return setup_view(ctx.seats)


def _more(ctx: Controller) -> bool:
    """Whether a part of the setup follows the one shown (the keys are told before the screen is cut in parts)."""
    parts = ctx.parts
    if parts.size is None:
        return False
    return parts.index + 1 < len(paginate(keep_names_together(setup_view(ctx.seats)), parts.size, parts.text_size))
