"""A phone asks for a seat that is taken (its owner's phone died, a player swaps phones, or the power came back and a
phone lost its cookie): only the host, on the device, can give it.

The host presses ok all evening, so ok cannot be the answer that gives a seat away: the question names who asks and
what happens to the seat's ballot, and only left, then right gives it. Any other key refuses, a held back included
(it never opens the undo question on top of this one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from display.screen import Line, Screen
from hardware.events import InputEvent

from ..flow.board_text import player_name
from ..flow.context import Action, Binding, Mode
from ..i18n import _

if TYPE_CHECKING:
    from ..flow.context import Context


class TakeoverConfirm(Mode):
    holds_back = True  # a held back refuses, as any key but left then right does

    def __init__(self, colour: str, lost: str | None, locked: bool, answer: Callable[[bool], None]) -> None:
        """``lost``: the colour of the seat the asking phone had before another phone got it, or None: a new phone.
        ``locked``: whether the seat has locked in (public: the shared screen shows who has). What the seat's player
        has keyed is not, so the question says the same of it whether anything is keyed or not (rules.md 11.1: a ballot
        is secret until the reveal)."""
        self.colour, self.lost, self.locked, self.answer = colour, lost, locked, answer
        self.armed = False

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        if self.armed:
            return (
                Binding("right", self._answer(True), _("give the seat")),
                Binding("any", self._answer(False), _("refuse")),
            )
        refuse = self._answer(False)
        return (
            Binding("left", self._arm, _("then right: give the seat")),  # pressed: a held left is any other key
            Binding("ok", refuse, _("refuse")),
            Binding("back", refuse, _("refuse")),
            Binding("any", refuse),  # a player's key is theirs (a keypad ballot goes on underneath)
        )

    def _arm(self, ctx: Context, event: InputEvent, seat: int | None) -> Mode | None:
        self.armed = True
        return self

    def _answer(self, give: bool) -> Action:
        def does(ctx: Context, event: InputEvent, seat: int | None) -> Mode | None:
            self.answer(give)
            return None

        return does

    def view(self, ctx: Context) -> Screen:
        name = player_name(self.colour)
        if self.lost is None:
            asks = _("A new phone asks for {colour}'s seat.").format(colour=name)
        else:
            asks = _("{lost}'s old phone asks for {colour}'s seat.").format(lost=player_name(self.lost), colour=name)
        lines = [Line(asks, "normal", self.colour)]
        if self.locked:
            lines.append(Line(_("{colour} has locked in: the phone will show only that.").format(colour=name), "small"))
        else:
            lines.append(
                Line(_("Whatever {colour} has keyed but not locked in is cleared.").format(colour=name), "small")
            )
        lines.append(Line(_("The phone that has the seat now stops working for it."), "small"))
        if self.armed:
            footer = _("right: give it   any other key: refuse")
        else:
            footer = _("left, then right: give it   ok: refuse")
        return Screen(_("Phone takeover"), tuple(lines), footer=footer, tags=("takeover",))
