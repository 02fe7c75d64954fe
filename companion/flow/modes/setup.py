"""Setup (rules.md 2.3): pads join and pick colours; the host adds computer players, picks the ballot entry and the
language, and starts."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..views import setup_view
from .base import Mode
from .notices import showing_notice

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
        elif event.key == "ok" and not (ctx.screen() and ctx.parts.next()):  # in parts: each is seen before the start
            if seats.ready:
                ctx.start()
            else:
                ctx.parts.first()
        return self

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        seats = ctx.seats
        keys = [("ok", _("start"))] if seats.ready else []
        keys += [("left", _("language")), ("right", _("ballot entry"))]
        full = len(seats.joined) >= 4
        if not full or seats.bot_levels:
            keys.append(("back", _("no computers") if full else _("add a computer")))
        return tuple(keys)

    def view(self, ctx: Controller) -> Screen:
        return setup_view(ctx.seats)


COUNTER = re.compile(r" ?\(\d+/\d+\)")  # a page counter in a footer: "ok: go on (2/5)"

# Screens whose ok answers a question (start, undo, the next game, abandon, go on with a saved game): cut in parts on
# a small display, ok first shows the parts not yet seen, so nobody answers what they could not read.
ASKING = frozenset({"setup", "undo", "next-game", "abandon", "resume"})


def ok_shows_more(ctx: Controller, event: InputEvent) -> bool:
    """Turn to the next part of a question in parts, if the host's ok should do that rather than answer it."""
    if event.source != "host" or event.key != "ok":
        return False
    shown = ctx.screen()
    return shown.part is not None and bool(ASKING & set(shown.tags)) and ctx.parts.next()


def part_to_show(ctx: Controller, whole: Screen) -> Screen:
    """The part of the screen the display shows (flow/paging.py). Setup keeps its part when a setting changes; a
    notice's ok also shows its next part first (modes/notices.py). A screen in parts has one page counter, the
    part's: a reminder page's "(2/5)" leaves the footer (issue 34: "(1/5)" beside "2/2")."""
    setup = ctx.stage == "setup" and not ctx.overlays
    shown = more_to_read(ctx.parts.show(whole, keep=setup), showing_notice(ctx))
    if shown.part is not None and COUNTER.search(shown.footer):
        shown = replace(shown, footer=COUNTER.sub("", shown.footer))
    return shown


def more_to_read(screen: Screen, notice: bool = False) -> Screen:
    """A part of a question or a notice before its last says that ok shows the next part rather than answering or
    going on yet. A notice's page counter ("ok: go on (2/5)") waits for its last part: beside the part's own "1/3" it
    was a second counter (issue 23's read-through)."""
    if screen.part is None or screen.part[0] == screen.part[1] or not (notice or ASKING & set(screen.tags)):
        return screen
    keys = (("ok", _("more")), *((key, meaning) for key, meaning in screen.keys if key != "ok"))
    return replace(screen, footer=_("ok: more"), keys=keys)
