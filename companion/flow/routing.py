"""Which mode a key goes to, by the modes' bindings (docs/architecture.md, "A press"): the host's held back asks to
undo; the host's keys go to the overlay on top (help, the board check, a question) or else to the game's own mode;
a player's keys go there too, and under an overlay that binds no key of theirs they fall through to the game's mode
where its binding says ``beneath`` (a keypad ballot, a notice's "done": never swallowed); the year so far binds its
opener's keys and closes on them. Only the host answers the host's questions (the start-up question
included: a player's ok after a power cut is their own "done": tests/flow/test_evening_small_german.py). A key that
turns a part of a long screen does only that (paging.py); the mode's answer opens or closes an overlay. Some seconds
passing turns the parts of a screen whose keys never do (:func:`turn_by_itself`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hardware.events import InputEvent

from .context import Binding, Context
from .modes import NOTICES, Mode, UndoConfirm
from .modes.notices import all_shown
from .narration import Notice
from .seats import Seat, Source
from .undo_chain import undo_chain
from .undo_text import refusal_notice

if TYPE_CHECKING:
    from .desk import Desk


def route(ctx: Desk, event: InputEvent) -> None:
    top = ctx.between.top_overlay()
    if event.source == "host" and event.kind == "hold" and not (top is not None and top.holds_back):
        if event.key == "back" and ctx.stage == "game" and not ctx.confirm_undo:
            ask_undo(ctx)
        return
    seat = None if event.source == "host" else ctx.seats.seat_of(Source(event.source))
    if event.source != "host" and ctx.stage != "setup" and (seat is None or seat in ctx.bots):
        return  # a pad nobody sits at, or a computer player's seat
    mode = top or ctx.mode()
    if (binding := binding_of(mode, ctx, event)) is not None:
        press(ctx, mode, event, seat, binding)
    elif top is not None and event.source != "host":
        beneath = binding_of(ctx.mode(), ctx, event)
        if beneath is not None and beneath.beneath:
            beneath.does(ctx, event, seat)  # keyed, and confirmed, on the pad itself: never swallowed


def press(ctx: Desk, top: Mode, event: InputEvent, seat: Seat | None, binding: Binding) -> None:
    """The key to the mode on top: its binding turns a part of what is shown, or does what it does."""
    if binding.turn is not None:
        ctx.screen()  # the parts of what is shown now
        if ctx.parts.turn(binding.turn):
            return
    after = binding.does(ctx, event, seat)
    if after is None:
        ctx.between.close_top()
    elif after is not top:
        ctx.between.open(after)


def binding_of(mode: Mode, ctx: Context, event: InputEvent) -> Binding | None:
    """The first of the mode's bindings that takes the key, if one does."""
    return next((binding for binding in mode.bindings(ctx) if binding.takes(event)), None)


def turn_by_itself(ctx: Desk) -> bool:
    """Some seconds passed: a screen in parts shows its next part, from the last back to the first, where no key
    needs to: a notice and setup (a player's ok is "done" or their seat; a host who waits for every part to be up
    presses ok once), a question or the rule help (ok answers on every part). A notice everyone has confirmed, or
    one that moves no piece (``by_itself``), waits only for its parts: the next one not up yet, and once the last
    has been up its time the notice goes. True if it
    went (the game goes on: the controller settles what comes next)."""
    top = ctx.top()
    notice = ctx.between.notices[0] if top is NOTICES else None
    if notice is not None and goes_on_a_tick(notice):
        if all_shown(ctx):
            ctx.dismiss_notice()
            return True
        ctx.parts.turn("unseen")
    elif top.reads_whole or top.turns_by_itself or top is NOTICES:
        ctx.screen()  # the parts of what is shown now
        ctx.parts.turn("confirm" if top is NOTICES else "cycle")
    return False


def goes_on_a_tick(notice: Notice) -> bool:
    """Whether a notice waits only for its parts: everyone it waited for has said done, or it moves no piece."""
    if notice.by_itself:
        return not notice.passive
    return bool(notice.owners) and not notice.waiting


def ask_undo(ctx: Desk) -> None:
    """The host's held back: the undo question, or why nothing can be undone (rules.md 11.4)."""
    chain = undo_chain(ctx)
    if isinstance(chain, str):
        ctx.between.tell(refusal_notice(chain))
    else:
        ctx.between.open(UndoConfirm(chain))
