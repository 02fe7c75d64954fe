"""What a mode, a view or the App's additions may ask of the game flow and tell it: the narrow side of the controller.

The controller (``controller.py``) is the one object that implements it. A mode reads the game through its typed
queries and the table (``seats``), reads and changes the round in progress through the round's own methods
(``round.py``), and asks for everything else by name: a decision applied (saved first), an effect for the hardware,
a new game. It never writes a field of the controller.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from ..engine import Decision, State
    from .additions import Additions
    from .game import Step
    from .modes.base import Mode
    from .paging import Parts
    from .round import Round
    from .seats import Colour, Seat, Seats, Source

Stage = Literal["setup", "game", "over"]
"""Where the evening is: choosing seats, playing, or the game-over pages."""

EffectKind = Literal["led", "beep", "sound"]


class Context(Protocol):
    @property
    def state(self) -> State | None: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def seats(self) -> Seats: ...

    @property
    def round(self) -> Round: ...

    @property
    def parts(self) -> Parts: ...

    @property
    def record(self) -> list[str]: ...

    @property
    def history(self) -> list[Step]: ...

    @property
    def palaces_by_year(self) -> list[dict[str, int]]: ...

    @property
    def players(self) -> tuple[Colour, ...]: ...

    @property
    def bots(self) -> Mapping[Seat, Any]: ...

    @property
    def intro_read(self) -> bool:
        """The table read the first year's reminder this evening: the next game offers to skip it."""
        ...

    @property
    def additions(self) -> Additions: ...

    @property
    def confirm_undo(self) -> bool: ...

    def mode(self) -> Mode:
        """The mode the game is in (under any overlay)."""
        ...

    def apply(self, seat: Seat, decision: Decision) -> bool:
        """A decision, saved first; False if it could not be (nothing changed, a notice says why)."""
        ...

    def effect(self, kind: EffectKind, source: Source, target: str = "", state: str = "") -> None: ...

    def start(self) -> None: ...

    def undo(self) -> None: ...

    def dismiss_notice(self) -> None:
        """The top notice is done with."""
        ...

    def next_game(self) -> None: ...

    def abandon(self) -> None: ...

    def not_saved(self, error: Exception) -> None:
        """Tell the table a line could not be saved (and that nothing changed)."""
        ...
