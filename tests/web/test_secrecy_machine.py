"""Secrecy over whole evenings, beyond keying (issue 41): a stateful property test.

Two evenings run side by side (twins A and B) and are driven by the same public actions: the table playing, phones
asking for seats (queued, refused, given; Red's keyed or locked seat included), the host undoing, restarts that
resume from the store, a computer seat. They differ only in Red's secrets: the keys Red's pad or phone presses and
leaves keyed, and, in B, the marker values of one of Red's ballots (the same area and number of markers, so the
round's reveal reads the same; its count does not). Every other channel (the LCD, the log, the voice, the table view,
every phone that never held Red's seat) must hear the same, entry for entry, until the table is shown something
that legitimately differs: a notice on top that reads differently (the count of Red's other ballot). And no phone is
ever sent a ballot it did not lock in itself (rules.md 11; issue 41, 1 to 3).

Each action is one rule; ``step`` is where everything goes through the App, recording what each channel heard.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.app import App
from companion.engine import AREAS, Ballot, Decision
from companion.flow.autoplay import Table
from companion.i18n import language
from companion.store import Store
from companion.web.publisher import SeatRequest, WebHello, WebPress
from hardware.events import InputEvent
from tests.helpers import app_settings
from tests.web.memory import Pages

PHONES = ("new", "other")
CLOCK = "2026-01-01T20:00:00Z"
KEYS = ("area:castello", "area:dorsoduro", "area:san_polo", "marker:0", "marker:1", "marker:2", "marker:3", "back")
Entry = tuple[str, str]


class Heard(logging.Handler):
    """The log, heard by whichever twin is stepping (both live in one process)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.twin: Twin | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.twin is not None:
            self.twin.hear("log", f"{record.levelname} {record.name}: {record.getMessage()}")


def lcd_entry(shown: Any) -> str:
    """What the LCD is sent: a screen model (the renderer is pure), or the image's bytes, hashed."""
    if hasattr(shown, "tobytes"):
        return hashlib.sha256(shown.tobytes()).hexdigest()
    return repr(shown)


class Steady(random.Random):
    """The table's draws: a choice is one draw whatever the list's length, so a twin whose secret seat has other
    legal ballots (another hand) still draws everybody's public choices the same."""

    def choice(self, seq: Any) -> Any:
        return seq[int(self.random() * len(seq))]


