"""The game-flow controller: button events in; the screen, cues for pads and record lines out.

One instance runs one game night on the game thread. It is the context the modes (``modes/``) work in: it holds the
table (``seats.py``), the game and its record (``game.py``: saved before it counts), the notices to read
(``narration.py``), the ballots being keyed in, and the effects for the hardware. It routes each key to the mode on
top: an overlay (help, board check, undo question) if one is open, else the mode the game is in, which
:meth:`mode` derives from the game alone. It never sleeps, reads a clock or draws a random number itself: shuffles
come from the ``rng`` it is given (the OS's randomness in play, a seeded one for tests and demos).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from display.screen import Line, Screen
from hardware.events import InputEvent

from ..engine import Decision, State, dump_header, parse_header
from ..i18n import _
from . import computer_players, undo_chain
from .additions import Additions
from .cues import Cues
from .decision_text import decided
from .game import Game, NotSaved, Saver, Step
from .menus import Menu
from .modes import (
    DECISION,
    GAME_OVER,
    KEYPAD_BALLOT,
    NOTICES,
    PRIVATE_BALLOT,
    SETUP,
    BoardCheck,
    KeypadBallot,
    Mode,
    PrivateTurn,
    UndoConfirm,
)
from .modes.evening import let_players_in
from .modes.setup import ok_shows_more, part_to_show
from .modes.this_year import ThisYear
from .modes.undo_confirm import undo_key
from .narration import Notice, narrate
from .notice_store import restore_screen, screen_state
from .paging import Parts
from .seats import Seats
from .settling import settle
from .shown import public_length
from .undo_text import refusal_notice
from .views import keep_names_together

log = logging.getLogger(__name__)

__all__ = ["Controller", "Effect", "KeypadBallot", "Notice", "PrivateTurn", "Saver"]


Stage = Literal["setup", "game", "over"]
"""Where the evening is: choosing seats, playing, or the game-over pages."""


@dataclass(frozen=True)
class Effect:
    """Something for the hardware: ``led`` (``target``, ``state``) on a pad, a ``beep``, or the host's new ``sound``
    level (``state``, percent)."""

    kind: Literal["led", "beep", "sound"]
    source: str
    target: str = ""
    state: str = ""


class Controller:
    def __init__(
        self,
        rng: random.Random,
        *,
        entry: str = "private",
        cues: bool = True,
        clock: Callable[[], str] | None = None,
        saver: Saver | None = None,
    ) -> None:
        self.rng = rng
        self.seats = Seats(entry=entry)
        self.game = Game(saver or Saver(), rng, clock)
        self.storage_problem: str | None = None  # shown on every screen while the store cannot save
        self.cues = Cues(cues)
        self.bots: dict[int, Any] = {}
        self.sync_bots = False  # scripts and autoplay: bots answer at once, the same way every time
        self.notices: list[Notice] = []
        self.overlays: list[Mode] = []
        self.keypad: dict[int, KeypadBallot] = {}
        self.private: PrivateTurn | None = None
        self.effects: list[Effect] = []
        self.parts = Parts()  # which part of a screen too long for the display is shown (paging.py)
        self.menus: list[Menu] = []  # the acting player's menu and the submenus they opened (modes/decision.py)
        self.menus_for: Any = None  # the moment they were built for
        self.additions = Additions()  # what the App adds to the screens (the phones'): additions.py
        self._saved_screen: dict[str, Any] | None = None
        self._bot_rng = random.Random(rng.randrange(1 << 30))
        # The table read the first year's reminder this evening: the next game offers to skip it (first_year.py).
        self.intro_read = False

    # ------------------------------------------------------------------ what the modes and the App read

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
    def stage(self) -> Stage:
        """A game is over once its last notices are read: until then its last decision may still be taken back."""
        state = self.game.state
        return "setup" if state is None else "over" if state.is_over and not self.notices else "game"

    @property
    def players(self) -> tuple[str, ...]:
        return self.seats.players

    @property
    def confirm_undo(self) -> bool:
        return any(type(o) is UndoConfirm for o in self.overlays)

    @property
    def board_page(self) -> int | None:
        return next((o.page for o in reversed(self.overlays) if type(o) is BoardCheck), None)

    def source_of(self, seat: int) -> str:
        return self.seats.source_of(seat)

    def effect(self, kind: Literal["led", "beep", "sound"], source: str, target: str = "", state: str = "") -> None:
        self.effects.append(Effect(kind, source, target, state))

    # ------------------------------------------------------------------ routing

    def mode(self) -> Mode:
        """The mode the game is in; overlays sit on top of it."""
        state = self.game.state
        if state is None:
            return SETUP
        if self.notices:
            return NOTICES
        if state.is_over:
            return GAME_OVER
        if state.phase == "ballot":
            return KEYPAD_BALLOT if self.seats.entry == "keypads" else PRIVATE_BALLOT
        return DECISION

    def handle(self, event: Any) -> None:
        """One input event (an ``InputEvent`` or a ``PadStatus``)."""
        if hasattr(event, "connected"):
            self.seats.pad_status(event.source, event.connected)
            return
        let_players_in(self, event)
        top = self.overlays[-1] if self.overlays else None
        if event.source == "host" and event.kind == "hold" and not (top is not None and top.holds_back):
            if event.key == "back" and self.stage == "game" and not self.confirm_undo:
                self._ask_undo()
        elif event.source == "host" or top is None or (type(top) is ThisYear and top.opened_by == event.source):
            self._route(event)
        elif self.mode() in (KEYPAD_BALLOT, NOTICES):  # keyed, and confirmed, on the pad itself: never swallowed
            self._route(event, self.mode())
        if self.overlays and self.private is not None:  # rules.md 11: a half-keyed ballot goes behind its gate
            self.private.stage = "gate"
        settle(self)
        if self.sync_bots:
            self.run_bots(self._bot_rng)
        self.cues.update(self)
        self._save_screen()

    def _route(self, event: InputEvent, under: Mode | None = None) -> None:
        seat = None if event.source == "host" else self.seats.seat_of(event.source)
        if event.source != "host" and self.stage != "setup" and (seat is None or seat in self.bots):
            return  # a pad nobody sits at, or a computer player's seat
        top = under or (self.overlays[-1] if self.overlays else self.mode())
        after = top if under is None and ok_shows_more(self, event) else top.handle(self, event, seat)
        if under is None and after is None:
            self.overlays.pop()
        elif under is None and after is not None and after is not top:
            self.overlays.append(after)

    def _ask_undo(self) -> None:
        chain = undo_chain.undo_chain(self)
        if isinstance(chain, str):
            self.notices.insert(0, refusal_notice(chain))
        else:
            self.overlays.append(UndoConfirm(chain))

    # ------------------------------------------------------------------ changing the game

    def start(self) -> None:
        """rules.md 2: seats in the order players joined; both decks shuffled (chance, outside the engine)."""
        try:
            self.game.begin(dump_header(self.players, **self.seats.header_extra()))
        except NotSaved as error:
            self._not_saved(error)
            return
        self.bots = computer_players.make_bots(self)
        settle(self)  # settling.py: what is shown, passive counts, the shuffles the rules call for

    def apply(self, seat: int, decision: Decision) -> bool:
        """A decision: saved first, and only then does it count (and show). False: not saved, nothing changed."""
        state = self.game.state
        assert state is not None
        try:
            events = self.game.apply(seat, decision)
        except NotSaved as error:
            self._not_saved(error)
            return False
        after = self.game.state
        assert after is not None
        line = len(self.record) - 1
        notices = narrate(events, after, state.round, self.seats.computers, line, decided(state, seat, decision))
        self.notices += computer_players.under_its_count(self, notices)  # keypads go on under a reveal
        settle(self)
        return True

    def undo(self) -> None:
        """The host's undo (undo_chain.py); what was being keyed or chosen starts afresh."""
        if not undo_chain.take_back(self):
            return
        self.menus = []
        self.menus_for = None
        self.keypad = {}
        self.private = None

    def _not_saved(self, error: Exception) -> None:
        lines = [
            Line(_("Not saved: {why}.").format(why=error), "normal", "red"),
            Line(_("Nothing changed. Make room, then press ok and try again."), "small"),
        ]
        spoken = (_("Not saved") + ".", lines[1].text)  # the system's own words are not said
        self.notices.insert(0, Notice(_("Not saved"), lines, tag="error", spoken=spoken))

    # ------------------------------------------------------------------ computer players, cues, screen, resume

    def pending_bot(self) -> int | None:
        """The computer seat that may decide now (computer_players.py)."""
        return computer_players.pending_bot(self)

    def bot_view(self, seat: int, rng: random.Random) -> Any:
        return computer_players.bot_view(self, seat, rng)

    def apply_bot(self, seat: int, decision: Decision, token: int) -> bool:
        """A computer player's answer, if nothing changed since it was asked (``token``: the record's length then)."""
        if not computer_players.takes_answer(self, seat, decision, token):
            return False
        self.apply(seat, decision)
        self.cues.update(self)
        self._save_screen()
        return True

    def run_bots(self, rng: random.Random) -> None:
        """Let every computer seat that may decide do so now (scripts, autoplay)."""
        while (seat := self.pending_bot()) is not None:
            decision = self.bots[seat].decide(self.bot_view(seat, rng))
            if not self.apply_bot(seat, decision, len(self.record)):
                return

    def take_effects(self) -> list[Effect]:
        effects, self.effects = self.effects, []
        return effects

    def screen(self) -> Screen:
        top = self.overlays[-1] if self.overlays else self.mode()
        screen = replace(top.view(self), keys=(*top.keys(self), *(() if top.holds_back else undo_key(self))))
        banner = [
            Line(_("Pad {pad} is unplugged: plug it back in").format(pad=source), "small", "red")
            for source in sorted(self.seats.unplugged)
        ]
        if self.storage_problem:
            banner.insert(0, Line(self.storage_problem, "small", "red"))
        if banner:
            screen = replace(screen, lines=(*banner, *screen.lines))
        return part_to_show(self, keep_names_together(self.additions.add(self, screen)))

    def public_record(self) -> list[str]:
        """The record as far as it may leave the device: not from a line whose reveals no screen has shown yet."""
        return self.record[: public_length(screen_state(self.notices), len(self.record))]

    def _save_screen(self) -> None:
        if self.stage == "setup":
            return
        state = screen_state(self.notices)
        if state != self._saved_screen:
            self._saved_screen = state
            self.game.saver.screen(state)

    def resume(self, lines: list[str], screen: dict[str, Any]) -> None:
        """Go on with a stored game exactly where it stopped: same seats, shuffles, locked-in ballots (still
        secret), pending notices. An open private menu starts again at its "look away" gate."""
        header = parse_header(lines[0])
        self.seats.sit_as_in(header.players, header.extra)
        self.game.resume(lines)
        self.bots = computer_players.make_bots(self)
        self.notices = restore_screen(screen)
        self._saved_screen = screen_state(self.notices)
        # Past its reminder, the table read it this evening: the next game shows only how to set up the board.
        state = self.game.state
        reading = any(n.tag == "reminder" for n in self.notices)
        self.intro_read = state is not None and state.phase != "setup" and not reading
        settle(self)
