"""Which decisions the host's undo takes back (rules.md 11.4.1, 11.4.2).

The last human decision, and with it every computer player's decision made after it, last first: a computer
player's decision alone is never offered, since it would make the same one again at once, and the slip the host
wants to reach is a person's. Each of them must still be open: nothing it made public has been shown (``shown.py``).
A shuffle is drawn only once the decision before it is final, so the chain never reaches across one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import _
from .game import NotSaved, Step
from .not_saved import not_saved_notice
from .undo_text import refusal, undo_notice

if TYPE_CHECKING:
    from .context import Context, Core


def undo_open(ctx: Context) -> bool:
    """Whether there is a decision the host may take back now."""
    chain, _stopped, _shown = ctx.seen.open_chain
    return bool(chain) and chain[-1].seat not in ctx.bots


def undo_chain(ctx: Context) -> list[Step] | str:
    """The steps an undo would take back, newest first and the human's last, or why there are none (for the
    screen: nothing to undo, or what of a decision has been shown, and whose)."""
    chain, stopped, shown = ctx.seen.open_chain
    if stopped is not None:
        return refusal(ctx.players[stopped.seat], shown)
    if chain and chain[-1].seat not in ctx.bots:
        return chain
    if chain:
        return _("Nothing to undo: a computer player's decision is never taken back alone.")
    return _("Nothing to undo.")


def undo_blocker(ctx: Context) -> str | None:
    chain = undo_chain(ctx)
    return chain if isinstance(chain, str) else None


def take_back(ctx: Core) -> bool:
    """Undo the chain (saved first: False, and nothing changed, if the store refused or 11.4 forbids it). The
    table then puts the board back; notices about lines still in the game stay (a round's reveal read while the
    next round is keyed in), those about lines taken back go with them."""
    chain = undo_chain(ctx)
    if isinstance(chain, str):
        return False
    target = chain[-1]
    try:
        ctx.game.undo(target)
    except NotSaved as error:
        ctx.between.tell(not_saved_notice(error))
        return False
    notices = ctx.between.notices
    read = not any(n.line == chain[0].length and not n.reveals for n in notices)  # its own notice was gone
    kept = [
        n for n in notices
        if (n.line is None and n.tag not in ("undo", "error")) or (n.line is not None and n.line < target.length)
    ]  # fmt: skip
    notice = undo_notice([step.undone for step in chain], ctx.seats.colours, ctx.seats.computer_colours, read)
    ctx.between.keep_notices(kept + ([notice] if notice is not None else []))
    return True
