"""Cues on the players' pads: a pad's "turn" LED lights and it beeps when its player is newly awaited.

Only the players who may act now are cued: the one whose turn it is in an election or at a private ballot, every
player still to lock in with keypads; while a notice is to be read, the players it waits for ("done" on their pad),
or every player when it waits only for someone to move a computer's pieces; never a computer seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .narration import ANYONE
from .seats import Seat

if TYPE_CHECKING:
    from .context import Context


def awaited_seats(ctx: Context) -> set[Seat]:
    state = ctx.state
    if ctx.stage != "game" or state is None:
        return set()
    if ctx.between.notices:
        waiting = ctx.between.notices[0].waiting
        humans = [Seat(seat) for seat in range(len(ctx.players)) if seat not in ctx.bots]
        if waiting == (ANYONE,):
            return set(humans)
        return {seat for seat in humans if ctx.players[seat] in waiting}
    awaited = [Seat(a.player) for a in state.awaiting() if a.player not in ctx.bots]
    if state.phase == "election" or ctx.seats.entry == "private":
        return set(awaited[:1])
    return set(awaited)


class Cues:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.cued: set[Seat] = set()

    def update(self, ctx: Context) -> None:
        now = awaited_seats(ctx)
        if self.enabled:
            for seat in now - self.cued:
                ctx.effect("led", ctx.seats.source_of(seat), "turn", "on")
                ctx.effect("beep", ctx.seats.source_of(seat))
            for seat in self.cued - now:
                if seat < len(ctx.seats.joined):
                    ctx.effect("led", ctx.seats.source_of(seat), "turn", "off")
        self.cued = now
