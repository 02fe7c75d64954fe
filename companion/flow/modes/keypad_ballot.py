"""Ballots at once on keypads (rules.md 4.2): each player keys area and markers on their own pad; the pad's LEDs
echo the choice to its owner alone, and the shared screen says only who is still choosing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from display.screen import Screen

from ...engine import AREAS, Ballot, private_view, snapshot
from ..views import keypad_view
from .base import GameMode

if TYPE_CHECKING:
    from ..controller import Controller


@dataclass
class KeypadBallot:
    """One player's ballot being keyed in on their own keypad. Never shown on the shared screen."""

    area: int | None = None
    markers: list[int] = field(default_factory=list)


class KeypadBallotMode(GameMode):
    def pad(self, ctx: Controller, seat: int, key: str) -> None:
        """Area key, marker keys, back to undo a key, ok to lock in."""
        state = ctx.state
        assert state is not None
        if seat not in (a.player for a in state.awaiting()):
            return
        entry = ctx.keypad.setdefault(seat, KeypadBallot())
        mine = private_view(state, seat)
        source = ctx.seats.source_of(seat)
        if key.startswith("area:"):
            area = AREAS.index(key[5:])
            if area in mine.used_areas:
                ctx.effect("beep", source)
                return
            if entry.area is not None:
                ctx.effect("led", source, f"area:{AREAS[entry.area]}", "off")
            entry.area = area
            ctx.effect("led", source, key, "on")
        elif key.startswith("marker:"):
            value = int(key[7:])
            if entry.markers.count(value) < mine.markers.count(value) and len(entry.markers) < 4:
                entry.markers.append(value)
            elif value in entry.markers:
                entry.markers = [m for m in entry.markers if m != value]
            # No beep for a value not held: the table would hear what a player holds (rules.md 11.1).
            ctx.effect("led", source, key, "on" if value in entry.markers else "off")
        elif key == "back":
            if entry.markers:
                value = entry.markers.pop()
                ctx.effect("led", source, f"marker:{value}", "on" if value in entry.markers else "off")
            elif entry.area is not None:
                ctx.effect("led", source, f"area:{AREAS[entry.area]}", "off")
                entry.area = None
        elif key == "ok":
            if entry.area is None or not 1 <= len(entry.markers) <= 4:
                ctx.effect("beep", source)
                return
            ballot = Ballot(entry.area, tuple(sorted(entry.markers, reverse=True)))
            if ctx.apply(seat, ballot):  # not saved: the keyed ballot stays, to try again with ok
                del ctx.keypad[seat]
                ctx.effect("led", source, "all", "off")

    def view(self, ctx: Controller) -> Screen:
        assert ctx.state is not None
        return keypad_view(snapshot(ctx.state))
