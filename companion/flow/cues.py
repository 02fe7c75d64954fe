"""Cues on the players' pads: a pad's "turn" LED lights and it beeps when its player is newly awaited.

Only the players who may act now are cued: the one whose turn it is in an election or at a private ballot, every
player still to lock in with keypads; nobody while a notice is to be read or for a computer seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .controller import Controller


def awaited_seats(ctx: Controller) -> set[int]:
    state = ctx.state
    if ctx.stage != "game" or state is None or ctx.notices:
        return set()
    awaited = [a.player for a in state.awaiting() if a.player not in ctx.bots]
    if state.phase == "election" or ctx.seats.entry == "private":
        return set(awaited[:1])
    return set(awaited)


class Cues:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.cued: set[int] = set()

    def update(self, ctx: Controller) -> None:
        now = awaited_seats(ctx)
        if self.enabled:
            for seat in now - self.cued:
                ctx.effect("led", ctx.seats.source_of(seat), "turn", "on")
                ctx.effect("beep", ctx.seats.source_of(seat))
            for seat in self.cued - now:
                if seat < len(ctx.seats.joined):
                    ctx.effect("led", ctx.seats.source_of(seat), "turn", "off")
        self.cued = now
