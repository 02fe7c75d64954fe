"""Secrecy over whole evenings, beyond keying (rules.md 11): a stateful property test.

Two evenings run side by side (twins A and B) and are driven by the same public actions: the table playing, phones
asking for seats (queued, abandoned, refused, given; Red's keyed or locked seat included), the host undoing,
restarts that resume from the store (a clean stop, and the files as a kill leaves them), a computer seat. They
differ only in Red's secrets: the keys Red's pad or phone presses and leaves keyed, and, in B, the marker values of
one of Red's ballots (the same area and number of markers, so the round's reveal reads the same; its count does
not). Every other channel (the LCD, the log, the voice's WAV files, the table view, every phone that never held
Red's seat, ``doge-companion export``) must hear the same, entry for entry, until the table is shown something that
legitimately differs: a notice on top that reads differently (the count of Red's other ballot). No phone is ever
sent a ballot it did not lock in itself, nor keys it did not press; and an undo puts the table view's board back by
exactly the decision's own changes, turned around (record-format.md 4.1), so the view never showed more than they.
(Rules.md 11; the three leaks it catches when their fix is reverted are in docs/web-pads.md "Tests".)

The states that matter are reached by construction: :meth:`Evenings.reds_seat_asked_for` plays to a ballot round
where Red is awaited beside another player, has Red key part of a ballot (the twins differently, often one of them
nothing) or lock one in, has a phone ask for Red's seat in one of four ways, then may restart;
:meth:`Evenings.undo_while_a_count_is_unseen` plays to a decision whose count has not reached a screen, one whose
count made the rules change the board if it comes within reach, and takes it back.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
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
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.app import App
from companion.cli.command import main as command
from companion.engine import AREAS, Ballot, Count, Decision
from companion.engine.changes import AdvisorBack, BuildPalace, MoveAdvisor, MoveHouses, PlaceHouses, TakeAdvisor
from companion.engine.undo import undo_line, undo_record
from companion.flow.autoplay import Table
from companion.i18n import language
from companion.store import Store
from companion.web.publisher import SeatRequest, WebHello, WebPress
from hardware.events import InputEvent, PageTick
from hardware.speech import WavCapture
from tests.helpers import app_settings
from tests.twin import TableTwin
from tests.web.memory import Pages

PHONES = ("new", "other")
CLOCK = "2026-01-01T20:00:00Z"
KEYS = ("area:castello", "area:dorsoduro", "area:san_polo", "marker:0", "marker:1", "marker:2", "marker:3", "back")
FATES = ("given", "refused", "queued", "abandoned")
BOARD = (PlaceHouses, MoveHouses, BuildPalace, TakeAdvisor, MoveAdvisor, AdvisorBack)
REACH = 300  # turns a scenario plays at most to reach its state
ESPEAK = shutil.which("espeak-ng")  # the voice's WAVs are compared only with the real engine (none: said, skipped)
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


def ballot_keys(ballot: Ballot) -> list[str]:
    return [f"area:{AREAS[ballot.area]}", *(f"marker:{value}" for value in ballot.markers)]


def after_count(events: tuple[Any, ...]) -> bool:
    """Whether the rules changed the board after a count of these events (a tie's advisor, the Quarantia's)."""
    counted = False
    for event in events:
        counted = counted or isinstance(event, Count)
        if counted and isinstance(event, BOARD):
            return True
    return False


class Twin:
    """One evening: the App (started again from its store at a restart), its pages and what each channel heard."""

    def __init__(
        self, name: str, seed: int, computer: bool, other_ballot: int | None, log: Heard, red_ballots: list[Ballot]
    ) -> None:
        memory = Path("/dev/shm")  # a restart resumes from the store's files; in memory, a commit's sync is cheap
        self.root = Path(tempfile.mkdtemp(prefix=f"doge-twin-{name}-", dir=memory if memory.is_dir() else None))
        self.folder = self.root / "state-0"
        self.starts = 0
        self.seed, self.computer, self.other_ballot, self.log = seed, computer, other_ballot, log
        self.stream: list[Entry] = []  # every channel's entries, and a marker before each public step's
        self.red_holders: set[str] = set()  # phones that ever held Red's seat: their frames are Red's own
        self.locked_by: dict[str, list[dict[str, Any]]] = {phone: [] for phone in PHONES}
        self.pressed: set[str] = set()  # phones that pressed a key since they last got a seat
        self.board: dict[str, Any] | None = None  # the board in the table view's last frame
        self.ballots = 0  # Red's ballots so far
        self.red_ballots = red_ballots  # A's, in order (B keys the same area and number of markers)
        self.heard: list[Entry] = []  # during the step in progress
        self.rng = Steady(seed)
        self.app = self._start()
        self.table = self._table()
        self.table.setup()

    def _start(self) -> App:
        self.starts += 1
        voice = WavCapture(self.root / f"voice-{self.starts:02d}") if ESPEAK else None
        app = App(app_settings(self.folder), seed=self.seed, store=Store(self.folder / "games"), sound_output=voice)
        held = app.store.phones(app.saver.game) if app.saver.game is not None else None
        self.pages = Pages(app, list(PHONES), held)

        def show(shown: Any) -> bool:
            self.hear("lcd", lcd_entry(shown))
            return True

        app.display.show = show  # type: ignore[method-assign,assignment]
        say = app.voice.say

        def said(text: str, moment: object = None, adds: bool = False) -> None:
            self.hear("voice", f"{language()} {app.voice.level} {text}")
            if self.secrets():  # the real engine's WAV bytes while it matters (each is a process: CI's time)
                self.hear("voice", "a WAV")
                say(text, moment, adds)

        app.voice.say = said
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
        self.heard.append((channel, entry.replace(str(self.root), "<dir>")))

    def step(self, event: Any, public: bool = True) -> None:
        """One event through the App; a public one is marked with what the table reads after it (the top notice)."""
        self.log.twin = self
        try:
            self.app.step(event)
        finally:
            self.log.twin = None
        controller = self.app.controller
        if public:  # first what the table reads now, then what each channel heard of it
            notice = controller.between.notices[0] if controller.between.notices else None
            shown = "" if notice is None else f"{notice.title} {[line.text for line in notice.lines]}"
            self.stream.append(("step", shown))
        self.stream += self.heard
        self.heard.clear()
        red = self.holder(self.red_source()) if controller.seats.joined else None
        if red is not None and red not in self.red_holders:
            self.red_holders.add(red)
            self.pressed.discard(red)
        for name in [*PHONES, "table"]:
            for frame in self.pages.take(name):
                self.check_ballots(name, frame)
                channel = "red's phone" if name in self.red_holders else name
                self.stream.append((channel, frame))

    def check_ballots(self, phone: str, frame: str) -> None:
        """No phone is ever sent a ballot it did not lock in itself (a takeover's locked ballot, a restart), nor keys
        it did not press (a keyed ballot it took over is cleared). The table view's board is kept for the undo."""
        sent = json.loads(frame)
        if not isinstance(sent, dict):
            return
        if phone == "table":
            if sent.get("public") is not None:
                self.board = sent["public"]["snapshot"]
            return
        mine = sent.get("mine")
        if not mine:
            return
        if mine.get("pending") is not None:
            assert mine["pending"] in self.locked_by[phone], f"{phone} was sent a ballot it did not key: {mine}"
        keyed = mine.get("keyed")
        if phone not in self.pressed and keyed is not None:
            assert keyed == {"area": None, "markers": []}, f"{phone} was sent keys it did not press: {mine}"

    def holder(self, source: str) -> str | None:
        phones = self.app.phones
        return phones.seats.holder(source) if phones is not None else None

    def press(self, event: InputEvent | PageTick) -> None:
        """A pad's key, as the table's own: through the phone that holds its seat, if one does. Red's keys while
        ballots are keyed are secret (no marker), its ok and everything else public (a part turning by itself too)."""
        if isinstance(event, PageTick):
            self.step(event, public=True)
            return
        controller = self.app.controller
        phone = self.holder(event.source)
        state = controller.state
        red = controller.seats.seat_of(event.source) == 0 if state is not None else False
        secret = red and state is not None and state.phase == "ballot" and event.key != "ok"
        if phone is None:
            self.step(event, public=not secret)
            return
        seat = controller.seats.seat_of(event.source)
        keyed = controller.between.keying.keypad.get(seat) if seat is not None else None
        if event.key == "ok" and keyed is not None and keyed.area is not None:  # what its ok locks in, if it does
            ballot = {"area": AREAS[keyed.area], "markers": sorted(keyed.markers, reverse=True)}
            self.locked_by[phone].append(ballot)
        self.pressed.add(phone)
        self.step(WebPress(phone, event.key, self.pages.version(phone)), public=not secret)

    def turn(self) -> None:
        top = self.app.controller.between.top_overlay()
        opener = getattr(top, "opened_by", None)
        if opener is not None:  # the year so far, opened by a pad's back: any key of that pad closes it
            self.press(InputEvent(opener, "ok"))
            return
        self.table.turn()

    def reds_ballots(self) -> tuple[Ballot, ...]:
        state = self.app.controller.state
        assert state is not None
        return tuple(b for b in state.legal(0) if isinstance(b, Ballot))

    def lock_red(self) -> None:
        legal = self.reds_ballots()
        ballot = self.table.keying(0, legal, legal[0]) if legal else None
        if not isinstance(ballot, Ballot):
            return
        for key in (*ballot_keys(ballot), "ok"):
            self.press(InputEvent(self.red_source(), key))

    def red_source(self) -> str:
        return self.app.controller.seats.source_of(0)

    def red_keying(self, beside: bool = False) -> bool:
        """Whether Red is keying a ballot now (``beside``: and another player too, so its ok ends no round)."""
        controller = self.app.controller
        state = controller.state
        if not (
            controller.stage == "game"
            and state is not None
            and state.phase == "ballot"
            and 0 in (a.player for a in state.awaiting())
            and not state.locked_in(0)
            and not controller.between.overlays  # the start-up question, a takeover, undo: keys answer them
            and not {"resume", "takeover", "undo", "reminder"} & set(self.app.screen_tags)
        ):
            return False
        others = [a.player for a in state.awaiting() if a.player != 0 and a.player not in controller.bots]
        return not beside or any(not state.locked_in(seat) for seat in others)

    def clear_red(self) -> None:
        while self.app.controller.between.keying.has_keyed(0):
            self.press(InputEvent(self.red_source(), "back"))

    def secrets(self) -> bool:
        """Whether the table may not know something yet: a ballot round under way, a decision's reveal unseen."""
        controller = self.app.controller
        state = controller.state
        return (
            state is not None
            and controller.stage == "game"
            and (state.phase == "ballot" or bool(controller.seen.hidden_steps))
        )

    def unseen_count(self) -> tuple[bool, bool]:
        """Whether a decision's count has reached no screen yet, and whether the rules changed the board after it."""
        controller = self.app.controller
        if controller.state is None or controller.stage != "game":
            return False, False
        found = [step for step, items in controller.seen.hidden_steps if any(what == "count" for what, _ in items)]
        changed = any(after_count(tuple(s.before.copy().apply_with_changes(s.seat, s.decision))) for s in found)
        return bool(found), changed

    def undo(self) -> None:
        """The host takes the last decision back, if it may; the table view's board then changes by exactly the
        undone decisions' own changes, turned around (record-format.md 4.1): it never showed what came after."""
        controller = self.app.controller
        before, board = list(controller.history), self.board
        self.step(InputEvent("host", "back", "hold"))
        if "undo" in self.app.screen_tags:
            self.step(InputEvent("host", "ok"))
        history = self.app.controller.history
        gone = before[len(history) :] if before[: len(history)] == history else []
        if not gone or board is None or self.board is None:
            return
        table = TableTwin.from_snapshot(board)
        for step in reversed(gone):
            players = step.before.players
            table.follow(
                undo_record(change, players) for change in undo_line(step.before, step.seat, step.decision).changes
            )
        assert not table.differences(self.board), (
            f"undone from a board the table was not told: {table.differences(self.board)}"
        )

    def restart(self, kill: bool) -> None:
        """A clean stop (SIGTERM: the App closes), or a kill: the store's files exactly as they are now, copied and
        resumed from, while the App that wrote them is closed unheard (nothing it does after the kill counts)."""
        self.log.twin = self
        try:
            if kill:
                old, killed, self.folder = self.app, self.folder, self.root / f"state-{self.starts}"
                shutil.copytree(killed, self.folder, ignore=shutil.ignore_patterns("*-shm"))
                self.log.twin = None
                old.display.show = lambda shown: True  # type: ignore[method-assign,assignment]
                old.close()
                self.log.twin = self
            else:
                self.app.close()
            self.app = self._start()
        finally:
            self.log.twin = None
        self.table.controller = self.app.controller
        self.pressed.clear()
        for phone in PHONES:
            self.step(WebHello(phone))

    def export(self) -> None:
        """``doge-companion export`` of the game going on, as the command prints it."""
        game = self.app.saver.game
        if game is None:
            return
        config = self.root / "export.toml"
        config.write_text(f'[game]\nstate_dir = "{self.folder / "games"}"\n')
        out, err = io.StringIO(), io.StringIO()
        self.log.twin = self
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = command(["export", str(game), "--config", str(config)])
        finally:
            self.log.twin = None
        self.hear("export", f"{status}\n{out.getvalue()}{err.getvalue()}")
        self.stream += self.heard
        self.heard.clear()

    def wavs(self) -> list[tuple[str, bytes]]:
        """What the voice said, each start's in order, with its WAV file's bytes (after close: a capture is finished
        then)."""
        said = []
        for folder in sorted(self.root.glob("voice-*")):
            for row in (folder / "speech.txt").read_text().splitlines() if (folder / "speech.txt").exists() else []:
                said.append((row, (folder / f"speech-{row.split()[0]}.wav").read_bytes()))
        return said

    def close(self) -> None:
        self.app.close()

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def compare(a: list[Entry], b: list[Entry]) -> int | None:
    """Where the twins start to read differently: None while they read the same, else how many WAVs the voice made
    before a notice on top that reads differently (from then on they may differ); fails at an entry of any other
    channel that differs before that."""
    a, b = ([entry for entry in stream if entry[0] != "red's phone"] for stream in (a, b))
    for index, (one, other) in enumerate(zip(a, b, strict=False)):
        if one == other:
            continue
        if one[0] == other[0] == "step":
            return sum(1 for entry in a[:index] if entry == ("voice", "a WAV"))
        raise AssertionError(f"entry {index}: A heard {one!r}, B heard {other!r}")
    assert len(a) == len(b), f"A heard {a[len(b) :]!r}, B heard {b[len(a) :]!r}"
    return None


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
        self.differ: int | None = None  # WAVs made before the twins' notices read differently, once they do
        self.steps = 0
        self.did: dict[str, int] = {}

    @initialize(
        seed=st.integers(0, 1 << 16),
        computer=st.booleans(),
        other_ballot=st.integers(1, 5),
        keys=st.integers(1, 3),
        lock=st.booleans(),
        phone=st.sampled_from(PHONES),
        fate=st.sampled_from(FATES),
        then=st.sampled_from(("", "stop", "kill")),
        count=st.booleans(),
    )
    def evening(
        self,
        seed: int,
        computer: bool,
        other_ballot: int,
        keys: int,
        lock: bool,
        phone: str,
        fate: str,
        then: str,
        count: bool,
    ) -> None:
        """The table sits down, and every evening has a phone ask for Red's seat while Red keys or has locked in;
        ``count``: then the host takes back a decision whose count no screen has shown."""
        ballots: list[Ballot] = []
        self.twins = [
            Twin("a", seed, computer, None, self.log, ballots),
            Twin("b", seed, computer, other_ballot, self.log, ballots),
        ]
        self.reds_seat_asked_for(keys, lock, phone, fate, then)
        if count and self.playing():
            self.undo_while_a_count_is_unseen()

    def each(self, do: Callable[[Twin], None], name: str | None = None) -> None:
        for twin in self.twins:
            do(twin)
        self.steps += 1
        called = name or str(getattr(do, "__name__", "?"))
        self.did[called] = self.did.get(called, 0) + 1

    def playing(self) -> bool:
        app = self.twins[0].app
        return app.controller.stage != "over" and "takeover" not in app.screen_tags

    def play_until(self, reached: Callable[[], bool]) -> bool:
        for _turn in range(REACH):
            if reached():
                return True
            if not self.playing():
                return False
            self.each(Twin.turn)
        return reached()

    @precondition(lambda self: self.twins and self.playing())
    @rule(turns=st.integers(1, 40))
    def play(self, turns: int) -> None:
        for _turn in range(turns):
            if not self.playing():
                return
            self.each(Twin.turn)

    @precondition(lambda self: self.twins and self.playing())
    @rule(
        keys=st.integers(1, 3),
        lock=st.booleans(),
        phone=st.sampled_from(PHONES),
        fate=st.sampled_from(FATES),
        then=st.sampled_from(("", "stop", "kill")),
    )
    def reds_seat_asked_for(self, keys: int, lock: bool, phone: str, fate: str, then: str) -> None:
        """Played to a ballot round where Red is awaited beside another player: Red keys the first ``keys`` keys of
        a ballot in A and nothing in B (or locks one in), then ``phone`` asks for Red's seat: ``given``,
        ``refused``, ``queued`` behind the other phone's request for another seat, or ``abandoned`` (the phone asks
        for another seat while it waits); then the device may stop or be killed and resume. (Keys that differ
        between the twins in other ways: :meth:`red_keys`.)"""
        first = self.twins[0]
        if not self.play_until(lambda: first.red_keying(beside=True)):
            return
        self.did["reds seat"] = self.did.get("reds seat", 0) + 1
        ballots = first.reds_ballots()
        for key in ballot_keys(ballots[0])[:keys] if ballots else ():
            first.press(InputEvent(first.red_source(), key))
        if lock:
            self.each(Twin.lock_red)
        colours = [
            colour
            for source, colour in first.app.controller.seats.joined
            if not first.app.controller.seats.is_bot(source)
        ]
        other = next(p for p in PHONES if p != phone)
        asks = [(phone, "red")]
        if fate in ("queued", "abandoned"):
            asks.insert(0, (other, colours[1]))
        if fate == "abandoned":
            asks.append((phone, colours[-1]))

        def hello(twin: Twin) -> None:
            for asking, _colour in asks:
                twin.step(WebHello(asking))

        self.each(hello)
        for asking, colour in asks:
            request = SeatRequest(asking, colour)
            self.each(lambda twin, request=request: twin.step(request), "ask")  # type: ignore[misc]
        answers = {"given": (True,), "refused": (False,), "queued": (False, True), "abandoned": (False, False)}[fate]
        for give in answers:
            if "takeover" in first.app.screen_tags:
                self.host_answers(give)
        if then:
            self.each(lambda twin: twin.restart(then == "kill"), then)

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
        """A phone asks (again: a request replaces its last)."""

        def ask(twin: Twin) -> None:
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
        self.each(Twin.undo)

    @precondition(lambda self: self.twins and self.playing())
    @rule()
    def undo_while_a_count_is_unseen(self) -> None:
        """Played to a decision whose count no screen has shown (rules.md 11.4.1), preferably one after whose count
        the rules changed the board, and taken back."""
        first = self.twins[0]
        if self.play_until(lambda: first.unseen_count()[1]) or first.unseen_count()[0]:
            self.did["unseen count"] = self.did.get("unseen count", 0) + 1
            self.each(Twin.undo)

    @precondition(lambda self: self.twins and self.twins[0].app.controller.stage == "game")
    @rule(kill=st.booleans())
    def restart(self, kill: bool) -> None:
        self.each(lambda twin: twin.restart(kill), "kill" if kill else "stop")

    @invariant()
    def nobody_else_hears_reds_secrets(self) -> None:
        if not self.twins or self.differ is not None:
            return
        for twin in self.twins:
            twin.export()
        self.differ = compare(self.twins[0].stream, self.twins[1].stream)

    def teardown(self) -> None:
        for twin in self.twins:
            twin.close()
        logging.getLogger().removeHandler(self.log)
        self.patch.undo()
        if not self.twins:
            return
        try:
            if ESPEAK:
                a, b = (twin.wavs() for twin in self.twins)
                heard = len(a) if self.differ is None else self.differ
                for one, other in zip(a[:heard], b[:heard], strict=True):
                    assert one == other, f"the voice differs before a notice does: {one[0]!r}, {other[0]!r}"
                RUNS.append((self.steps, len(a), self.differ is None))
            print(f"secrecy machine: {self.steps} steps {self.did}, {len(self.twins[0].stream)} entries")
        finally:
            for twin in self.twins:
                twin.remove()


RUNS: list[tuple[int, int, bool]] = []

EVENINGS = int(os.environ.get("DOGE_SECRECY_EVENINGS", "8"))  # more: DOGE_SECRECY_EVENINGS=200
# No shrinking: an evening's failing sequence is printed as it ran (shrinking one took minutes).
Evenings.TestCase.settings = settings(
    max_examples=EVENINGS,
    stateful_step_count=6,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
test_secrecy_over_whole_evenings = Evenings.TestCase


def test_the_voices_wavs_are_compared() -> None:
    """Without espeak-ng the WAV comparison above cannot run: said as a skip naming the tool (in CI: a failure)."""
    from tests.system_tools import need_tool

    need_tool("espeak-ng")


def test_reds_ok_under_a_notice_tells_nothing_of_what_red_has_keyed() -> None:
    """Found by an audit of every shared text built from a seat's private state: Red keys an area and no
    marker in A, nothing in B, then presses ok while the round's reveal waits for Red's confirmation. No ballot is
    locked in in either twin, yet the LCD ticked Red off the notice only in B. Rules.md 11.4: how many keys a hidden
    choice took is secret. Now a player's ok under a notice is their "done" whatever they keyed
    (tests/web/test_pad_done.py)."""
    machine = Evenings()
    try:
        machine.evening(1, False, 1, 1, False, "new", "refused", "", False)
        first = machine.twins[0]

        def waiting_for_red() -> bool:
            notices = first.app.controller.between.notices
            keyed = first.app.controller.between.keying.has_keyed(0)
            return first.red_keying(beside=True) and bool(notices) and "red" in notices[0].waiting and not keyed

        assert machine.play_until(waiting_for_red)
        first.press(InputEvent(first.red_source(), ballot_keys(first.reds_ballots()[0])[0]))
        for twin in machine.twins:
            twin.press(InputEvent(twin.red_source(), "ok"))
        assert [twin.app.controller.state.locked_in(0) for twin in machine.twins] == [False, False]  # type: ignore[union-attr]
        machine.nobody_else_hears_reds_secrets()
    finally:
        machine.teardown()
