"""Undo (rules.md 11.4): after a held host back, ok takes back the last human decision with the computer players'
decisions after it (``undo_chain.py``); any other host key keeps them."""

from __future__ import annotations

from collections.abc import Sequence

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Binding, Context, Mode, close
from ..game import Step
from ..seats import Seat
from ..undo_chain import undo_chain, undo_open
from ..undo_text import refusal_notice, undo_question
from ..views import undo_view


def undo_key(ctx: Context) -> tuple[tuple[str, str], ...]:
    """The host's held back asks to undo on any screen of a game (``Controller.handle``), when there is something
    that may be undone: said with the keys of whatever screen is on top."""
    if ctx.stage == "game" and not ctx.confirm_undo and undo_open(ctx):
        return (("hold:back", _("undo")),)
    return ()


def asks_undo(overlays: Sequence[Mode]) -> bool:
    """Whether the undo question is open (a computer player then waits: its answer would be taken back)."""
    return any(type(o) is UndoConfirm for o in overlays)


class UndoConfirm(Mode):
    """The question names the decisions it was asked about; players may go on under it (a keypad ballot locked in,
    a notice confirmed), and if that changed what an undo would take back, ok takes back nothing and says so."""

    paging = "question"

    def __init__(self, chain: list[Step]) -> None:
        self.chain = chain

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        return (
            Binding("ok", self._undo, _("undo")),
            *(Binding(key, close, _("keep")) for key in ("left", "right", "back")),
            Binding("any", close),
        )

    def _undo(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        if undo_chain(ctx) == self.chain:
            ctx.undo()
        else:
            ctx.between.tell(refusal_notice(_("Nothing was undone: the game went on under the question.")))
        return None

    def view(self, ctx: Context) -> Screen:
        chain = [step.undone for step in self.chain]
        board = any(undone.changes for undone in chain)
        return undo_view(undo_question(chain, ctx.players, ctx.seats.computer_colours), board)
