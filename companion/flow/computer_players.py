"""Computer seats in the game flow: when one may decide, what it may see, and taking its answer.

A computer player locks in its ballot any time in the ballot phase (it is secret), and in an election acts only when
it is its turn and the humans have read what happened. Its view is built from what its seat may know
(``companion.bots.make_view``); an answer to a moment that has passed is dropped.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..engine import Decision

if TYPE_CHECKING:
    from .controller import Controller


def make_bots(ctx: Controller) -> dict[int, Any]:
    from ..bots import make_bot

    levels = ctx.seats.bot_levels
    return {
        seat: make_bot(levels[pad], ctx.rng.randrange(1 << 30), ctx.seats.bot_work)
        for seat, (pad, _colour) in enumerate(ctx.seats.joined)
        if pad in levels
    }


def pending_bot(ctx: Controller) -> int | None:
    state = ctx.state
    if ctx.stage != "game" or state is None or not ctx.bots or ctx.confirm_undo:
        return None
    awaited = [a.player for a in state.awaiting() if a.player in ctx.bots]
    if not awaited:
        return None
    if state.phase == "ballot":
        return awaited[0]
    if ctx.notices or state.awaiting()[0].player != awaited[0]:
        return None
    return awaited[0]


def bot_view(ctx: Controller, seat: int, rng: random.Random) -> Any:
    from ..bots import make_view

    assert ctx.state is not None
    return make_view(ctx.state, seat, rng, ctx.bots[seat].samples)


def takes_answer(ctx: Controller, seat: int, decision: Decision, token: int) -> bool:
    """Whether an answer still fits: nothing changed since it was asked (``token``: the record's length then), and
    nobody is being asked whether to undo (an ok would then take back the computer's move instead)."""
    state = ctx.state
    return state is not None and not ctx.confirm_undo and token == len(ctx.record) and decision in state.legal(seat)
