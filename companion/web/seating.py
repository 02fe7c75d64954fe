"""Which phone holds which seat, on the game thread: a seat belongs to a phone, not to a number.

A phone is the SHA-256 of its seat token (the server never keeps the token). It holds one pad source: its own
("phone3", made when it first joined at setup) or the seat it was given by the host (a keypad's "2", another phone's
"phone1"). The App stores each seat's holder with the game (``Store.new_game``, ``Store.give_seat``), so after a
restart a phone with its cookie gets its own seat back and nothing else, and a source named in the game's header is
never handed to another phone. A phone that holds no seat sees what the table view sees.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import count
from typing import TYPE_CHECKING, Any

from ..flow.seats import Source
from .views import seat_view

if TYPE_CHECKING:
    from ..flow.context import Context


class PhoneSeats:
    def __init__(self, held: Mapping[str, str] | None = None, hidden: Collection[str] = ()) -> None:
        """``held``: each seat's phone (source -> digest), and ``hidden``: the seats whose locked-in ballot their
        phone may not see, as the store kept them for the game going on."""
        self.source_of: dict[str, str] = {phone: source for source, phone in (held or {}).items()}
        self.sat: set[str] = set(self.source_of)  # sat down once at setup: a reload does not sit down again
        self.hidden: set[str] = set(hidden)  # seats whose locked-in ballot another pad made: shown only as locked in
        self.lost: dict[str, str] = {}  # a phone that lost a seat to another phone -> that seat's colour
        self.open: dict[str, int] = {}  # browsers with a page open on a phone's token now
        self.copied: set[str] = set()  # tokens seen in more than one browser in this run
        self._numbers = count(1)

    def holder(self, source: str) -> str | None:
        """The phone that holds ``source``, if a phone does (then its keypad or GPIO pad is not the seat's)."""
        return next((phone for phone, held in self.source_of.items() if held == source), None)

    def new_source(self, phone: str, taken: Collection[str]) -> str:
        """A pad source for a phone that joined at setup: one no seat of this evening's games has had."""
        used = set(taken) | set(self.source_of.values())
        source = next(name for n in self._numbers if (name := f"phone{n}") not in used)
        self.source_of[phone] = source
        return source

    def give(self, phone: str, source: str) -> str | None:
        """``source``'s seat to ``phone``; the phone that had it (it sees the table's view from now on), if any."""
        previous = self.holder(source)
        if previous is not None:
            del self.source_of[previous]
        self.source_of[phone] = source
        return previous

    def devices(self, phone: str, open_now: int, seen: int) -> None:
        self.open[phone] = open_now
        if seen > 1:
            self.copied.add(phone)

    def settle(self, ctx: Context) -> list[str]:
        """After each step: a hidden ballot is no longer hidden once it is no longer locked in (revealed, undone).
        The seats it let go, for the store to forget too (a restart must not hide the phone's own next ballot)."""
        state = ctx.state
        if state is None:
            return []  # between games, or before the game going on is resumed: nothing is decided yet
        gone = []
        for source in sorted(self.hidden):
            seat = ctx.seats.seat_of(Source(source))
            if seat is None or not state.locked_in(seat):
                self.hidden.discard(source)
                gone.append(source)
        return gone

    def mine(self, ctx: Context, phone: str) -> dict[str, Any] | None:
        """What this phone alone may see: its seat's own view, or None (the table's view) if it holds no seat."""
        source = self.source_of.get(phone)
        if source is None:
            return None
        view = seat_view(ctx, source, hide_pending=source in self.hidden)
        if view is not None and phone in self.copied:
            view["copied"] = True
        return view
