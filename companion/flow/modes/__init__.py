"""What the table is doing, one small object each: the key routing of the game flow.

A *mode* is what the screen is about (setting up, a notice to read, a ballot, a decision, the end); an *overlay*
sits on top of any mode (rule help, the board check, an undo question). Each has ``handle(ctx, event, seat)``,
returning the mode to be on top next (itself to stay, ``None`` to close an overlay, or an overlay to open),
``page_turn`` (which of its keys turn the parts of a long screen: ``paging.py``), and ``view(ctx)``, the screen,
which changes nothing. ``ctx`` is the narrow side of the controller (``context.py``); the game's modes hold no game
data (the round in progress is ``ctx.round``, ``round.py``), so one mode object serves every game and a copy of the
controller with other secrets shows exactly its own. An overlay keeps only where it is (a page, a question's
subject).
"""

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
from .undo_confirm import UndoConfirm

SETUP = SetupMode()
NOTICES = NoticesMode()
PRIVATE_BALLOT = PrivateBallotMode()
KEYPAD_BALLOT = KeypadBallotMode()
DECISION = DecisionMode()
GAME_OVER = GameOverMode()

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
]
