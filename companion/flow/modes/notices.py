"""Notices to read (a count, what to do on the board, a year's end): the table's pace, not the host's.

Each player whose pieces a notice moves confirms it with ok on their own pad or phone once done ("done"); a computer
player's pieces are moved and confirmed by anyone (``narration.ANYONE``); the notice goes when all have. The host's
ok still clears the top one whoever is left, and is the only key for a notice no player owns (the reminder, an undo's
refusal, "Not saved"). An ok first shows the next part of a notice too long for the display (``paging.py``).

A player's ok is never swallowed: with ballots on keypads, an ok with a ballot keyed in locks it in (a round's
reveal is read while the next round is keyed in), and only an ok with nothing keyed confirms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen

from ...i18n import _
from ..first_year import reminder_pages
from ..narration import ANYONE
from ..views import notice_view
from .base import GameMode, Mode

if TYPE_CHECKING:
    from ..controller import Controller


def dismiss(ctx: Controller) -> None:
    """The top notice is done with: the table read the first year's reminder once its last page goes."""
    notice = ctx.notices.pop(0)
    if notice.tag == "reminder" and (notice.page is None or notice.page[0] == notice.page[1]):
        ctx.intro_read = True


def confirm(ctx: Controller, seat: int) -> bool:
    """``seat``'s ok on the top notice: their own pieces if they are waited for, else a computer's; False if the
    notice waits for nothing of theirs (the ok then means something else, or nothing)."""
    notice = ctx.notices[0]
    colour = ctx.players[seat]
    waiting = notice.waiting
    who = colour if colour in waiting else ANYONE if ANYONE in waiting else None
    if who is None:
        return False
    if not ctx.overlays and ctx.parts.next():  # a notice too long for the display: its next part first
        return True
    notice.confirmed.add(who)
    if not notice.waiting:
        dismiss(ctx)
    return True


class NoticesMode(GameMode):
    def host(self, ctx: Controller, key: str) -> Mode | None:
        notice = ctx.notices[0]
        if key == "ok" and not ctx.parts.next():  # a notice too long for the display: its next part first
            dismiss(ctx)
        elif key == "right" and notice.tag == "reminder" and notice.page is None:  # the short one: the rest again
            ctx.notices[1:1] = reminder_pages(ctx.players, ctx.seats.entry)[1:]
        return self

    def host_keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        notice = ctx.notices[0]
        more = (("right", _("the other introduction pages")),) if notice.tag == "reminder" and not notice.page else ()
        return (("ok", _("go on")), *more)

    def pad(self, ctx: Controller, seat: int, key: str) -> None:
        state = ctx.state
        keypads = state is not None and state.phase == "ballot" and ctx.seats.entry == "keypads"
        keyed = ctx.keypad.get(seat)
        if keypads and (key != "ok" or (keyed is not None and (keyed.area is not None or keyed.markers))):
            self._ballot(ctx, seat, key)
        elif key == "ok" and confirm(ctx, seat):
            return
        elif keypads:
            self._ballot(ctx, seat, key)  # ok with nothing keyed and nothing to confirm: the keypad's own answer

    def _ballot(self, ctx: Controller, seat: int, key: str) -> None:
        from . import KEYPAD_BALLOT

        KEYPAD_BALLOT.pad(ctx, seat, key)

    def view(self, ctx: Controller) -> Screen:
        return notice_view(ctx.notices[0], ctx.seats.computers)


def showing_notice(ctx: Controller) -> bool:
    """Whether the screen is a notice, whose ok shows its next part before it goes on (the footer then says so:
    setup.py's ``more_to_read``)."""
    return not ctx.overlays and isinstance(ctx.mode(), NoticesMode)
