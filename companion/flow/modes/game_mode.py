"""The game's own modes (a notice, a ballot, a decision, the end) share the host's keys: left the rule help, back the
board check; a player's back opens the year so far whenever it has nothing of theirs to step back from."""

from __future__ import annotations

from hardware.events import InputEvent

from ...i18n import _
from ..context import Binding, Context, Mode
from ..seats import Seat, Source
from .board_check import BoardCheck
from .help import Help
from .this_year import ThisYear, uses_back


class GameMode(Mode):
    """During a game the host's left opens the rule help and back the board check, whatever the screen shows; a
    player's back opens the year so far whenever it has nothing of theirs to step back from."""

    beneath = False  # its players key on their own pads under any overlay (a keypad ballot, a notice's "done")

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        board = (Binding("back", board_check, _("board check")),) if ctx.stage == "game" else ()
        return (
            *self.host_bindings(ctx),
            Binding("left", rule_help, _("rule help")),
            *board,
            Binding("back", self._year_or_pad, by="pads", beneath=self.beneath),
            Binding("any", self._pad, by="pads", beneath=self.beneath),
        )

    def host_bindings(self, ctx: Context) -> tuple[Binding, ...]:
        """The host's keys of this mode, besides the rule help and the board check."""
        return ()

    def pad(self, ctx: Context, seat: Seat, key: str) -> None:
        """A key on a seated human player's own pad."""

    def _pad(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        if seat is not None:
            self.pad(ctx, seat, event.key)
        return self

    def _year_or_pad(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        if seat is not None and ctx.stage == "game" and not uses_back(ctx, seat):
            return ThisYear(Source(event.source))
        return self._pad(ctx, event, seat)


def rule_help(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
    return Help()


def board_check(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
    return BoardCheck(len(ctx.additions.pages))
