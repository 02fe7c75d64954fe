"""Computer seats in the game flow: when one may decide, what it may see, and taking its answer.

A computer player locks in its ballot any time in the ballot phase (it is secret), and in an election acts only when
it is its turn and the table has done what the notices asked: the count it acts on does not wait for anyone (it is
*passive*), and its move joins that count's notice, so the table reads both and confirms them with one ok. Its view
is built from what its seat may know (``companion.bots.make_view``); an answer to a moment that has passed is dropped.
"""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from typing import TYPE_CHECKING, Any

from ..engine import Decision, State
from ..i18n import _
from .between import Between
from .context import stage_of
from .modes.undo_confirm import asks_undo
from .narration import ANYONE, Notice
from .seats import Seat

if TYPE_CHECKING:
    from .context import Core


def make_bots(ctx: Core) -> dict[Seat, Any]:
    from ..bots import make_bot

    levels = ctx.seats.bot_levels
    return {
        Seat(seat): make_bot(levels[source], ctx.rng.randrange(1 << 30), ctx.seats.bot_work)
        for seat, (source, _colour) in enumerate(ctx.seats.joined)
        if source in levels
    }


def pending_bot(ctx: Core) -> Seat | None:
    state = ctx.game.state
    if (
        stage_of(ctx.game.state, ctx.between.notices) != "game"
        or state is None
        or not ctx.bots
        or asks_undo(ctx.between.overlays)
    ):
        return None
    awaited = [Seat(a.player) for a in state.awaiting() if a.player in ctx.bots]
    if not awaited:
        return None
    if state.phase == "ballot":
        return awaited[0]
    if any(not n.passive for n in ctx.between.notices) or state.awaiting()[0].player != awaited[0]:
        return None
    return awaited[0]


def under_its_count(queue: Between[Any], notices: list[Notice]) -> list[Notice]:
    """A computer player's move joins the passive count it acted on: one notice, the count then "On the board:"
    and its sentences, confirmed by whoever moves the pieces. What is left of ``notices`` follows it."""
    if not notices or notices[0].reveals or not queue.join_count(notices[0], _("On the board:")):
        return notices
    return notices[1:]


def settle_passive(queue: Between[Any], state: State | None, bots: Container[int], colours: Sequence[str]) -> None:
    """A passive count whose computer player is no longer the one to act (it decided with nothing to move, or the
    host undid) waits for whoever acts now, as any count does."""
    awaited = state.awaiting() if state is not None and state.phase == "election" else ()
    if awaited and awaited[0].player in bots:
        return
    queue.wait_for((colours[awaited[0].player],) if awaited else (ANYONE,))


def bot_view(ctx: Core, seat: Seat, rng: random.Random) -> Any:
    from ..bots import make_view

    assert ctx.game.state is not None
    return make_view(ctx.game.state, seat, rng, ctx.bots[seat].samples)


def takes_answer(ctx: Core, seat: Seat, decision: Decision, token: int) -> bool:
    """Whether an answer still fits: nothing changed since it was asked (``token``: the record's length then), and
    nobody is being asked whether to undo (an ok would then take back the computer's move instead)."""
    state = ctx.game.state
    return (
        state is not None
        and not asks_undo(ctx.between.overlays)
        and token == len(ctx.game.record)
        and decision in state.legal(seat)
    )
