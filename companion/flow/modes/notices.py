"""Notices to read (a count, what to do on the board, a year's end): the table's pace, not the host's.

Each player whose pieces a notice moves confirms it with ok on their own pad or phone once done ("done"); a computer
player's pieces are moved and confirmed by anyone (``narration.ANYONE``); the notice goes when all have and each of
its parts has been on the screen: confirmed on its first part, it stays until the page timer has shown the rest, each
part its whole time, and goes on the tick after its last (docs/architecture.md, "No line leaves unseen"); a notice in
parts goes on that tick even when its last "done" comes on its last part, so no part leaves before it was up its
time. A notice that moves no piece waits for nobody (``Notice.by_itself``). The host's
ok still clears the top one whoever is left, and is the only key for a notice no player owns (the reminder, an undo's
refusal, "Not saved"). The host's ok first shows the next part not up yet of a notice too long for the display
(``paging.py``).

A player's ok is never swallowed and always means "done" for them: with ballots on keypads, an ok with a ballot
keyed in also locks it in (a round's reveal is read while the next round is keyed in).
"""

from __future__ import annotations

from display.screen import Screen

from ...i18n import _
from ..context import Binding, Context
from ..first_year import reminder_pages
from ..narration import ANYONE
from ..seats import Seat
from ..views import notice_view
from .game_mode import GameMode
from .keypad_ballot import key_ballot


def waited_as(ctx: Context, seat: Seat) -> str | None:
    """Whom ``seat``'s ok confirms the top notice for: their own pieces if they are waited for, else a computer's;
    None if the notice waits for nothing of theirs (the ok then means something else, or nothing)."""
    waiting = ctx.between.notices[0].waiting
    colour = ctx.players[seat]
    return colour if colour in waiting else ANYONE if ANYONE in waiting else None


def keys_ballot(ctx: Context, seat: Seat, key: str) -> bool:
    """Whether ``seat``'s key goes to the ballot they are keying under the notice: any key but ok, and ok with
    something keyed (it locks it in); an ok with nothing keyed confirms."""
    state = ctx.state
    keypads = state is not None and state.phase == "ballot" and ctx.seats.entry == "keypads"
    return keypads and (key != "ok" or ctx.between.keying.has_keyed(seat))


def all_shown(ctx: Context) -> bool:
    """Whether every part of the top notice has been on the screen; with no display size nothing is cut. The part
    shown now counts, on top, though a tick turned to it after the screen was last composed (a script's table)."""
    if ctx.parts.size is None:
        return True
    notice = ctx.between.notices[0]
    now = {ctx.parts.index} if ctx.between.top_overlay() is None else set()
    return all(k in notice.parts_shown or k in now for k in range(notice.parts))


def the_rest(ctx: Context) -> None:
    """After the short reminder, the rest of the introduction."""
    ctx.between.after_top(reminder_pages(ctx.players, ctx.seats.entry)[1:])


class NoticesMode(GameMode):
    beneath = True  # confirmed on the pad itself

    def ok_reads_on(self, ctx: Context) -> bool:
        return True

    def host_bindings(self, ctx: Context) -> tuple[Binding, ...]:
        """The host's ok goes on, after it has shown a part of the notice not up yet (the parts turn by themselves
        too: a host who waits presses once). A player's ok on their own pad always means "done" for them, never a
        part (tests/flow/test_evening_small_german.py): the parts with lines still to confirm come up by themselves
        (``Parts.show``)."""
        notice = ctx.between.notices[0]
        go_on = Binding("ok", self.stay(lambda ctx: ctx.dismiss_notice()), _("go on"), turn="unseen")
        if notice.tag != "reminder" or notice.page is not None:
            return (go_on,)
        return (go_on, Binding("right", self.stay(the_rest), _("the other introduction pages")))

    def pad(self, ctx: Context, seat: Seat, key: str) -> None:
        """A player's ok is their "done" whatever they have keyed (rules.md 11: confirming only with nothing keyed
        told the shared screen whether they had keyed anything); with a ballot keyed it also goes to the ballot
        (locked in if whole, else the pad's own beep)."""
        keyed = keys_ballot(ctx, seat, key)
        who = waited_as(ctx, seat) if key == "ok" else None
        if who is not None:
            notice = ctx.between.confirm_top(who)
            if not notice.waiting and notice.parts == 1 and all_shown(ctx):  # else on the timer's tick (routing.py)
                ctx.dismiss_notice()
        keypads = ctx.state is not None and ctx.state.phase == "ballot" and ctx.seats.entry == "keypads"
        if keyed or (who is None and keypads):
            key_ballot(ctx, seat, key)  # ok with nothing keyed and nothing to confirm: the keypad's own answer

    def view(self, ctx: Context) -> Screen:
        return notice_view(ctx.between.notices[0], ctx.seats.computer_colours)
