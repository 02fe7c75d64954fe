"""Ballots at once on keypads (rules.md 4.2): each player keys area and markers on their own pad; the pad's LEDs
echo the choice to its owner alone, and the shared screen says only who is still choosing."""

from __future__ import annotations

from display.screen import Screen

from ...engine import AREAS, Ballot, private_view, snapshot
from ..context import Context
from ..seats import Seat
from ..views import keypad_view
from .game_mode import GameMode


def key_ballot(ctx: Context, seat: Seat, key: str) -> None:
    """A key of ``seat``'s keypad while ballots are keyed: area key, marker keys (one more marker each, refused on
    the key's LED when none of it is left), back to take the last key back, ok to lock in.
    Also what a keypad's keys do under a notice (a round's reveal is read while the next round is keyed in)."""
    state = ctx.state
    assert state is not None
    if seat not in (a.player for a in state.awaiting()):
        return
    keying = ctx.between.keying
    entry = keying.keyed(seat)
    mine = private_view(state, seat)
    source = ctx.seats.source_of(seat)
    if key.startswith("area:"):
        area = AREAS.index(key[5:])
        if area in mine.used_areas:
            ctx.effect("beep", source)
            return
        before = entry.choose_area(area)
        if before is not None:
            ctx.effect("led", source, f"area:{AREAS[before]}", "off")
        ctx.effect("led", source, key, "on")
    elif key.startswith("marker:"):
        value = int(key[7:])
        if entry.add_marker(value, mine.markers.count(value)):
            ctx.effect("led", source, key, "on")
        else:  # none of it left: its own LED blinks, never a beep the table would hear (rules.md 11.1)
            ctx.effect("led", source, key, "blink")
    elif key == "back":
        taken = entry.step_back()
        if taken is not None and taken[0] == "marker":
            value = taken[1]
            ctx.effect("led", source, f"marker:{value}", "on" if value in entry.markers else "off")
        elif taken is not None:
            ctx.effect("led", source, f"area:{AREAS[taken[1]]}", "off")
    elif key == "ok":
        if entry.area is None or not 1 <= len(entry.markers) <= 4:
            ctx.effect("beep", source)
            return
        ballot = Ballot(entry.area, tuple(sorted(entry.markers, reverse=True)))

        def locked_in() -> None:  # once saved; not saved: the keyed ballot stays, to try again with ok
            keying.lock_in(seat)
            ctx.effect("led", source, "all", "off")

        ctx.decide(seat, ballot, locked_in)


class KeypadBallotMode(GameMode):
    beneath = True  # keyed on the pad itself

    def pad(self, ctx: Context, seat: Seat, key: str) -> None:
        key_ballot(ctx, seat, key)

    def view(self, ctx: Context) -> Screen:
        assert ctx.state is not None
        return keypad_view(snapshot(ctx.state))
