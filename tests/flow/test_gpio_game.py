"""A whole game on 3-button GPIO pads: every press is a MockFactory pin driven low and high, through the App.

No real time passes in it: a held ok (back) is the hold gpiozero's timer would report, given at once to
the button's decoder, and the game thread is waited for with a hang guard only."""

from __future__ import annotations

import random
import threading
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.app import App
from companion.engine import replay_text, snapshot
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.system import config
from hardware.events import PageTick
from tests.hardware.test_serial_pads import wait_for
from tests.helpers import without_stamps

PADS = {"1": (17, 27, 22), "2": (16, 20, 21), "3": (23, 24, 25)}
HOST = {"left": 5, "right": 6, "ok": 13, "back": 19}


def test_a_whole_game_on_gpio_three_button_pads(tmp_path: Path) -> None:
    seed = 8
    config_file = tmp_path / "config.toml"
    pads = "".join(f"[[pads.gpio]]\nleft = {l}\nright = {r}\nok = {o}\n" for l, r, o in PADS.values())  # noqa: E741
    config_file.write_text(
        # hold_ms: gpiozero's own hold timer never fires during a press here; the test gives the hold itself.
        '[display]\ndriver = "capture"\npage_seconds = 0\n[pads]\nserial = "off"\nhold_ms = 10000\n[buttons]\n'
        "bounce_ms = 0\n" + pads
    )
    settings = config.load(config_file)
    factory = MockFactory(pin_class=MockPWMPin)
    app = App(settings, pin_factory=factory, seed=seed)
    controller = Controller(random.Random(seed))
    app.controller.parts.size = None  # the pins are under test here, not the parts (tests/flow/test_paging.py)
    table = Table(controller, random.Random(4), ["1", "2", "3"], keypads=False)
    table.setup()
    table.play()
    expected = table.controller.record
    stop = threading.Event()
    thread = threading.Thread(target=app.run, args=(stop,))
    thread.start()
    try:
        for event in table.events:
            if isinstance(event, PageTick):  # the table waited for a part to turn: the page timer's tick, here given
                app.events.put(event)
                continue
            if event.source == "host":
                pin = factory.pin(HOST[event.key])
                pin.drive_low()
                pin.drive_high()
                continue
            left, right, ok = PADS[event.source]
            pin = factory.pin({"left": left, "right": right, "ok": ok, "back": ok}[event.key])
            pin.drive_low()
            if event.key == "back":  # a 3-button pad's back is a held ok: what gpiozero reports after hold_ms
                app.buttons.decoders[ok].held()
            pin.drive_high()
        # A hang guard, not a verdict: the game thread works through the queue at whatever speed the machine has.
        wait_for(lambda: len(app.controller.record) == len(expected) and app.controller.stage == "over", 900)
    finally:
        stop.set()
        app.events.wake()
        thread.join(timeout=10)
        app.close()
        factory.reset()
    assert without_stamps(app.controller.record) == without_stamps(expected)
    assert app.controller.state is not None
    assert snapshot(replay_text(app.controller.record)) == snapshot(app.controller.state)