class Twin:
    """One evening: the App (started again from its store at a restart), its pages and what each channel heard."""

    def __init__(
        self, name: str, seed: int, computer: bool, other_ballot: int | None, log: Heard, red_ballots: list[Ballot]
    ) -> None:
        memory = Path("/dev/shm")  # a restart resumes from the store's files; in memory, a commit's sync is cheap
        self.folder = Path(tempfile.mkdtemp(prefix=f"doge-twin-{name}-", dir=memory if memory.is_dir() else None))
        self.seed, self.computer, self.other_ballot, self.log = seed, computer, other_ballot, log
        self.stream: list[Entry] = []  # every channel's entries, and a marker before each public step's
        self.red_holders: set[str] = set()  # phones that ever held Red's seat: their frames are Red's own
        self.locked_by: dict[str, list[dict[str, Any]]] = {phone: [] for phone in PHONES}
        self.ballots = 0  # Red's ballots so far
        self.red_ballots = red_ballots  # A's, in order (B keys the same area and number of markers)
        self.heard: list[Entry] = []  # during the step in progress
        self.rng = Steady(seed)
        self.app = self._start()
        self.table = self._table()
        self.table.setup()

    def _start(self) -> App:
        app = App(app_settings(self.folder), seed=self.seed, store=Store(self.folder / "games"))
        held = app.store.phones(app.saver.game) if app.saver.game is not None else None
        self.pages = Pages(app, list(PHONES), held)
        app.display.show = lambda shown: self.hear("lcd", lcd_entry(shown))  # type: ignore[method-assign,assignment]
        app.voice.say = lambda text, *_moment: self.hear("voice", f"{language()} {text}")  # type: ignore[method-assign]
        app.controller.sync_bots = True
        return app

    def _table(self) -> Table:
        twin = self

        class Players(Table):
            def keying(self, seat: int, legal: tuple[Decision, ...], choice: Decision) -> Decision:
                if seat != 0 or not isinstance(choice, Ballot):
                    return choice
                twin.clear_red()
                twin.ballots += 1
                if twin.other_ballot is None:  # A: its ballots, for B to follow
                    twin.red_ballots.append(choice)
                    return choice
                if twin.ballots > len(twin.red_ballots):
                    return choice
                a = twin.red_ballots[twin.ballots - 1]  # B: the same area and number of markers as A's (public)
                same = [
                    b for b in legal if isinstance(b, Ballot) and (b.area, len(b.markers)) == (a.area, len(a.markers))
                ]
                if twin.ballots == twin.other_ballot:  # other values: the count differs, nothing else
                    return next((b for b in same if b != a), a if a in same else choice)
                return a if a in same else next(iter(same), choice)

        pads = ["1", "2", "3"]
        return Players(self.app.controller, self.rng, pads, True, handle=self.press, computers=int(self.computer))

    def hear(self, channel: str, entry: str) -> None:
        self.heard.append((channel, entry.replace(str(self.folder), "<dir>")))

    def step(self, event: Any, public: bool = True) -> None:
        """One event through the App; a public one is marked with what the table reads after it (the top notice)."""
        self.log.twin = self
        try:
            self.app.step(event)
        finally:
            self.log.twin = None
        controller = self.app.controller
        if public:  # first what the table reads now, then what each channel heard of it
            notice = controller.round.notices[0] if controller.round.notices else None
            shown = "" if notice is None else f"{notice.title} {[line.text for line in notice.lines]}"
            self.stream.append(("step", shown))
        self.stream += self.heard
        self.heard.clear()
        for name in [*PHONES, "table"]:
            for frame in self.pages.take(name):
                self.check_ballots(name, frame)
                channel = "red's phone" if name in self.red_holders else name
                self.stream.append((channel, frame))

    def check_ballots(self, phone: str, frame: str) -> None:
        """No phone is ever sent a ballot it did not lock in itself (a takeover's locked ballot, a restart)."""
        sent = json.loads(frame)
        mine = sent.get("mine") if isinstance(sent, dict) else None
        if mine and mine.get("pending") is not None:
            assert mine["pending"] in self.locked_by[phone], f"{phone} was sent a ballot it did not key: {mine}"

    def holder(self, source: str) -> str | None:
        phones = self.app.phones
        return phones.seats.holder(source) if phones is not None else None

    def press(self, event: InputEvent) -> None:
        """A pad's key, as the table's own: through the phone that holds its seat, if one does. Red's keys while
        ballots are keyed are secret (no marker), its ok and everything else public."""
        controller = self.app.controller
        phone = self.holder(event.source)
        state = controller.state
        red = controller.seats.seat_of(event.source) == 0 if state is not None else False
        secret = red and state is not None and state.phase == "ballot" and event.key != "ok"
        if phone is None:
            self.step(event, public=not secret)
            return
        seat = controller.seats.seat_of(event.source)
        keyed = controller.round.keying.keypad.get(seat) if seat is not None else None
        if event.key == "ok" and keyed is not None and keyed.area is not None:  # what its ok locks in, if it does
            ballot = {"area": AREAS[keyed.area], "markers": sorted(keyed.markers, reverse=True)}
            self.locked_by[phone].append(ballot)
        self.step(WebPress(phone, event.key, self.pages.version(phone)), public=not secret)

    def turn(self) -> None:
        top = self.app.controller.round.top_overlay()
        opener = getattr(top, "opened_by", None)
        if opener is not None:  # the year so far, opened by a pad's back: any key of that pad closes it
            self.press(InputEvent(opener, "ok"))
            return
        self.table.turn()

    def lock_red(self) -> None:
        state = self.app.controller.state
        assert state is not None
        legal = tuple(b for b in state.legal(0) if isinstance(b, Ballot))
        ballot = self.table.keying(0, legal, legal[0]) if legal else None
        if not isinstance(ballot, Ballot):
            return
        source = self.red_source()
        for key in (f"area:{AREAS[ballot.area]}", *(f"marker:{value}" for value in ballot.markers), "ok"):
            self.press(InputEvent(source, key))

    def red_source(self) -> str:
        return self.app.controller.seats.source_of(0)

    def red_keying(self) -> bool:
        controller = self.app.controller
        state = controller.state
        return (
            controller.stage == "game"
            and state is not None
            and state.phase == "ballot"
            and 0 in (a.player for a in state.awaiting())
            and not state.locked_in(0)
            and not controller.round.overlays  # the start-up question, a takeover, undo: keys answer them
            and not {"resume", "takeover", "undo", "reminder"} & set(self.app.screen_tags)
        )

    def clear_red(self) -> None:
        while self.app.controller.round.keying.has_keyed(0):
            self.press(InputEvent(self.red_source(), "back"))

    def restart(self) -> None:
        self.log.twin = self
        try:
            self.app.close()
            self.app = self._start()
        finally:
            self.log.twin = None
        self.table.controller = self.app.controller
        for phone in PHONES:
            self.step(WebHello(phone))

    def close(self) -> None:
        self.app.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def compare(a: list[Entry], b: list[Entry]) -> bool:
    """Whether the twins still read the same (False: a notice on top reads differently, from then on they may
    differ); fails at an entry of any other channel that differs before that."""
    a, b = ([entry for entry in stream if entry[0] != "red's phone"] for stream in (a, b))
    for index, (one, other) in enumerate(zip(a, b, strict=False)):
        if one == other:
            continue
        if one[0] == other[0] == "step":
            return False
        raise AssertionError(f"entry {index}: A heard {one!r}, B heard {other!r}")
    assert len(a) == len(b), f"A heard {a[len(b) :]!r}, B heard {b[len(a) :]!r}"
    return True


