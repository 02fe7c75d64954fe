"""A phone asks for a seat that is taken (its owner's phone died, or a player swaps phones): only the host, on the
device, can give it (an overlay like the undo question: ok gives the seat, any other key keeps it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from display.screen import Line, Screen
from hardware.events import InputEvent

from ..flow.board_text import player_name
from ..flow.modes.base import Mode
from ..i18n import _

if TYPE_CHECKING:
    from ..flow.controller import Controller


class TakeoverConfirm(Mode):
    def __init__(self, colour: str, answer: Callable[[bool], None]) -> None:
        self.colour = colour
        self.answer = answer

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        self.answer(event.key == "ok")
        return None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("give the seat")), ("back", _("refuse")))

    def view(self, ctx: Controller) -> Screen:
        name = player_name(self.colour)
        lines = (
            Line(_("A new phone asks for {colour}'s seat.").format(colour=name), "normal", self.colour),
            Line(_("Only if {colour} asked for it: the old phone stops working.").format(colour=name), "small"),
        )
        return Screen(_("Phone takeover"), lines, footer=_("ok: give it, back: refuse"), tags=("takeover",))
