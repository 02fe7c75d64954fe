"""Buttons, LEDs and a buzzer on the Pi's GPIO, through gpiozero with an injected pin factory.

The factory is always passed in (``MockFactory`` in tests and in ``hardware = "mock"``, lgpio on a Pi), never set
globally. gpiozero runs callbacks on its own threads; ours only decode edges and put events on the queue.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .events import HOST, POWER, EventQueue, InputEvent

log = logging.getLogger(__name__)

Schedule = Callable[[float, Callable[[], None]], None]


def _timer(delay: float, action: Callable[[], None]) -> None:
    timer = threading.Timer(delay, action)
    timer.daemon = True
    timer.start()


class KeyDecoder:
    """Turns one button's edges into logical events, debounced in software.

    Debouncing is ours because gpiozero's ``MockPin`` ignores ``bounce_time`` (library-notes.md): doing it here
    makes the behaviour the tests see the behaviour the Pi has. A press is taken on its first edge (no added latency);
    a release only once the pin has stayed released for ``settle`` seconds, so contact chatter never splits one press
    into several, nor a hold into a press and a hold.

    A key without a hold meaning reports its press at once. A key with one (host back: undo; ok on a 3-button pad:
    back; left on either: say the moment again) cannot know at the press which it will be, so it reports the press
    when released, or ``on_hold`` once held for the hold time, never both.
    """

    def __init__(
        self,
        press: InputEvent,
        events: EventQueue,
        settle: float,
        is_down: Callable[[], bool],
        on_hold: InputEvent | None = None,
        schedule: Schedule = _timer,
        long_hold: tuple[int, InputEvent] | None = None,
    ) -> None:
        self.press = press
        self.on_hold = on_hold
        self.long_hold = long_hold  # (how many hold periods, what it means): gpiozero repeats when_held
        self.settle = settle
        self.chatter = 0
        self._events = events
        self._is_down = is_down
        self._schedule = schedule
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._holds = 0
        self._release = 0  # bumped by every edge: a release check that sees another number is stale

    def pressed(self) -> None:
        with self._lock:
            self._release += 1
            if self._down:
                self.chatter += 1
                return
            self._down = True
            self._held = False
            self._holds = 0
            if self.on_hold is None:
                self._events.put(self.press)

    def released(self) -> None:
        with self._lock:
            if not self._down:
                return
            self._release += 1
            ticket = self._release
        if self.settle > 0:
            self._schedule(self.settle, lambda: self._confirm_release(ticket))
        else:
            self._confirm_release(ticket)

    def _confirm_release(self, ticket: int) -> None:
        with self._lock:
            if ticket != self._release or not self._down:
                return
            if self._is_down():
                self.chatter += 1
                return
            self._down = False
            if self.on_hold is not None and not self._held:
                self._events.put(self.press)

    def held(self) -> None:
        with self._lock:
            if not self._down or self.on_hold is None:
                return
            self._holds += 1
            if not self._held:
                self._held = True
                self._events.put(self.on_hold)
            elif self.long_hold is not None and self._holds == self.long_hold[0]:
                self._events.put(self.long_hold[1])


class GpioButtons:
    """Every configured button: the host's four and each 3-button pad's three."""

    def __init__(
        self,
        settings: Mapping[str, Any],
        events: EventQueue,
        pin_factory: Any,
        schedule: Schedule = _timer,
    ) -> None:
        from gpiozero import Button

        self.decoders: dict[int, KeyDecoder] = {}
        self._buttons: list[Any] = []
        buttons = settings["buttons"]
        self._events = events
        self._settle = buttons["bounce_ms"] / 1000
        self._schedule = schedule
        self._factory = pin_factory
        try:
            shutdown = buttons["shutdown_hold_s"] * 1000
            for key in ("left", "right", "ok", "back"):
                if buttons[key] != -1:
                    hold = InputEvent(HOST, key, "hold") if key in ("back", "left") else None  # undo; repeat
                    long = None
                    if key == "back" and shutdown:
                        long = (max(2, -(-shutdown // buttons["hold_ms"])), InputEvent(HOST, POWER, "hold"))
                    self._add(Button, buttons[key], InputEvent(HOST, key), hold, buttons["hold_ms"], long)
            for number, pad in enumerate(settings["pads"]["gpio"], start=1):
                source = str(number)
                for key in ("left", "right", "ok"):
                    hold = {"ok": InputEvent(source, "back"), "left": InputEvent(source, "left", "hold")}.get(key)
                    self._add(Button, pad[key], InputEvent(source, key), hold, settings["pads"]["hold_ms"])
        except Exception:
            self.close()
            raise

    def _add(
        self,
        button_class: Any,
        pin: int,
        press: InputEvent,
        hold: InputEvent | None,
        hold_ms: int,
        long_hold: tuple[int, InputEvent] | None = None,
    ) -> None:
        # bounce_time=None: debouncing is ours (KeyDecoder), identical on MockPin (which ignores it) and real pins.
        button = button_class(
            pin,
            pull_up=True,
            bounce_time=None,
            hold_time=hold_ms / 1000,
            hold_repeat=long_hold is not None,
            pin_factory=self._factory,
        )
        self._buttons.append(button)
        decoder = KeyDecoder(
            press, self._events, self._settle, lambda: bool(button.is_pressed), hold, self._schedule, long_hold
        )
        button.when_pressed = decoder.pressed
        button.when_released = decoder.released
        if decoder.on_hold is not None:
            button.when_held = decoder.held
        self.decoders[pin] = decoder

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons.clear()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._buttons)


class GpioIndicators:
    """Per-pad LEDs and the buzzer: the cues that tell a player to act (never a secret: they light for turns)."""

    def __init__(self, settings: Mapping[str, Any], pin_factory: Any) -> None:
        from gpiozero import LED, Buzzer, TonalBuzzer

        self.leds: dict[str, Any] = {}
        self.buzzer: Any = None
        self.tonal = bool(settings["buzzer"]["tonal"])
        self._tone_end: threading.Timer | None = None
        try:
            for number, pad in enumerate(settings["pads"]["gpio"], start=1):
                if pad.get("led", -1) != -1:
                    self.leds[str(number)] = LED(pad["led"], pin_factory=pin_factory)
            pin = settings["buzzer"]["pin"]
            if pin != -1:
                self.buzzer = (TonalBuzzer if self.tonal else Buzzer)(pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def led(self, source: str, target: str, state: str) -> None:
        """``state`` is ``on``, ``off`` or ``blink``; a GPIO pad's one LED is its turn light, so other targets and
        pads without an LED are ignored (:class:`~hardware.indicators.Indicators`)."""
        led = self.leds.get(source)
        if led is None or target not in ("turn", "all"):
            return
        if state == "on":
            led.on()
        elif state == "blink":
            led.blink(on_time=0.25, off_time=0.25)
        else:
            led.off()

    def beep(self, source: str, ms: int = 80) -> None:
        """A short beep on the device's one buzzer, in the background (gpiozero times it on its own thread; the
        game thread never sleeps)."""
        if self.buzzer is None:
            return
        seconds = ms / 1000
        if self.tonal:
            if self._tone_end is not None:
                self._tone_end.cancel()
            self.buzzer.play("A5")
            self._tone_end = threading.Timer(seconds, self.buzzer.stop)
            self._tone_end.daemon = True
            self._tone_end.start()
        else:
            self.buzzer.beep(on_time=seconds, off_time=0, n=1, background=True)

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        self.leds.clear()
        if self._tone_end is not None:
            self._tone_end.cancel()
            self._tone_end.join()
        if self.buzzer is not None:
            self.buzzer.close()
            self.buzzer = None


def pi_pin_factory(root: Path = Path("/")) -> Any:
    """The real pin factory on a Raspberry Pi, chosen explicitly (lgpio first, as gpiozero 2 does), unless
    ``GPIOZERO_PIN_FACTORY`` names one: gpiozero's own way to choose (e.g. ``pigpio`` for a remote Pi, ``mock``),
    which gpiozero resolves itself (library-notes.md). The local factories learn the board's revision from
    hardware/board.py, which tells it from the device tree's name where Debian's kernel gives none; ``root`` is a
    fake tree in tests."""
    from .board import header_chip, missing_line, supply_rpi_lgpio

    chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
    local = {"lgpio": "LGPIOFactory", "rpigpio": "RPiGPIOFactory"}
    if chosen and chosen.lower() not in local:
        from gpiozero import Device

        try:
            ensure = getattr(Device, "ensure_pin_factory", None)  # gpiozero 2; 1.6 (Debian bookworm's) lacks it
            if ensure is not None:
                ensure()
            elif Device.pin_factory is None:
                Device.pin_factory = Device._default_pin_factory()  # what 1.6 does at a device's first use
        except Exception as error:  # BadPinFactory, or the named library failing in its own way
            raise RuntimeError(f"GPIOZERO_PIN_FACTORY={chosen}: {error}") from None
        return Device.pin_factory
    board = supply_rpi_lgpio(root, say=False)  # RPiGPIOFactory imports RPi.GPIO, rpi-lgpio on Debian
    if board.revision is None:
        raise RuntimeError(missing_line(board) + '. On a desktop, run with hardware = "mock".')
    if board.told:
        log.warning("%s (for gpiozero and RPi.GPIO)", missing_line(board))
    errors = []
    names = [local[chosen.lower()]] if chosen else list(local.values())
    for module, name in (("gpiozero.pins.lgpio", "LGPIOFactory"), ("gpiozero.pins.rpigpio", "RPiGPIOFactory")):
        if name not in names:
            continue
        try:
            factory_class = _with_revision(getattr(__import__(module, fromlist=[name]), name), board.revision)
            chip = header_chip(root) if name == "LGPIOFactory" else None
            return factory_class() if chip is None else factory_class(chip=chip)
        except Exception as error:  # each library fails in its own way off-Pi
            errors.append(f"{name}: {error}")
    raise RuntimeError("no GPIO on this machine (" + "; ".join(errors) + '). On a desktop, run with hardware = "mock".')


def _with_revision(factory_class: Any, revision: int) -> Any:
    """gpiozero's factory, its revision given instead of read: ``PiFactory._get_revision`` is the method gpiozero
    documents for descendants to override (gpiozero/pins/pi.py)."""

    class Told(factory_class):  # type: ignore[misc]  # gpiozero ships no types
        def _get_revision(self) -> int:
            return revision

    Told.__name__ = Told.__qualname__ = factory_class.__name__
    return Told


class Unwired:
    """No GPIO: what simulated hardware has when no pin factory is handed in (see ``App``). Buttons that never
    press, LEDs and a buzzer that stay dark."""

    def led(self, source: str, target: str, state: str) -> None:
        pass

    def beep(self, source: str, ms: int = 80) -> None:
        pass

    def close(self) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        return iter(())
