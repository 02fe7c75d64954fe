"""The year so far and the race (rules.md 5, 9.2), for anyone at the table: the host finds both among the board
check's pages; a player opens the year so far with back on their own pad, whenever back has nothing of theirs to
step back from, and any key of that pad (or the host's) closes it."""

from __future__ import annotations

from display.screen import Screen

from ...engine import AREAS
from ...i18n import _
from ..context import Binding, Context, Mode, close
from ..game import palaces_now
from ..race_views import race_view, year_view
from ..seats import Seat, Source


def year_screen(ctx: Context, footer: str) -> Screen:
    """The year so far, with only what the table has been shown (a count still to come is left out)."""
    state = ctx.state
    assert state is not None
    hidden = ctx.seen.hidden
    counts = {
        AREAS[count.area]: count
        for step in ctx.history
        if step.before.year == state.year
        for count in step.counts
        if (step.length, ("count", count.area)) not in hidden
    }
    year = state.year
    before = ctx.palaces_by_year[year - 2] if year >= 2 else {}
    return year_view(ctx.seen.board, counts, before, palaces_now(state), footer)


def race_screen(ctx: Context, footer: str) -> Screen:
    state = ctx.state
    assert state is not None
    race = [
        (player, state.palaces_of(seat), state.districts_of(seat), state.palaces_to_go(seat))
        for seat, player in enumerate(state.players)
    ]
    return race_view(race, footer)


def uses_back(ctx: Context, seat: Seat) -> bool:
    """Whether back on ``seat``'s pad steps back from something of theirs: a ballot they are keying, their private
    ballot on the shared screen, a submenu of their decision. A ballot being keyed keeps its back whether or not
    anything is keyed yet: what is keyed is secret (rules.md 11), and a back that opened the year on the shared screen
    once the keys ran out would tell the table how many keys the player had pressed."""
    keying = ctx.between.keying
    if seat in keying.keypad or (ctx.seats.entry == "keypads" and ctx.state is not None
                                 and ctx.state.phase == "ballot"
                                 and seat in (a.player for a in ctx.state.awaiting())):  # fmt: skip
        return True
    private = keying.private
    if private is not None and (private.seat == seat or private.stage != "gate"):
        return True  # a private menu on the shared screen is never covered (rules.md 11)
    state = ctx.state
    awaited = state.awaiting() if state is not None and not ctx.between.notices else ()
    return bool(awaited) and awaited[0].player == seat and len(keying.menus) > 1


class ThisYear(Mode):
    """The year so far on the shared screen, opened by a player's pad (``opened_by``): any key of it closes."""

    def __init__(self, opened_by: Source) -> None:
        self.opened_by = opened_by

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        # the pad that opened it closes it; every other pad's key goes to the mode beneath
        return (Binding("any", close, _("close")), Binding("any", close, by=self.opened_by))

    def view(self, ctx: Context) -> Screen:
        return year_screen(ctx, _("any key: close"))
