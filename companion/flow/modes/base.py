"""The shape every mode and overlay has: what a key does, which keys turn parts, the screen, the host's keys."""

from __future__ import annotations

from display.screen import Screen
from hardware.events import InputEvent

from ..context import Context
from ..paging import Turn
from ..seats import Seat


class Mode:
    holds_back = False  # True: the host's held back is this overlay's to answer (not undo)
    asks = False  # a question the host's ok answers: ok first shows the parts not yet seen (paging.py)
    # A question or the rule help: in small type on one screen where that fits (paging.py); else its parts turn by
    # themselves (routing.turn_by_itself), so every key means the same on every part (docs/architecture.md, "Parts
    # and the page timer").
    reads_whole = False
    turns_by_itself = False  # its parts turn by themselves though it is not a question (setup)

    def handle(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        """A key (the host's, or a seated pad's with its seat): the mode on top next. Default: nothing happens."""
        return self

    def page_turn(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Turn | None:
        """Which part this key turns to, where the screen is in parts (``paging.py``): a question's ok, the next."""
        return "next" if self.ok_reads_on(ctx) and event.source == "host" and event.key == "ok" else None

    def ok_reads_on(self, ctx: Context) -> bool:
        """Whether ok shows the next part of this screen before it answers or goes on (the footer then says so)."""
        return self.asks and not self.reads_whole

    def view(self, ctx: Context) -> Screen:
        raise NotImplementedError

    def keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        """What the host's keys do here, as ``handle`` decides it (``Screen.keys``): kept beside ``handle`` so the
        two are changed together."""
        return ()
