"""Press-to-event latency (the hardware layer, hardware/): from the moment a button is pressed to the moment the game
thread, blocked on the event queue, has the event. Through gpiozero's MockFactory and through a keypad on a
pseudo-terminal (the firmware's protocol code on one end, the host's reader thread on the other)."""

from __future__ import annotations

import copy
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.system import config
from hardware.events import EventQueue, InputEvent
from hardware.gpio import GpioButtons
from hardware.pty_pad import PtyPad
from hardware.serial_pads import PadLink, PadRegistry

from . import figures


def measure(events: EventQueue, press: Callable[[int], None], count: int, gap: float) -> list[float]:
    """Milliseconds from each ``press(i)`` to the consumer thread holding the event."""
    received: list[float] = []
    done = threading.Event()

    def consume() -> None:
        while len(received) < count:
            event = events.get(timeout=5)
            if event is None:
                break
            if isinstance(event, InputEvent):
                received.append(time.perf_counter())
        done.set()

    consumer = threading.Thread(target=consume)
    consumer.start()
    sent = []
    for i in range(count):
        sent.append(time.perf_counter())
        press(i)
        time.sleep(gap)
    done.wait(10)
    consumer.join()
    return [(r - s) * 1000 for s, r in zip(sent, received, strict=False)]


def report(label: str, samples: list[float], what: str) -> None:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{label:<44} median {statistics.median(samples):7.3f} ms   p99 {p99:7.3f} ms   (n={len(samples)})")
    figures.report(what, f"median {statistics.median(samples):.2f} ms, p99 {p99:.2f} ms")


def gpio_latency(count: int = 500) -> list[float]:
    from gpiozero.pins.mock import MockFactory

    settings = copy.deepcopy(config.load(search=False).data)
    factory = MockFactory()
    events = EventQueue()
    try:
        with GpioButtons(settings, events, factory, schedule=lambda _delay, action: action()):
            pin = factory.pin(5)  # host left: reported on the press edge

            def press(_: int) -> None:
                pin.drive_low()
                pin.drive_high()

            return measure(events, press, count, gap=0.002)
    finally:
        factory.reset()


def pty_latency(count: int = 300) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        pad = PtyPad(Path(folder) / "pad", boot=1)
        events = EventQueue()
        link = PadLink(str(pad.path), events, PadRegistry(["1"]), retry=0.05).start()
        try:
            deadline = time.monotonic() + 5
            while not link.connected and time.monotonic() < deadline:
                time.sleep(0.01)
            events.drain()
            keys = ("left", "right", "ok", "area:castello", "marker:2")
            return measure(events, lambda i: pad.press(keys[i % len(keys)]), count, gap=0.005)
        finally:
            link.close()
            pad.close()


def main(smoke: bool = False) -> None:
    """``smoke``: five presses each (the test suite's run)."""
    print("input latency: press -> event in the game thread")
    report("GPIO button (gpiozero MockFactory)", gpio_latency(5 if smoke else 500),
           "press to event in the game thread, GPIO button (mock pins)")  # fmt: skip
    report("serial keypad (pseudo-terminal, protocol v1)", pty_latency(5 if smoke else 300),
           "press to event in the game thread, USB keypad (pseudo-terminal)")  # fmt: skip


if __name__ == "__main__":
    main()
