"""What the table has been shown (rules.md 11.4.1): a decision may be taken back while nothing it made public has
reached a screen.

What one record line made public (a round's ballots, a count, a turned card) rides on the notices that tell it,
queued behind the line's own board notice (``narration.py``). A notice is *seen* once it is the top one: the LCD
shows it, and the phones and the table view show the top notice whatever overlay the LCD has open, so that is the
earliest moment anyone could have read it. Until then the engine knows the fact but nobody at the table does, and
every other way out shows the state as it was before it: the board check, the year so far, the phones and the
table view read :func:`shown_snapshot`, ``run --record`` and ``export`` stop at :func:`public_length`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine import snapshot
from ..engine.undo import Revealed
from .game import Step
from .narration import Notice

if TYPE_CHECKING:
    from .context import Context


def note_shown(notices: Sequence[Notice]) -> None:
    """The top notice is on every screen now."""
    if notices:
        notices[0].seen = True


def unseen(notices: Sequence[Notice]) -> set[tuple[int, Revealed]]:
    """What pending notices will make public, and from which line, that no screen has shown yet."""
    return {(n.line, r) for n in notices if not n.seen and n.line is not None for r in n.reveals}


def shown_of(step: Step, notices: Sequence[Notice]) -> list[Revealed]:
    """What of ``step``'s reveals the table has been shown (a notice once read is gone, so shown unless pending)."""
    hidden = unseen(notices)
    return [r for r in step.reveals if (step.length, r) not in hidden]


def hidden_steps(ctx: Context) -> list[tuple[Step, list[Revealed]]]:
    """The recent steps with something made public that no screen has shown yet, each with what (newest first)."""
    hidden = unseen(ctx.round.notices)
    found = []
    for step in reversed(ctx.history):
        items = [r for r in step.reveals if (step.length, r) in hidden]
        if items:
            found.append((step, items))
        elif step.reveals:
            break  # everything before a line whose reveals were shown has been shown
    return found


def open_step(ctx: Context) -> Step | None:
    """The last decision, if it made something public and none of it has been shown: it may still be taken back,
    so no shuffle is drawn after it yet (a chance line is never drawn for a decision that may vanish)."""
    if not ctx.history:
        return None
    step = ctx.history[-1]
    return step if step.reveals and not shown_of(step, ctx.round.notices) else None


def shown_snapshot(ctx: Context) -> dict[str, Any]:
    """The public snapshot (record-format.md 2) as the table has been shown it. While a line's reveals are still to
    come, the board is as its own part left it (on the screen), but where the year stands is as it was before the
    line: the voting order and the cards turned, the area being elected, the markers lying on the areas and in
    hand, the phase, the round and the year, nobody awaited. What the rules did after the decision (the next count,
    an area nobody voted in, a turned card, a round revealed, the year's end) shows nowhere before its notice."""
    state = ctx.state
    assert state is not None
    snap = snapshot(state)
    pending = hidden_steps(ctx)
    if not pending:
        return snap
    oldest, _items = pending[-1]
    before = snapshot(oldest.before)
    shown = copy.deepcopy(snap)
    for key in ("year", "phase", "round", "area", "order", "stacks", "winners"):
        shown[key] = before[key]
    for player, supply in before["players"].items():
        shown["players"][player]["markers"] = supply["markers"]
    shown["awaiting"] = []
    return shown


def public_length(screen: dict[str, Any], length: int) -> int:
    """How many of a stored game's ``length`` lines may leave the device (``export``, ``run --record``): all but
    those from the first line with something made public that its saved screen (:func:`.notice_store.screen_state`)
    says no screen has shown yet."""
    try:
        pending = [
            n["line"] for n in screen.get("notices", []) if n.get("reveals") and not n.get("seen") and "line" in n
        ]
        return min([length, *(line for line in pending if isinstance(line, int))])
    except (AttributeError, TypeError):  # a damaged screen row (restore_screen shows none of it): as an older save's
        return length
