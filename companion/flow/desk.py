"""What one press hands the mode on top: the flow's values as they are at the press, and a list for what the mode
wants done. The mode changes the in-between through its own methods (``between.py``) and asks for
everything else (a decision, a notice done with, a new game) by adding a request; it calls nothing back. The
controller commits the requests in order once the mode has answered (``Controller.handle``), then settles what
follows them once.

A decision's follow-up (a keyed ballot locked in, the pad's lights off) comes with it as ``then``: run by the
controller only once the decision is saved, so a ballot the store refused stays keyed, to try again with ok.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .composition import compose
from .context import Additions, Effect, EffectKind, Mode, Stage

if TYPE_CHECKING:
    from display.screen import Screen

    from ..engine import Decision, State
    from .between import Between
    from .game import Step
    from .paging import Parts
    from .seats import Colour, Seat, Seats, Source
    from .shown import Seen


@dataclass(frozen=True)
class Decide:
    """A decision to save and apply; ``then`` once it is saved."""

    seat: Seat
    decision: Decision
    then: Callable[[], None] | None = None


@dataclass(frozen=True)
class Ask:
    """A request by name that needs the controller's own fields: the top notice done with (``dismiss_notice``),
    the game started (``start``), the host's undo (``undo``), the next game (``next_game``), the game given up
    (``abandon``)."""

    what: Literal["start", "undo", "dismiss_notice", "next_game", "abandon"]


Request = Decide | Ask


@dataclass
class Desk:
    """The narrow side of the controller for one press (``context.Context``): plain values, read without calling
    back into the controller, and ``requests`` for what the press wants done."""

    state: State | None
    stage: Stage
    seats: Seats
    between: Between[Mode]
    parts: Parts
    record: list[str]
    history: list[Step]
    palaces_by_year: list[dict[str, int]]
    players: tuple[Colour, ...]
    bots: Mapping[Seat, Any]
    intro_read: bool
    additions: Additions
    confirm_undo: bool
    seen: Seen  # what the table has been shown, built once the step before settled (shown.py)
    game_mode: Mode  # the mode the game is in, under any overlay
    storage_problem: str | None
    effects: list[Effect]  # the controller's own list: what is asked of the hardware goes there in order
    requests: list[Request] = field(default_factory=list)

    def mode(self) -> Mode:
        return self.game_mode

    def top(self) -> Mode:
        """What the screen is about: the newest overlay, else the mode the game is in."""
        return self.between.top_overlay() or self.game_mode

    def screen(self) -> Screen:
        """The part of the screen shown now (composition.py): composing it changes nothing but which part."""
        return compose(self, self.top(), self.storage_problem)

    def decide(self, seat: Seat, decision: Decision, then: Callable[[], None] | None = None) -> None:
        self.requests.append(Decide(seat, decision, then))

    def effect(self, kind: EffectKind, source: Source, target: str = "", state: str = "") -> None:
        self.effects.append(Effect(kind, source, target, state))

    def start(self) -> None:
        self.requests.append(Ask("start"))

    def undo(self) -> None:
        self.requests.append(Ask("undo"))

    def dismiss_notice(self) -> None:
        self.requests.append(Ask("dismiss_notice"))

    def next_game(self) -> None:
        self.requests.append(Ask("next_game"))

    def abandon(self) -> None:
        self.requests.append(Ask("abandon"))
