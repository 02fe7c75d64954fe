"""The game thread's side of the web pads: the events a phone's page puts on the App's queue, the views built after
every step, and the state id that makes a phone's press count exactly once.

Each phone's view carries a version ``v``; a press names the version it was made on, and the game thread applies
it only if that phone's view is still that version, then moves the version on (boardgame.io's state id). A press
made on a stale screen, or sent twice by a reconnecting phone, is refused and the phone is sent its current view.

Every stream's shape is public (rules.md 11): the table view, and every phone but the one pressing, is sent a frame
only when what it shows changed, so nobody can count another player's keys by the frames they cause.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from hardware.events import SeatRequest, WebDevices, WebEvent, WebHello, WebPress

from .views import public_view

if TYPE_CHECKING:
    from ..flow.context import Context
    from .seating import PhoneSeats


__all__ = ["Frames", "Publisher", "SeatRequest", "WebDevices", "WebEvent", "WebHello", "WebPress"]


class Frames(NamedTuple):
    """What the game thread hands the server after a step."""

    public: str | None  # the public view's JSON when it changed (the table view's frame), else None
    phones: dict[str, str]  # each phone's whole message, for the phones whose view changed (or that pressed)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Publisher:
    def __init__(self, send: Callable[[Frames], None], seats: PhoneSeats) -> None:
        self._send = send
        self.seats = seats
        self.connected: set[str] = set()  # every phone that said hello in this run
        self.versions: dict[str, int] = {}
        self._last: dict[str, str] = {}
        self._public = ""

    def accept(self, press: WebPress) -> bool:
        """On the game thread, just before the press is handled: only a press on the view now shown counts."""
        self.connected.add(press.phone)
        if self.versions.get(press.phone, 0) != press.view:
            return False
        self.versions[press.phone] = press.view + 1  # spent: the same press sent again is stale
        return True

    def publish(self, ctx: Context, force: str | None = None) -> None:
        """Everything that changed since the last step; ``force``: send that phone (the one that pressed) its view
        even if unchanged, and nobody else anything for it."""
        public = _dump(public_view(ctx))
        public_changed = public != self._public
        changed: dict[str, str] = {}
        for phone in sorted(self.connected):
            mine = _dump(self.seats.mine(ctx, phone))
            if public_changed or self._last.get(phone) != mine:
                self.versions[phone] = self.versions.get(phone, 0) + 1
                self._last[phone] = mine
            elif phone != force:
                continue
            changed[phone] = f'{{"t":"view","v":{self.versions.get(phone, 0)},"mine":{mine},"public":{public}}}'
        if not public_changed and not changed:
            return
        self._public = public
        self._send(Frames(public if public_changed else None, changed))