class Evenings(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.log = Heard()
        logging.getLogger().addHandler(self.log)
        self.patch = pytest.MonkeyPatch()
        self.patch.setattr("companion.app.app.now", lambda: CLOCK)
        self.patch.setattr("companion.store.games.now", lambda: CLOCK)
        self.patch.setattr("companion.app.app.render", lambda screen, size, text_size=None: screen)
        self.twins: list[Twin] = []
        self.same = True
        self.steps = 0
        self.did: dict[str, int] = {}

    @initialize(seed=st.integers(0, 1 << 16), computer=st.booleans(), other_ballot=st.integers(1, 5))
    def evening(self, seed: int, computer: bool, other_ballot: int) -> None:
        ballots: list[Ballot] = []
        self.twins = [
            Twin("a", seed, computer, None, self.log, ballots),
            Twin("b", seed, computer, other_ballot, self.log, ballots),
        ]

    def each(self, do: Callable[[Twin], None]) -> None:
        for twin in self.twins:
            do(twin)
        self.steps += 1
        name = getattr(do, "__name__", "?")
        self.did[name] = self.did.get(name, 0) + 1

    def playing(self) -> bool:
        app = self.twins[0].app
        return app.controller.stage != "over" and "takeover" not in app.screen_tags

    @precondition(lambda self: self.twins and self.playing())
    @rule(turns=st.integers(1, 40))
    def play(self, turns: int) -> None:
        for _turn in range(turns):
            if not self.playing():
                return
            self.each(Twin.turn)

    @precondition(lambda self: self.twins and self.twins[0].red_keying() and self.playing())
    @rule(a=st.lists(st.sampled_from(KEYS), max_size=4), b=st.lists(st.sampled_from(KEYS), max_size=4))
    def red_keys(self, a: list[str], b: list[str]) -> None:
        """Red keys something (or nothing) and leaves it keyed: the twins differ here, and only here."""
        for twin, keys in zip(self.twins, (a, b), strict=True):
            for key in keys:
                twin.press(InputEvent(twin.red_source(), key))
        self.did["red keys"] = self.did.get("red keys", 0) + 1

    @precondition(lambda self: self.twins and self.twins[0].red_keying() and self.playing())
    @rule()
    def red_locks_in(self) -> None:
        """Red locks a ballot in now (so that a phone may ask for a locked seat)."""
        self.each(Twin.lock_red)

    @precondition(lambda self: self.twins and self.twins[0].app.controller.stage == "game")
    @rule(phone=st.sampled_from(PHONES), colour=st.sampled_from(("red", "blue", "green", "yellow")))
    def ask_for_a_seat(self, phone: str, colour: str) -> None:
        """A phone asks (again: a request replaces its last); one that asks for Red's seat may get it, so from now
        on its frames are Red's own and not compared."""

        def ask(twin: Twin) -> None:
            if colour == "red":
                twin.red_holders.add(phone)
            twin.step(WebHello(phone))
            twin.step(SeatRequest(phone, colour))

        self.each(ask)

    @precondition(lambda self: self.twins and "takeover" in self.twins[0].app.screen_tags)
    @rule(give=st.booleans())
    def host_answers(self, give: bool) -> None:
        def answer(twin: Twin) -> None:
            for key in ("left", "right") if give else ("ok",):
                twin.step(InputEvent("host", key))

        self.each(answer)

    @precondition(lambda self: self.twins and self.playing())
    @rule()
    def undo(self) -> None:
        def undo(twin: Twin) -> None:
            twin.step(InputEvent("host", "back", "hold"))
            if "undo" in twin.app.screen_tags:
                twin.step(InputEvent("host", "ok"))

        self.each(undo)

    @precondition(lambda self: self.twins and self.twins[0].app.controller.stage == "game")
    @rule()
    def restart(self) -> None:
        self.each(Twin.restart)

    @invariant()
    def nobody_else_hears_reds_secrets(self) -> None:
        if self.twins and self.same:
            self.same = compare(self.twins[0].stream, self.twins[1].stream)

    def teardown(self) -> None:
        for twin in self.twins:
            twin.close()
        logging.getLogger().removeHandler(self.log)
        self.patch.undo()
        if self.twins:
            a = self.twins[0]
            RUNS.append((self.steps, len(a.stream), self.same))
            print(
                f"secrecy machine: {self.steps} steps {self.did}, {len(a.stream)} entries, same to the end: {self.same}"
            )


RUNS: list[tuple[int, int, bool]] = []

EVENINGS = int(os.environ.get("DOGE_SECRECY_EVENINGS", "15"))  # more: DOGE_SECRECY_EVENINGS=200
Evenings.TestCase.settings = settings(max_examples=EVENINGS, stateful_step_count=20, deadline=None)
test_secrecy_over_whole_evenings = Evenings.TestCase
