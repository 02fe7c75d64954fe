"""A table that only presses keys, as `doge-companion run --script` feeds them: the host-press figure (``bench
presses``) and the whole scripted evening with a computer player are played with it.

Three keypad players and a computer player by default, the computer answering at once (``sync_bots``), as in a
script. The humans choose like the "normal" computer player (companion.bots), from their own seat's view, and 40% of
their ballots at random among those of one or two markers (without it all three key the same ballot and nearly every
election ties), each from seeded generators of their own: their choices depend only on the game, never on how many
presses a display size or a way of confirming needs, so one seed is one game at 320x240 and at 160x128, before and
after main d62f8cd (``benchmarks/presses.py`` checks the records).

Notices are confirmed the way the screen asks: each player the table waits for presses ok on their own pad ("done";
a computer's pieces: the first human pad), a notice that moves no piece is read until it goes by itself (the page
timer's tick), and the host presses ok only on what is the host's alone.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable

from companion.bots import make_bot, make_view
from companion.engine import AREAS, Decision
from companion.flow.controller import Controller
from companion.flow.menus import Menu
from companion.flow.narration import ANYONE, Notice
from hardware.events import InputEvent, PageTick


def find(menu: Menu, decision: Decision) -> list[int] | None:
    """The option indices that lead to ``decision`` through a menu and its submenus."""
    for index, option in enumerate(menu.options):
        if isinstance(option.value, Menu):
            below = find(option.value, decision)
            if below is not None:
                return [index, *below]
        elif option.value == decision:
            return [index]
    return None


class ScriptedTable:
    def __init__(
        self, seed: int, size: tuple[int, int] | None = None, pads: int = 3, bots: int = 1, keypads: bool = True
    ) -> None:
        self.controller = Controller(random.Random(seed))
        self.controller.sync_bots = True
        self.controller.parts.size = size
        self.pads = [str(n) for n in range(1, pads + 1)]
        self.bots = bots
        self.keypads = keypads
        self.policy = {pad: make_bot("normal", seed * 10 + int(pad)) for pad in self.pads}
        self.choice_rng = random.Random(seed * 31 + 5)  # people differ: some ballots at random (else all tie)
        self.view_rng = random.Random(seed + 7)
        self.host_presses: Counter[str] = Counter()  # by what the screen was when the host pressed
        self.pad_presses = 0
        self.script: list[InputEvent | PageTick] = []
        self.ticks = 0  # parts turned by themselves (the page timer) while the players read
        self._read: tuple[Notice, int] | None = None

    def press(self, source: str, key: str, kind: str = "press") -> None:
        event = InputEvent(source, key, kind)  # type: ignore[arg-type]
        if source == "host":
            screen = self.controller.screen()
            self.host_presses[screen.tags[0] if screen.tags else "?"] += 1
        else:
            self.pad_presses += 1
        self.script.append(event)
        self.controller.handle(event)

    def setup(self) -> None:
        for pad in self.pads:
            self.press(pad, "ok")
        for _bot in range(self.bots):
            self.press("host", "back")
        if self.keypads:
            self.press("host", "right")
        for _part in range(4):  # a setup in parts: ok shows each, then starts
            self.press("host", "ok")
            if self.controller.stage == "game":
                return
        raise AssertionError("setup did not start")

    def decide(self, seat: int) -> Decision:
        state = self.controller.state
        assert state is not None
        legal = state.legal(seat)
        if state.phase == "ballot" and self.choice_rng.random() < 0.4:
            small = [b for b in legal if len(b.markers) <= 2]  # type: ignore[attr-defined]
            return self.choice_rng.choice(small or list(legal))
        return self.policy[self.controller.source_of(seat)].decide(make_view(state, seat, self.view_rng, 1))

    def choose(self, seat: int, decision: Decision) -> None:
        """Reach ``decision`` in the acting player's menus by their pad's keys (a keypad's direct key if it has one)."""
        source = self.controller.source_of(seat)
        self.controller.screen()
        path = find(self.controller.keying.menus[-1], decision)
        assert path is not None, decision
        for index in path:
            menu = self.controller.keying.menus[-1]
            option = menu.options[index]
            if option.key is not None and self.keypads:
                self.press(source, option.key)
                continue
            right, left = (index - menu.cursor) % len(menu.options), (menu.cursor - index) % len(menu.options)
            for _step in range(min(right, left)):
                self.press(source, "right" if right <= left else "left")
            self.press(source, "ok")

    def keypad_ballot(self, seat: int) -> None:
        ballot = self.decide(seat)
        source = self.controller.source_of(seat)
        self.press(source, f"area:{AREAS[ballot.area]}")  # type: ignore[attr-defined]
        for value in ballot.markers:  # type: ignore[attr-defined]
            self.press(source, f"marker:{value}")
        self.press(source, "ok")

    def confirm(self) -> None:
        """The notice on top is done with: a player it waits for says so on their pad, or the host."""
        controller = self.controller
        waiting = controller.notices[0].waiting if controller.notices and not controller.overlays else ()
        humans = [self.controller.source_of(s) for s in range(len(controller.players)) if s not in controller.bots]
        self.read_parts()
        top = controller.notices[0] if controller.notices and not controller.overlays else None
        if top is not None and (top.by_itself or (top.owners and not waiting)):
            self.tick()  # it moves no piece, or everyone is done: the table reads it and it goes by itself
        elif waiting:
            owner = waiting[0]
            source = humans[0] if owner == ANYONE else controller.source_of(controller.players.index(owner))
            self.press(source, "ok")
        else:
            self.press("host", "ok")

    def read_parts(self) -> None:
        """A notice in parts turns by itself while the players read it (the page timer: no key of theirs turns it):
        the table waits until it has seen every part once."""
        notices = self.controller.notices
        if not notices or self.controller.overlays or (notices[0].entry, len(notices[0].lines)) == self._read:
            return
        self._read = (notices[0].entry, len(notices[0].lines))  # read again once lines are added
        self.controller.screen()
        for _part in range(self.controller.parts.count - 1):
            self.tick()

    def tick(self) -> None:
        """Some seconds pass."""
        self.ticks += 1
        self.script.append(PageTick())
        self.controller.handle(PageTick())
        self.controller.screen()  # drawn, as the device draws after each step: the part turned to counts as shown

    def turn(self) -> None:
        """One thing the table does now."""
        controller = self.controller
        tags = set(controller.screen().tags)
        state = controller.state
        assert state is not None
        if controller.notices or tags & {"undo", "error"}:
            self.confirm()
        elif "ballot-wait" in tags:
            seat = next(a.player for a in state.awaiting() if a.player not in controller.bots)
            self.keypad_ballot(seat)
        elif any(t.startswith("decision:") for t in tags):
            seat = state.awaiting()[0].player
            self.choose(seat, self.decide(seat))
        else:
            raise AssertionError(f"nobody knows what to do on {tags}")

    def play(self, until: Callable[[], bool] | None = None, max_presses: int = 50_000) -> None:
        controller = self.controller
        while controller.stage != "over":
            if until is not None and until():
                return
            assert len(self.script) < max_presses, "the game did not end"
            self.turn()

    def ending(self) -> None:
        """The game over: the standings and the chart (host right twice), as the doc's script does."""
        self.press("host", "right")
        self.press("host", "right")


# Measured on main at d62f8cd, when every notice waited for the host's ok, with the same table: host presses a game for
# seeds 0-9, and the hash of each game's record (sha256 of its lines, first 16 hex digits).
BEFORE = {
    (320, 240): (253, 289, 302, 314, 394, 309, 274, 353, 282, 310),
    (160, 128): (378, 427, 447, 453, 573, 452, 397, 523, 413, 466),
}
PAD_BEFORE = (374, 419, 448, 457, 578, 454, 392, 515, 398, 456)  # the same at both sizes: no pad turned a part
RECORDS = (
    "cc0bd4a5f3b109d4", "335af073b4cf1e41", "f17c6535d715b2d8", "aa2d402798b4db0b", "87ed23f87fe73814",
    "fc65d11f37d7cb70", "263b816be7ab1e74", "2e2c3347eb683537", "941e8901076d7259", "a5655d9bdcab360a",
)  # fmt: skip


def game(seed: int, size: tuple[int, int]) -> ScriptedTable:
    table = ScriptedTable(seed, size)
    table.setup()
    table.play()
    table.ending()
    return table


def record_hash(table: ScriptedTable) -> str:
    return hashlib.sha256("\n".join(table.controller.record).encode()).hexdigest()[:16]
