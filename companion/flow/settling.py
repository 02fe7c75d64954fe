"""What follows anything that changed the game, once the key or the computer's answer has done its part.

The top notice is now on every screen (``shown.py``); a count a computer player no longer acts on waits for whoever
does; and a shuffle the rules call for is drawn (rules.md 2.2, 5.3), but only once the decision before it is final
(11.4.1: what it made public has been shown), so a chance line is never drawn for a decision that may vanish and an
undo never reaches across one. The new year's order then joins the year's end on one notice.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TYPE_CHECKING, Any

from . import computer_players
from .between import Between
from .first_year import first_year_notices
from .game import NotSaved
from .modes import DECISION, PRIVATE_BALLOT, game_mode
from .narration import narrate
from .not_saved import not_saved_notice
from .notice_store import screen_state
from .shown import open_step

if TYPE_CHECKING:
    from ..engine import State
    from .context import Core


def settle(ctx: Core) -> None:
    settle_notices(ctx.between, ctx.game.state, ctx.bots, ctx.seats.colours)
    draw_chance(ctx)
    follow(ctx)


def settle_notices(queue: Between[Any], state: State | None, bots: Container[int], colours: Sequence[str]) -> None:
    """What settling does to the notices: the top one is on every screen now, and a passive count waits for whoever
    acts. Run on a copy of the queue, it is the screen a decision leads to, saved with its line (``Controller.apply``);
    run again by the settle after it, it changes nothing."""
    queue.top_shown()
    computer_players.settle_passive(queue, state, bots, colours)


def follow(ctx: Core) -> None:
    """What the next screens need is built now (the acting player's menu, whose private ballot it is), so drawing
    them only reads."""
    state = ctx.game.state
    if state is None:
        return
    mode = game_mode(state, ctx.between.notices, ctx.seats.entry)
    if mode is DECISION:
        ctx.between.keying.follow_decision(state, len(ctx.game.record))
    elif mode is PRIVATE_BALLOT:
        ctx.between.keying.follow_ballot(state, ctx.bots)


def draw_chance(ctx: Core) -> None:
    """Shuffle whenever the rules call for it; retried on the next press if it could not be saved."""
    while (state := ctx.game.state) is not None and not state.is_over and state.chance_awaited():
        if open_step(ctx.game.history, ctx.between.notices) is not None:
            return
        chance = ctx.game.shuffle()
        after, line = chance.after, len(ctx.game.record)  # line: its index once saved
        queue: Between[Any] = Between(list(ctx.between.notices))  # notices are values: a copy of the queue
        if state.phase == "setup" and not after.chance_awaited():  # a new game: the reminder (never on resume)
            queue.add(first_year_notices(after, ctx.seats.entry, short=ctx.intro_read))
        queue.add_year(narrate(chance.events, after, 0, ctx.seats.computer_colours, line))  # 5.3
        try:  # the line and the notices it leads to, in one commit
            ctx.game.commit(chance, screen_state(queue.notices))
        except NotSaved as error:
            ctx.between.tell(not_saved_notice(error))
            return
        ctx.between.keep_notices(queue.notices)
