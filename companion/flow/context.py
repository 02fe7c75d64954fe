"""What a mode, a view or the App's additions may ask of the game flow and tell it: the narrow side of the controller,
and the shapes the flow's parts share (a mode, the App's additions), together so that no file of the flow needs
another that needs it back (tests/test_layering.py: no circle, types included).

The controller (``controller.py``) is the one object that implements :class:`Context` (and :class:`Core`, what its
own helpers see: ``routing.py``, ``settling.py``, ``computer_players.py``, ``undo_chain.py``). A mode reads the game
through its typed queries and the table (``seats``), reads and changes the in-between through its own methods
(``between.py``), and asks for everything else by name: a decision applied (saved first), an effect for the
hardware, a new game. It never writes a field of the controller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from display.screen import Screen

if TYPE_CHECKING:
    from hardware.events import InputEvent

    from ..engine import Decision, State
    from .between import Between
    from .game import Game, Step
    from .paging import Parts, Turn
    from .seats import Colour, Seat, Seats, Source
    from .shown import Seen

Stage = Literal["setup", "game", "over"]
"""Where the evening is: choosing seats, playing, or the game-over pages."""

EffectKind = Literal["led", "beep", "sound"]


def stage_of(state: State | None, notices: Sequence[object]) -> Stage:
    """A game is over once its last notices are read: until then its last decision may still be taken back."""
    return "setup" if state is None else "over" if state.is_over and not notices else "game"


@dataclass(frozen=True)
class Effect:
    """Something for the hardware: ``led`` (``target``, ``state``) on a pad, a ``beep``, or the host's new ``sound``
    level (``state``, percent)."""

    kind: EffectKind
    source: Source
    target: str = ""
    state: str = ""


class Context(Protocol):
    @property
    def state(self) -> State | None: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def seats(self) -> Seats: ...

    @property
    def between(self) -> Between[Mode]: ...

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

    @property
    def seen(self) -> Seen:
        """What the table has been shown (shown.py), as of the step before this one settled."""
        ...

    def mode(self) -> Mode:
        """The mode the game is in (under any overlay)."""
        ...

    def decide(self, seat: Seat, decision: Decision, then: Callable[[], None] | None = None) -> None:
        """A decision, saved first; ``then`` once it is (not saved: nothing changed, a notice says why)."""
        ...

    def effect(self, kind: EffectKind, source: Source, target: str = "", state: str = "") -> None: ...

    def start(self) -> None: ...

    def undo(self) -> None: ...

    def dismiss_notice(self) -> None:
        """The top notice is done with."""
        ...

    def next_game(self) -> None: ...

    def abandon(self) -> None: ...


class Core(Context, Protocol):
    """The controller as its own helpers see it (routing, settling, computer players, the undo chain): the narrow
    side plus the game and its record, the shuffles' generator, and what is on top and shown."""

    @property
    def game(self) -> Game: ...

    @property
    def rng(self) -> random.Random: ...

    def top(self) -> Mode: ...

    def screen(self) -> Screen: ...

    def not_saved(self, error: Exception) -> None:
        """Tell the table a line could not be saved (and that nothing changed)."""
        ...


# ---------------------------------------------------------------------- the shape every mode and overlay has:
# its keys, which of them turn parts, the screen (modes/__init__.py)


Paging = Literal["keys", "question", "help", "setup"]
"""How a screen too long for the display is read (paging.py), one kind per mode: ``keys``, its parts turn as its
bindings say (a binding's ``turn``); ``question``, a question the host's ok answers, and ``help``, the rule help: in
small type on one screen where that fits, else their parts turn by themselves (routing.turn_by_itself), so every key
means the same on every part (docs/architecture.md, "Parts and the page timer"); ``setup``, whose parts turn by
themselves too, and the host's ok shows one not yet seen before it starts the game."""

Action = Callable[["Context", "InputEvent", "Seat | None"], "Mode | None"]
"""What a key does: the mode on top next (the mode itself to stay, ``None`` to close an overlay, an overlay to
open). It reads the press's desk and answers on it (desk.py); the seat is the presser's (``None``: the host)."""


