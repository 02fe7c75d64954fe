"""The game's own modes (a notice, a ballot, a decision, the end) share the host's keys: left the rule help, back the
board check; a player's back opens the year so far whenever it has nothing of theirs to step back from."""

from __future__ import annotations

from hardware.events import InputEvent

from ...i18n import _
from ..context import Context, Mode
from ..seats import Seat, Source
from .board_check import BoardCheck
from .help import Help
from .this_year import ThisYear, uses_back


class GameMode(Mode):
    """During a game the host's left opens the rule help and back the board check, whatever the screen shows; a
    player's back opens the year so far whenever it has nothing of theirs to step back from."""

    def handle(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        if event.source != "host":
            if seat is not None:
                if event.key == "back" and ctx.stage == "game" and not uses_back(ctx, seat):
                    return ThisYear(Source(event.source))
                self.pad(ctx, seat, event.key)
            return self
        if event.key == "left":
            return Help()
        if event.key == "back" and ctx.stage == "game":
            return BoardCheck(len(ctx.additions.pages))
        return self.host(ctx, event.key)

    def host(self, ctx: Context, key: str) -> Mode | None:
        return self

    def keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        board = (("back", _("board check")),) if ctx.stage == "game" else ()
        return (*self.host_keys(ctx), ("left", _("rule help")), *board)

    def host_keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        """The keys :meth:`host` gives a meaning."""
        return ()

    def pad(self, ctx: Context, seat: Seat, key: str) -> None:
        """A key on a seated human player's own pad."""
