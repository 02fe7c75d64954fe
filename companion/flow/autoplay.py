"""People at a table, simulated: they read the screen model and press buttons on their own pads.

Used by the end-to-end tests, the screen gallery (``doge-companion screens``) and the benchmarks.

Each one knows what a real player knows: the shared screen, and their own markers (their private view). They choose
at random among what the screen offers, sometimes wander with left/right/back first, and use a keypad's direct
keys when they have one. Everything reaches the controller as button events only.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from display.screen import Screen
from hardware.events import InputEvent, PageTick

from ..engine import AREAS, Decision, private_view
from .controller import Controller
from .narration import ANYONE
from .notice import NOTICE_KINDS
from .seats import Seat, Source

NOTICE_TAGS = set(NOTICE_KINDS - {"reminder"})  # the reminder's pages are read and turned (first_year.py)


class Table:
    def __init__(
        self,
        controller: Controller,
        rng: random.Random,
        pads: list[str],
        keypads: bool,
        watch: Callable[[Controller, InputEvent], None] | None = None,  # after each press
        handle: Callable[[InputEvent | PageTick], None] | None = None,
        computers: int = 0,
    ) -> None:
        self.controller = controller
        self.computers = computers  # computer players the host adds at setup
        self.handle = handle or controller.handle
        self.rng = rng
        self.pads = pads
        self.keypads = keypads
        self.watch = watch
        self.events: list[InputEvent | PageTick] = []  # a script of the game: its presses and its waits
        self._read: tuple[int, int] | None = None  # the last notice whose every part the table has seen: its entry

    def press(self, source: str, key: str, kind: str = "press") -> None:
        event = InputEvent(source, key, kind)  # type: ignore[arg-type]
        self.events.append(event)
        self.handle(event)
        if self.watch:
            self.watch(self.controller, event)

    def read_parts(self) -> None:
        """A notice in parts is read as it turns by itself (the page timer's ticks: no player's key turns it) before
        anyone says done: every part once."""
        notices, controller = self.controller.notices, self.controller
        if not notices or controller.overlays or (notices[0].entry, len(notices[0].lines)) == self._read:
            return
        self._read = (notices[0].entry, len(notices[0].lines))  # read again once lines are added
        controller.screen()
        for _part in range(controller.parts.count - 1):
            self.events.append(PageTick())
            self.handle(PageTick())

    def setup(self) -> None:
        for pad in self.pads:
            self.press(pad, "ok")
        for _computer in range(self.computers):
            self.press("host", "back")
        if self.keypads != (self.controller.seats.entry == "keypads"):
            self.press("host", "right")
        for _part in range(4):  # a setup too long for the display comes in parts: ok shows each, then starts it
            self.press("host", "ok")
            if self.controller.stage == "game":
                break
        assert self.controller.stage == "game"

    def play(self, max_events: int = 200_000) -> None:
        while self.controller.stage != "over" or self.controller.notices:
            assert len(self.events) < max_events, "the game did not end"
            self.turn()
        screen = self.controller.screen()
        assert "over" in screen.tags

    def source(self, colour: str) -> str:
        return self.controller.source_of(Seat(self.controller.players.index(colour)))

    def turn(self) -> None:
        screen = self.controller.screen()
        tags = set(screen.tags)
        if tags & {"reminder", "resume"}:  # no draw: every seeded game plays as before (resume: the game goes on)
            self.read_parts()
            self.press("host", "ok")
        elif tags & NOTICE_TAGS:
            self.confirm(self.rng.choice(["host", *self.pads]))
        elif "ballot-gate" in tags:
            turn = self.controller.keying.private
            assert turn is not None
            self.press(self.controller.source_of(turn.seat), "ok")
        elif any(tag.startswith("private:") for tag in tags):
            self.private_menu(screen)
        elif "ballot-wait" in tags:
            self.keypad_ballot()
        elif any(tag.startswith("decision:") for tag in tags):
            colour = next(tag for tag in tags if tag.startswith("decision:"))[9:]
            self.pick(screen, self.source(colour))
        else:
            raise AssertionError(f"nobody knows what to do on {screen}")

    def confirm(self, source: str) -> None:
        """Someone says the notice on screen is done: ``source`` if the notice waits for them (or for anyone, a
        computer's pieces), else the host, whose ok confirms any notice."""
        notices = self.controller.notices
        waiting = notices[0].waiting if notices and not self.controller.overlays else ()
        seat = self.controller.seats.seat_of(Source(source)) if source != "host" else None
        mine = seat is not None and (self.controller.players[seat] in waiting or ANYONE in waiting)
        self.read_parts()
        self.press(source if mine else "host", "ok")

    def wander(self, source: str) -> None:
        """Look around a menu first, as people do."""
        for _step in range(self.rng.choice([0, 0, 1, 2])):
            self.press(source, self.rng.choice(["left", "right"]))

    def pick(self, screen: Screen, source: str) -> None:
        """Choose a random option of the menu on screen: navigate to it and press ok (or its direct key)."""
        menu = screen.menu
        assert menu is not None
        self.wander(source)
        menu = self.controller.screen().menu
        assert menu is not None
        target = self.rng.randrange(len(menu.options))
        current_menu = self.controller.keying.menus[-1] if self.controller.keying.menus else None
        option = current_menu.options[target] if current_menu else None
        if self.keypads and option is not None and option.key and self.rng.random() < 0.5:
            self.press(source, option.key)
            return
        steps = (target - menu.cursor) % len(menu.options)
        for _step in range(steps):
            self.press(source, "right")
        if self.rng.random() < 0.05 and len(self.controller.keying.menus) > 1:
            self.press(source, "back")  # changed their mind: up one level
            return
        self.press(source, "ok")

    def private_menu(self, screen: Screen) -> None:
        turn = self.controller.keying.private
        assert turn is not None
        source = self.controller.source_of(turn.seat)
        menu = screen.menu
        assert menu is not None
        if turn.stage == "area":
            self.wander(source)
            menu = self.controller.screen().menu
            assert menu is not None
            target = self.rng.randrange(len(menu.options))
            for _step in range((target - menu.cursor) % len(menu.options)):
                self.press(source, "right")
            self.press(source, "ok")
            return
        # markers: tick 1 to 4 of them, then Done
        held = len(menu.options) - 1
        wanted = set(self.rng.sample(range(held), self.rng.randint(1, min(4, held))))
        cursor = menu.cursor
        for index in [*sorted(wanted), held]:
            for _step in range((index - cursor) % len(menu.options)):
                self.press(source, "right")
            cursor = index
            self.press(source, "ok")

    def keying(self, seat: int, legal: tuple[Decision, ...], choice: Decision) -> Decision:
        """The ballot ``seat`` keys now, drawn as ``choice``: a test's table presses other keys first, or keys another
        legal ballot (tests/web/test_stream_shape.py), without drawing anything else from the table's generator."""
        return choice

    def keypad_ballot(self) -> None:
        state = self.controller.state
        assert state is not None
        awaited = [Seat(a.player) for a in state.awaiting() if a.player not in self.controller.bots]
        seat = self.rng.choice(awaited)
        source = self.controller.source_of(seat)
        mine = private_view(state, seat)
        legal = state.legal(seat)
        choice = self.rng.choice(legal)
        wrong = self.rng.random() < 0.2  # a wrong key first, then correct it
        choice = self.keying(seat, legal, choice)
        if wrong:
            self.press(source, f"marker:{mine.markers[0]}")
            self.press(source, "back")
        self.press(source, f"area:{AREAS[choice.area]}")  # type: ignore[union-attr]
        for value in choice.markers:  # type: ignore[union-attr]
            self.press(source, f"marker:{value}")
        self.press(source, "ok")
