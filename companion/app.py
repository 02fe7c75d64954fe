"""The one composition root: builds the hardware, pads and display the settings name, and runs the game thread.

Everything that happens, happens on the thread that calls :meth:`App.run`; hardware threads only put events on the
queue. The simulator and the tests build the same App with other adapters.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from display.backends import Display, build_display
from display.render import render
from display.screen import Line, Screen
from hardware.events import EventQueue, InputEvent, PadStatus
from hardware.gpio import GpioButtons, GpioIndicators, pi_pin_factory
from hardware.serial_pads import SerialPads

from .config import Settings

log = logging.getLogger(__name__)


@dataclass
class Welcome:
    """The first screen: which pads are there and which players have pressed ok. (The game flow takes over here.)"""

    connected: set[str] = field(default_factory=set)
    unplugged: set[str] = field(default_factory=set)
    joined: list[str] = field(default_factory=list)

    def handle(self, event: InputEvent | PadStatus) -> None:
        if isinstance(event, PadStatus):
            if event.connected:
                self.connected.add(event.source)
                self.unplugged.discard(event.source)
            else:
                self.connected.discard(event.source)
                self.unplugged.add(event.source)
        elif event.source != "host" and event.key == "ok" and event.source not in self.joined:
            self.joined.append(event.source)

    def screen(self) -> Screen:
        lines = [Line("Players: press ok on your pad", "normal")]
        for source in sorted(self.connected | self.unplugged | set(self.joined)):
            if source in self.unplugged:
                lines.append(Line(f"Pad {source}: unplugged - plug it back in", "small", "red"))
            else:
                state = "ready" if source in self.joined else "connected"
                lines.append(Line(f"Pad {source}: {state}", "small"))
        return Screen("Doge Companion", tuple(lines), footer="Needs 3 or 4 players", tags=("welcome",))


class App:
    def __init__(
        self,
        settings: Settings,
        *,
        screenshots: Path | None = None,
        pin_factory: Any = None,
        events: EventQueue | None = None,
    ) -> None:
        self.settings = settings
        self.events = events or EventQueue()
        self.mock = settings["hardware"] == "mock"
        if pin_factory is None:
            if self.mock:
                from gpiozero.pins.mock import MockFactory, MockPWMPin

                pin_factory = MockFactory(pin_class=MockPWMPin)
            else:
                pin_factory = pi_pin_factory()
        self.pin_factory = pin_factory
        self._closers: list[Any] = []
        try:
            self.buttons = self._keep(GpioButtons(settings.data, self.events, pin_factory))
            self.indicators = self._keep(GpioIndicators(settings.data, pin_factory))
            self.pads = self._build_pads()
            self.display: Display = self._keep(self._build_display(screenshots))
        except Exception:
            self.close()
            raise
        self.screen: Screen | None = None
        self.welcome = Welcome()

    def _keep(self, thing: Any) -> Any:
        self._closers.append(thing)
        return thing

    def _build_pads(self) -> SerialPads | None:
        wired = len(self.settings["pads"]["gpio"])
        numbers = [str(n) for n in range(wired + 1, 5)]
        setting = self.settings["pads"]["serial"]
        if setting == "off" or not numbers:
            return None
        pads: SerialPads = self._keep(SerialPads(setting, self.events, numbers))
        return pads

    def _build_display(self, screenshots: Path | None) -> Display:
        data = self.settings.data
        if self.mock and data["display"]["driver"] != "capture":
            # Simulated hardware: the same picture at the configured LCD's size, kept in memory.
            data = {**data, "display": {**data["display"], "driver": "capture"}}
        return build_display(data, self.settings.display_size, screenshots)

    def show(self, screen: Screen) -> None:
        if screen != self.screen:
            self.screen = screen
            self.display.show(render(screen, self.display.size))

    def run(self, stop: threading.Event) -> int:
        """The game thread: wait for an event (blocking: no busy loop), handle it, redraw if the screen changed."""
        self.show(self.welcome.screen())
        while not stop.is_set():
            event = self.events.get(timeout=None)
            if event is None:
                continue
            self.welcome.handle(event)
            self.show(self.welcome.screen())
        return 0

    def close(self) -> None:
        display = getattr(self, "display", None)
        if display is not None:
            try:
                display.blank()
            except Exception:  # a failing screen must not keep the rest from closing
                log.debug("blanking the display failed", exc_info=True)
        for thing in reversed(self._closers):
            thing.close()
        self._closers.clear()


def with_overrides(settings: Settings, hardware: str | None) -> Settings:
    if hardware is None:
        return settings
    return replace(settings, data={**settings.data, "hardware": hardware})
