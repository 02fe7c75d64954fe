"""The game-flow controller: button events in; the screen, cues for pads and record lines out.

One instance runs one game night on the game thread. It holds the table (``seats.py``), the game and its record
(``game.py``: saved before it counts), the in-between (``between.py``: the notices to read, the overlays, what
is being keyed) and the effects for the hardware. It routes each key to the mode on top: an overlay (help, board
check, undo question) if one is open, else the mode the game is in, which :meth:`mode` derives from the game alone.
A press is one straight path (:meth:`handle`): the mode answers on a desk (``desk.py``: the flow's values, and a list
for its requests), calling nothing back; the controller commits the requests, settles what follows once
(``settling.py``), and saves the screen state. Its typed queries are ``queries.py``'s. It never sleeps, reads a
clock or draws a random number itself: shuffles come from the ``rng`` it is given (the OS's randomness in play, a
seeded one for tests and demos).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from display.screen import Screen
from hardware.events import InputEvent, PadStatus, PageTick

from ..engine import Decision, dump_header, parse_header
from . import computer_players, undo_chain
from .between import Between, Keying, KeypadBallot, PrivateTurn
from .context import Additions, DeviceNotes, Effect, EffectKind
from .cues import Cues
from .decision_text import decided
from .desk import Ask, Decide, Desk, Request
from .game import Game, NotSaved, Saver
from .modes import Mode, game_mode
from .narration import Notice, narrate
from .not_saved import not_saved_notice
from .notice_store import restore_screen, screen_state
from .paging import Parts
from .queries import Queries
from .routing import route, turn_by_itself
from .seats import Seat, Seats, Source
from .settling import settle, settle_notices
from .shown import Seen, table_has_seen

log = logging.getLogger(__name__)

__all__ = ["Controller", "Effect", "KeypadBallot", "Notice", "PrivateTurn", "Saver"]


class Controller(Queries):
    def __init__(
        self,
        rng: random.Random,
        *,
        entry: str = "private",
        cues: bool = True,
        clock: Callable[[], str] | None = None,
        saver: Saver | None = None,
        parts: Parts | None = None,
        storage_problem: str | None = None,
        bot_level: str = "normal",
        bot_work: int | None = None,
        device: DeviceNotes | None = None,
    ) -> None:
        """Everything the device knows of itself comes in here (the App's display, store and settings): nothing
        writes a field of the controller after it is built."""
        self.rng = rng
        self.seats = Seats(entry=entry, bot_level=bot_level, bot_work=bot_work)
        self.game = Game(saver or Saver(), rng, clock)
        self.between: Between[Mode] = Between()
        self.parts = parts or Parts()  # which part of a screen too long for the display is shown (paging.py)
        self.storage_problem = storage_problem  # shown on every screen while the store cannot save
        self.cues = Cues(cues)
        self.bots: dict[Seat, Any] = {}
        self.sync_bots = False  # scripts and autoplay: bots answer at once, the same way every time
        self.effects: list[Effect] = []
        self.additions = Additions()  # what the App adds to the screens (the phones'): context.py
        self.seen = Seen()  # what the table has been shown: built once per step, when it has settled (shown.py)
        if device is not None:
            self.additions.device = device  # what setup says of the device
        self._bot_rng = random.Random(rng.randrange(1 << 30))
        # The table read the first year's reminder this evening: the next game offers to skip it (first_year.py).
        self.intro_read = False

    def effect(self, kind: EffectKind, source: Source, target: str = "", state: str = "") -> None:
        self.effects.append(Effect(kind, source, target, state))

    # ------------------------------------------------------------------ routing

    def mode(self) -> Mode:
        """The mode the game is in; overlays sit on top of it."""
        return game_mode(self.game.state, self.between.notices, self.seats.entry)

    def top(self) -> Mode:
        """What the screen is about: the newest overlay, else the mode the game is in."""
        return self.between.top_overlay() or self.mode()

    def handle(self, event: InputEvent | PadStatus | PageTick) -> None:
        """One input event: a key, a pad plugged in or out, or a few seconds passed (a part turns by itself). The
        mode on top answers on a desk (desk.py) with what it wants done; that is committed here, in order, and
        what follows it is settled once."""
        if isinstance(event, PadStatus):
            self.seats.pad_status(Source(event.source), event.connected)
            return
        desk = self.desk()
        if isinstance(event, PageTick):
            if not turn_by_itself(desk):
                return
        else:
            route(desk, event)
        self.commit(desk.requests)
        if self.between.overlays and self.between.keying.private is not None:
            self.between.keying.private.to("gate")  # rules.md 11: a half-keyed ballot goes behind its gate
        self._settle()
        if self.sync_bots:
            self.run_bots(self._bot_rng)
        self.cues.update(self.desk())
        self._save_screen()

    def _settle(self) -> None:
        """What follows a change, once (settling.py); then what the table has seen is built, once, for the step's
        screens, phones, voice and undo key to read."""
        settle(self)
        self.seen = table_has_seen(self.game.state, self.game.history, self.between.notices, self.bots)

    def desk(self) -> Desk:
        """The flow's values as they are now, for the mode on top to read and answer on (desk.py)."""
        state = self.game.state
        return Desk(
            state=state,
            stage=self.stage,
            seats=self.seats,
            between=self.between,
            parts=self.parts,
            record=self.game.record,
            history=self.game.history,
            palaces_by_year=self.game.palaces_by_year,
            players=self.seats.colours,
            bots=self.bots,
            intro_read=self.intro_read,
            additions=self.additions,
            confirm_undo=self.confirm_undo,
            seen=self.seen,
            game_mode=self.mode(),
            storage_problem=self.storage_problem,
            effects=self.effects,
        )

    def commit(self, requests: list[Request]) -> None:
        """What a press asked for, in the order it asked: a decision saved and applied (and its follow-up, once
        saved), a notice done with, a game started, undone, given up or the next one."""
        for request in requests:
            match request:
                case Decide(seat, decision, then):
                    self.decide(seat, decision, then)
                case Ask(what):  # start, undo, dismiss_notice, next_game, abandon: the methods below
                    getattr(self, what)()

    # ------------------------------------------------------------------ changing the game

    def start(self) -> None:
        """rules.md 2: seats in the order players joined; both decks shuffled (chance, outside the engine)."""
        try:
            self.game.begin(dump_header(self.players, **self.seats.header_extra()))
        except NotSaved as error:
            self.not_saved(error)
            return
        self.bots = computer_players.make_bots(self)  # the press then settles (settling.py): the first shuffles

    def apply(self, seat: Seat, decision: Decision) -> bool:
        """A decision: saved first, and only then does it count (and show). False: not saved, nothing changed."""
        trial = self.game.trial(seat, decision)
        state, after, line = trial.before, trial.after, len(self.record)  # line: its index once saved
        said = decided(state, seat, decision)
        notices = narrate(trial.events, after, state.round, self.seats.computer_colours, line, said)
        queue: Between[Mode] = Between(list(self.between.notices))  # notices are values: a copy of the queue
        queue.add(computer_players.under_its_count(queue, notices))  # keypads go on under a reveal
        settle_notices(queue, after, self.bots, self.seats.colours)
        try:  # the line and the screen it leads to, in one commit
            self.game.commit(trial, screen_state(queue.notices))
        except NotSaved as error:
            self.not_saved(error)
            return False
        self.between.keep_notices(queue.notices)
        return True  # what follows it is settled once, after the press or the answer (handle, apply_bot)

    def decide(self, seat: Seat, decision: Decision, then: Callable[[], None] | None = None) -> None:
        """A decision now (``apply``), and ``then`` once it is saved."""
        if self.apply(seat, decision) and then is not None:
            then()

    def undo(self) -> None:
        """The host's undo (undo_chain.py); what was being keyed or chosen starts afresh."""
        if undo_chain.take_back(self):
            self.between.keying = Keying()

    def dismiss_notice(self) -> None:
        """The top notice is done with: the table read the first year's reminder once its last page goes."""
        notice = self.between.dismiss()
        if notice.tag == "reminder" and (notice.page is None or notice.page[0] == notice.page[1]):
            self.intro_read = True

    def next_game(self) -> None:
        """The evening goes on: a new game at setup, the same table (seats, colours, computer players, ballot entry,
        language) offered as it was, all of it changeable there. The one reset: a new game, a new in-between."""
        self.game = Game(self.game.saver, self.rng, self.game.clock)
        self.bots = {}
        self.between = Between()
        self.parts = self.parts.fresh()

    def abandon(self) -> None:
        """The host gives an unfinished game up: it stays in the archive marked abandoned; a new game is set up."""
        try:
            self.game.saver.abandon()
        except Exception as error:  # the store says why
            self.not_saved(error)
            return
        self.next_game()

    def not_saved(self, error: Exception) -> None:
        self.between.tell(not_saved_notice(error))

    def open(self, overlay: Mode) -> None:
        """An overlay from outside the modes (the start-up question, a phone's seat request) goes on top."""
        self.between.open(overlay)

    def add_to_screens(self, additions: Additions) -> None:
        """What the App adds to the screens from now on (the phones: their join code, the phones page)."""
        self.additions = additions

    def tell_device(self, device: DeviceNotes) -> None:
        """What setup says of the device, as it changes (the network unit found Wi-Fi, or opened the Pi's own)."""
        self.additions.device = device

    def answer_at_once(self, at_once: bool) -> None:
        """Scripts and autoplay: computer players answer within the press, the same way every time."""
        self.sync_bots = at_once

    def hand_over(self, seat: Seat) -> None:
        """``seat`` changes hands (a phone takes it over): what its old holder keyed is cleared, and a private menu
        of theirs goes back behind its gate for the new one."""
        self.between.keying.clear(seat)

    # ------------------------------------------------------------------ computer players, cues, screen, resume

    def pending_bot(self) -> Seat | None:
        """The computer seat that may decide now (computer_players.py)."""
        return computer_players.pending_bot(self)

    def bot_view(self, seat: Seat, rng: random.Random) -> Any:
        return computer_players.bot_view(self, seat, rng)

    def apply_bot(self, seat: Seat, decision: Decision, token: int) -> bool:
        """A computer player's answer, if nothing changed since it was asked (``token``: the record's length then)."""
        if not computer_players.takes_answer(self, seat, decision, token):
            return False
        if self.apply(seat, decision):
            self._settle()
        self.cues.update(self.desk())
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
        """The part of the screen the display shows now (composition.py); it changes nothing but which part."""
        return self.desk().screen()

    def _save_screen(self) -> None:
        if self.stage != "setup":
            self.game.save_screen(screen_state(self.between.notices))

    def public_record(self) -> list[str]:
        """The record as far as it may leave the device: not from a line whose reveals no screen has shown yet."""
        return self.record[: self.seen.public_length(len(self.record))]

    def resume(self, lines: list[str], screen: dict[str, Any]) -> None:
        """Go on with a stored game exactly where it stopped: same seats, shuffles, locked-in ballots (still
        secret), pending notices. An open private menu starts again at its "look away" gate."""
        header = parse_header(lines[0])
        self.seats.sit_as_in(header.players, header.extra)
        notices = restore_screen(screen)
        self.game.resume(lines, screen_state(notices))
        self.bots = computer_players.make_bots(self)
        self.between = Between(notices)
        # Past its reminder, the table read it this evening: the next game shows only how to set up the board.
        state = self.game.state
        reading = any(n.tag == "reminder" for n in notices)
        self.intro_read = state is not None and state.phase != "setup" and not reading
        self._settle()
