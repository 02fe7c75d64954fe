"""The game thread's side of the web pads: views built after every step, and the state id that makes a phone's
press count exactly once.

Each phone's view carries a version ``v``; a press names the version it was made on, and the game thread applies
it only if that seat's view is still that version, then moves the version on (boardgame.io's state id). A press made
on a stale screen, or sent twice by a reconnecting phone, is refused and the phone is sent its current view.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .views import public_view, seat_view

if TYPE_CHECKING:
    from ..flow.controller import Controller


class WebPress(NamedTuple):
    """A key pressed on a phone pad: ``view`` is the version of the view it was pressed on."""

    source: str
    key: str
    view: int


class SeatRequest(NamedTuple):
    """A phone with no seat asks for ``colour``'s seat; the host answers on the device (``request`` names it)."""

    request: int
    colour: str


class WebHello(NamedTuple):
    """A phone's page connected for ``source``: send it its view."""

    source: str


class Frames(NamedTuple):
    """What the game thread hands the server after a step: the public view's JSON and each phone's whole message."""

    public: str
    seats: dict[str, str]
    stage: str
    seated: frozenset[str]
    free: bool  # a new phone may still join a free seat (setup, fewer than four)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Publisher:
    def __init__(self, send: Callable[[Frames], None]) -> None:
        self._send = send
        self.phones: set[str] = set()  # every source a phone has spoken for (phone1..., or a keypad seat taken over)
        self.versions: dict[str, int] = {}
        self._last: dict[str, str] = {}
        self._public = ""

    def accept(self, press: WebPress) -> bool:
        """On the game thread, just before the press is handled: only a press on the view now shown counts."""
        self.phones.add(press.source)
        if self.versions.get(press.source, 0) != press.view:
            return False
        self.versions[press.source] = press.view + 1  # spent: the same press sent again is stale
        return True

    def publish(self, ctx: Controller, force: str | None = None) -> None:
        """Everything that changed since the last step; ``force``: send that phone its view even if unchanged."""
        public = _dump(public_view(ctx))
        changed: dict[str, str] = {}
        for source in sorted(self.phones):
            mine = _dump(seat_view(ctx, source))
            if public != self._public or self._last.get(source) != mine or source == force:
                if self._last.get(source) != mine or public != self._public:
                    self.versions[source] = self.versions.get(source, 0) + 1
                self._last[source] = mine
                version = self.versions.get(source, 0)
                changed[source] = f'{{"t":"view","v":{version},"mine":{mine},"public":{public}}}'
        if public == self._public and not changed:
            return
        self._public = public
        seated = frozenset(source for source, _colour in ctx.seats.joined)
        free = ctx.stage == "setup" and len(ctx.seats.joined) < 4
        self._send(Frames(public, changed, ctx.stage, seated, free))