@dataclass(frozen=True)
class Binding:
    """One key of a mode, declared once: the same rows route the key (routing.py) and name the host's keys on the
    screen (``Screen.keys``, the simulator's hint line), so what a screen says a key does is what it does
    (tests/flow/test_host_keys.py).

    ``key``: ``ok``, ``left``, ``right``, ``back``, an area or marker key; ``hold:`` and a key (that key held: the
    host's held back; a pad's held key is its plain key too, a keypad's long press, unless a row before names it
    held); ``any`` (every key, held ones included); ``hold:any`` (every held key).
    ``by``: ``host``, ``pads`` (a seated player's own pad, or at setup any pad) or one pad's source.
    ``label``: what the host's hint says the key does; ``None``: it is said nowhere (a pad's key, or a key that does
    what every other one does). ``turn``: where the screen is in parts, the part this key shows first, and then it
    does nothing else (paging.py). ``beneath``: a pad's key that reaches this game mode under any overlay the pad's
    key is not the overlay's (keyed and confirmed on the pad itself: never swallowed)."""

    key: str
    does: Action
    label: str | None = None
    by: str = "host"
    turn: Turn | None = None
    beneath: bool = False

    def takes(self, event: InputEvent) -> bool:
        source = event.source
        if not (source == self.by or (self.by == "pads" and source != "host")):
            return False
        held = event.kind == "hold"
        if self.key == "any" or (held and self.key in (f"hold:{event.key}", "hold:any")):
            return True
        return self.key == event.key and not (held and source == "host")


def close(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
    """A key that closes the overlay it is pressed on."""
    return None


class Mode:
    holds_back = False  # True: the host's held back is this overlay's to answer (not undo)
    paging: Paging = "keys"

    @property
    def asks(self) -> bool:
        """The host's ok answers it: ok first shows the parts not yet seen."""
        return self.paging in ("question", "setup")

    @property
    def reads_whole(self) -> bool:
        """In small type on one screen where that fits; else its parts turn by themselves."""
        return self.paging in ("question", "help")

    @property
    def turns_by_itself(self) -> bool:
        """Its parts turn by themselves though it is not read whole."""
        return self.paging == "setup"

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        """Its keys as they are now, in the order the host's hint names them; the first that takes a key has it. A
        key no binding takes does nothing; on an overlay, a pad's key no binding takes goes to the game's mode
        beneath, if a binding there takes it ``beneath`` (routing.py). Overlays bind the host's keys; only where one
        binds a pad's (the year so far, for its opener) does a pad's key stop there. The labels of the host's are
        ``Screen.keys`` (composition.py)."""
        return ()

    def ok_reads_on(self, ctx: Context) -> bool:
        """Whether ok shows the next part of this screen before it answers or goes on (the footer then says so)."""
        return self.asks and not self.reads_whole

    def stay(self, change: Callable[[Context], object]) -> Action:
        """A key that changes something and leaves this mode on top."""

        def does(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
            change(ctx)
            return self

        return does

    def view(self, ctx: Context) -> Screen:
        raise NotImplementedError


# ---------------------------------------------------------------------- what the App adds to the screens
# What the App adds to the device's screens for what the game flow knows nothing of (the phones: their join code, a
# seat open on two devices, the board check's phones page). Added before a screen is cut into parts for a small
# display, so what is added is paged with the rest and never cut off.
@dataclass(frozen=True)
class DeviceNotes:
    """What the device says of itself at setup (modes/setup.py): why the card file was left out, one line; the
    Wi-Fi network the Pi opened at boot, its name and the rows of its QR code (the password is in nothing else)."""

    card_problem: str | None = None
    hardware: tuple[str, ...] = ()  # what the hardware check found missing (app/hardware_check.py), a line each
    looking: bool = False  # the network unit still looks for Wi-Fi: no address to join by yet
    wifi_name: str | None = None
    wifi_qr: tuple[str, ...] | None = None


class Additions:
    """Adds nothing by default; the App gives the controller its own (app/phones.py)."""

    def __init__(self) -> None:
        self.pages: list[Callable[[Context], Screen]] = []  # board-check pages after the board's own
        self.device = DeviceNotes()  # what setup says of the device (the App sets it)

    def add(self, ctx: Context, top: Mode, screen: Screen) -> Screen:
        """``screen``, the view of ``top`` (the mode or overlay on top), with what the App adds to it."""
        return screen
