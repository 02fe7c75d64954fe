"""The shape every mode and overlay has, and the host keys every game mode shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _

if TYPE_CHECKING:
    from ..controller import Controller


class Mode:
    holds_back = False  # True: the host's held back is this overlay's to answer (not undo)

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        """A key (the host's, or a seated pad's with its seat): the mode on top next. Default: nothing happens."""
        return self

    def view(self, ctx: Controller) -> Screen:
        raise NotImplementedError

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        """What the host's keys do here, as ``handle`` decides it (``Screen.keys``): kept beside ``handle`` so the
        two are changed together."""
        return ()


class GameMode(Mode):
    """During a game the host's left opens the rule help and back the board check, whatever the screen shows."""

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.source != "host":
            if seat is not None:
                from .this_year import ThisYear, uses_back

                if event.key == "back" and ctx.stage == "game" and not uses_back(ctx, seat):
                    return ThisYear(event.source)  # the year so far, for anyone (issue 34)
                self.pad(ctx, seat, event.key)
            return self
        from .board_check import BoardCheck
        from .help import Help

        if event.key == "left":
            return Help()
        if event.key == "back" and ctx.stage == "game":
            return BoardCheck()
        return self.host(ctx, event.key)

    def host(self, ctx: Controller, key: str) -> Mode | None:
        return self

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        board = (("back", _("board check")),) if ctx.stage == "game" else ()
        return (*self.host_keys(ctx), ("left", _("rule help")), *board)

    def host_keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        """The keys :meth:`host` gives a meaning."""
        return ()

    def pad(self, ctx: Controller, seat: int, key: str) -> None:
        """A key on a seated human player's own pad."""
