"""Notices to read (a count, what to do on the board, a year's end): the host's ok clears the top one (or shows its
next part, if it is too long for the display: ``paging.py``).

Only the host's ok: a player's ok is their own (locking in a ballot, trying again after "Not saved") and must never
be swallowed by a notice. Keypad ballots go on underneath, since they are keyed on the players' own pads: a round's
reveal is read while the next round is keyed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen

from ...i18n import _
from ..views import notice_view
from .base import GameMode, Mode

if TYPE_CHECKING:
    from ..controller import Controller


class NoticesMode(GameMode):
    def host(self, ctx: Controller, key: str) -> Mode | None:
        if key == "ok" and not ctx.parts.next():  # a notice too long for the display: its next part first
            ctx.notices.pop(0)
        return self

    def host_keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("go on")),)

    def pad(self, ctx: Controller, seat: int, key: str) -> None:
        state = ctx.state
        if state is not None and state.phase == "ballot" and ctx.seats.entry == "keypads":
            from . import KEYPAD_BALLOT

            KEYPAD_BALLOT.pad(ctx, seat, key)

    def view(self, ctx: Controller) -> Screen:
        return notice_view(ctx.notices[0])


def showing_notice(ctx: Controller) -> bool:
    """Whether the screen is a notice, whose ok shows its next part before it goes on (the footer then says so:
    setup.py's ``more_to_read``)."""
    return not ctx.overlays and isinstance(ctx.mode(), NoticesMode)
