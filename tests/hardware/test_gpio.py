"""GPIO buttons, LEDs and buzzer through gpiozero's own MockFactory."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.system import config
from hardware.events import EventQueue, InputEvent
from hardware.gpio import GpioButtons, GpioIndicators

PAD = {"left": 17, "right": 27, "ok": 22, "led": 23}


class ManualScheduler:
    """Release checks wait here until the test says the bounce time has passed."""

    def __init__(self) -> None:
        self.pending: list[Any] = []

    def __call__(self, delay: float, action: Any) -> None:
        self.pending.append(action)

    def settle(self) -> None:
        pending, self.pending = self.pending, []
        for action in pending:
            action()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def settings() -> dict[str, Any]:
    data = copy.deepcopy(config.load(search=False).data)
    data["buttons"]["hold_ms"] = 150
    data["pads"]["hold_ms"] = 150
    data["pads"]["gpio"] = [dict(PAD)]
    return data


def tap(factory: MockFactory, pin: int, scheduler: ManualScheduler) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()
    scheduler.settle()


def test_driving_a_pin_low_produces_the_event(factory: MockFactory, settings: dict[str, Any]) -> None:
    events, scheduler = EventQueue(), ManualScheduler()
    with GpioButtons(settings, events, factory, scheduler):
        factory.pin(6).drive_low()  # host right: no hold meaning, so reported at the press
        assert events.drain() == [InputEvent("host", "right")]
        factory.pin(6).drive_high()
        scheduler.settle()
        tap(factory, 27, scheduler)
        assert events.drain() == [InputEvent("1", "right")]


def test_contact_bounce_is_one_press(factory: MockFactory, settings: dict[str, Any]) -> None:
    events, scheduler = EventQueue(), ManualScheduler()
    with GpioButtons(settings, events, factory, scheduler) as buttons:
        pin = factory.pin(6)
        for _ in range(4):  # chatter on closing: edges faster than the bounce time
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        scheduler.settle()  # every release check is stale or sees the pin down
        assert events.drain() == [InputEvent("host", "right")]
        for _ in range(3):  # chatter on opening
            pin.drive_high()
            pin.drive_low()
        pin.drive_high()
        scheduler.settle()
        assert events.drain() == []
        assert buttons.decoders[6].chatter >= 6
        tap(factory, 6, scheduler)  # a real second press
        assert events.drain() == [InputEvent("host", "right")]


def test_a_release_is_confirmed_only_if_the_pin_stayed_released(factory: MockFactory, settings: dict[str, Any]) -> None:
    events, scheduler = EventQueue(), ManualScheduler()
    with GpioButtons(settings, events, factory, scheduler):
        factory.pin(19).drive_low()
        factory.pin(19).drive_high()  # host back: its press is reported on a confirmed release
        assert events.drain() == []
        scheduler.settle()
        assert events.drain() == [InputEvent("host", "back")]


def test_many_quick_presses_all_count(factory: MockFactory, settings: dict[str, Any]) -> None:
    events, scheduler = EventQueue(), ManualScheduler()
    with GpioButtons(settings, events, factory, scheduler):
        for _ in range(5):
            tap(factory, 13, scheduler)
    assert events.drain() == [InputEvent("host", "ok")] * 5


def test_hold_back_on_the_host_is_a_hold_not_a_press(factory: MockFactory, settings: dict[str, Any]) -> None:
    events = EventQueue()
    with GpioButtons(settings, events, factory):
        factory.pin(19).drive_low()
        assert events.get(timeout=60) == InputEvent("host", "back", "hold")  # when_held runs on gpiozero's thread
        factory.pin(19).drive_high()
        assert events.get(timeout=0.3) is None, "a hold is never also a press"


def test_short_back_with_real_timers(factory: MockFactory, settings: dict[str, Any]) -> None:
    events = EventQueue()
    with GpioButtons(settings, events, factory):
        factory.pin(19).drive_low()
        time.sleep(0.02)  # shorter than the bounce time: still one press, once the release has settled
        factory.pin(19).drive_high()
        assert events.get(timeout=60) == InputEvent("host", "back")


def test_hold_ok_on_a_three_button_pad_means_back(factory: MockFactory, settings: dict[str, Any]) -> None:
    events = EventQueue()
    with GpioButtons(settings, events, factory):
        factory.pin(22).drive_low()
        assert events.get(timeout=60) == InputEvent("1", "back")
        factory.pin(22).drive_high()
        time.sleep(0.1)
        factory.pin(22).drive_low()
        factory.pin(22).drive_high()
        assert events.get(timeout=60) == InputEvent("1", "ok")


def test_buttons_release_their_pins_on_close(factory: MockFactory, settings: dict[str, Any]) -> None:
    events = EventQueue()
    GpioButtons(settings, events, factory).close()
    with GpioButtons(settings, events, factory):  # would raise GPIOPinInUse if a pin were still held
        factory.pin(6).drive_low()
    assert events.drain() == [InputEvent("host", "right")]


def test_a_failed_build_releases_what_it_took(factory: MockFactory, settings: dict[str, Any]) -> None:
    events = EventQueue()
    settings["pads"]["gpio"].append({"left": 5, "right": 20, "ok": 21, "led": -1})  # 5 is host left
    with pytest.raises(GPIOPinInUse):
        GpioButtons(settings, events, factory)
    settings["pads"]["gpio"].pop()
    with GpioButtons(settings, events, factory):
        pass


def test_pad_led_and_buzzer(factory: MockFactory, settings: dict[str, Any]) -> None:
    indicators = GpioIndicators(settings, factory)
    try:
        indicators.led("1", "turn", "on")
        assert factory.pin(23).state
        indicators.led("1", "turn", "off")
        assert not factory.pin(23).state
        indicators.led("1", "area:castello", "on")  # a keypad's key light: a GPIO pad has only its turn light
        assert not factory.pin(23).state
        indicators.led("2", "turn", "on")  # no such LED: ignored
        indicators.beep("1", 50)
        deadline = time.monotonic() + 60  # a hang guard
        while not any(state for _, state in factory.pin(12).states) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(state for _, state in factory.pin(12).states), "the buzzer pin went high"
    finally:
        indicators.close()


def test_tonal_buzzer(factory: MockFactory, settings: dict[str, Any]) -> None:
    settings["buzzer"]["tonal"] = True
    indicators = GpioIndicators(settings, factory)
    try:
        indicators.beep("1", 50)
        assert factory.pin(12).frequency is not None
    finally:
        indicators.close()


def test_gpiozero_pin_factory_chooses_the_pin_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero's own variable (e.g. pigpio for a remote Pi) is honoured; a wrong name is one line naming it."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from hardware.gpio import pi_pin_factory

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = pi_pin_factory()
    try:
        assert isinstance(factory, MockFactory)
    finally:
        factory.close()
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nonsense")
    with pytest.raises(RuntimeError) as raised:
        pi_pin_factory()
    assert re.fullmatch(
        "GPIOZERO_PIN_FACTORY=nonsense: Unable to find pin factory ['\"]nonsense['\"]", str(raised.value)
    )
