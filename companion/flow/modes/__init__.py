"""What the table is doing, one small object each: the key routing of the game flow.

A *mode* is what the screen is about (setting up, a notice to read, a ballot, a decision, the end); an *overlay*
sits on top of any mode (rule help, the board check, an undo question). Each declares its keys once,
``bindings(ctx)`` (``context.Binding``: the key, whose it is, what it does, what the host's hint says, which part
of a long screen it turns first: ``paging.py``); the same rows route a key (``routing.py``) and name the host's keys
on the screen. What a key does returns the mode to be on top next (itself to stay, ``None`` to close an overlay,
or an overlay to open). ``view(ctx)`` is the screen and changes nothing. ``ctx`` is the narrow side of the
controller (``context.py``; for a key, the press's desk: ``desk.py``, where the mode's requests wait for the
controller to commit them); the game's modes hold no game data (the in-between is ``ctx.between``,
``between.py``), so one mode object serves every game and a copy of the controller with other secrets shows
exactly its own. An overlay keeps only where it is (a page, a question's subject).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..context import Mode
from .board_check import BoardCheck
from .decision import DecisionMode
from .evening import AbandonConfirm, NextGame, ResumeOffer
from .game_over import GameOverMode
from .help import Help
from .keypad_ballot import KeypadBallotMode
from .notices import NoticesMode
from .private_ballot import PrivateBallotMode
from .setup import SetupMode
from .undo_confirm import UndoConfirm, asks_undo

if TYPE_CHECKING:
    from ...engine import State

SETUP = SetupMode()
NOTICES = NoticesMode()
PRIVATE_BALLOT = PrivateBallotMode()
KEYPAD_BALLOT = KeypadBallotMode()
DECISION = DecisionMode()
GAME_OVER = GameOverMode()


def game_mode(state: State | None, notices: Sequence[object], entry: str) -> Mode:
    """The mode the game is in, from the game alone; overlays sit on top of it."""
    if state is None:
        return SETUP
    if notices:
        return NOTICES
    if state.is_over:
        return GAME_OVER
    if state.phase == "ballot":
        return KEYPAD_BALLOT if entry == "keypads" else PRIVATE_BALLOT
    return DECISION


__all__ = [
    "DECISION",
    "GAME_OVER",
    "KEYPAD_BALLOT",
    "NOTICES",
    "PRIVATE_BALLOT",
    "SETUP",
    "AbandonConfirm",
    "BoardCheck",
    "Help",
    "Mode",
    "NextGame",
    "ResumeOffer",
    "SetupMode",
    "UndoConfirm",
    "asks_undo",
    "game_mode",
]
