"""What the modes, the App, the web pads and the tests read of the controller: its typed queries, each derived
from the game (``game.py``), the in-between (``between.py``) or the table (``seats.py``); none changes
anything. A mixin beside the controller, which holds the three."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .context import Mode, Stage, stage_of
from .modes.undo_confirm import asks_undo

if TYPE_CHECKING:
    from ..engine import State
    from .between import Between, Keying
    from .game import Game, Step
    from .narration import Notice
    from .seats import Colour, Seat, Seats, Source


class Queries:
    game: Game
    between: Between[Mode]
    seats: Seats

    @property
    def state(self) -> State | None:
        return self.game.state

    @property
    def record(self) -> list[str]:
        return self.game.record

    @property
    def history(self) -> list[Step]:
        return self.game.history

    @property
    def palaces_by_year(self) -> list[dict[str, int]]:
        return self.game.palaces_by_year

    @property
    def notices(self) -> list[Notice]:
        return self.between.notices

    @property
    def overlays(self) -> list[Mode]:
        return self.between.overlays

    @property
    def keying(self) -> Keying:
        return self.between.keying

    @property
    def stage(self) -> Stage:
        """A game is over once its last notices are read: until then its last decision may still be taken back."""
        return stage_of(self.game.state, self.between.notices)

    @property
    def players(self) -> tuple[Colour, ...]:
        return self.seats.colours

    @property
    def confirm_undo(self) -> bool:
        return asks_undo(self.between.overlays)

    @property
    def not_saved_shown(self) -> bool:
        """Whether the table is told a line could not be saved (and waits for room on the disk)."""
        return bool(self.between.notices) and self.between.notices[0].tag == "error"

    def source_of(self, seat: Seat) -> Source:
        return self.seats.source_of(seat)
