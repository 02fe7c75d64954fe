"""Game-night responsiveness (issue 4; budgets tightened by issue 18).

- press -> frame: an event put on the queue (as a hardware thread does) until the frame is pushed to a dummy
  320x240 display by the game thread: controller, renderer and display together. Budget on the development machine:
  p99 under 10 ms (the LCD itself needs about 40 ms for a full frame over SPI; a display thread sends it).
- idle CPU: the process's CPU time while the companion waits for input. Budget: under 0.5% of a core.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion import config
from companion.app import App
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from hardware.events import InputEvent
from hardware.pty_pad import PtyPad

SEED = 11


def game_events() -> list[InputEvent]:
    """The button presses of a whole 4-player game, as a simulated table makes them."""
    table = Table(Controller(random.Random(SEED)), random.Random(3), ["1", "2", "3", "4"], keypads=False)
    table.setup()
    table.play()
    return table.events


def settings(**pads: object) -> config.Settings:
    data = config.load(search=False).data
    data["display"]["driver"] = "capture"
    data["pads"].update(pads or {"serial": "off"})
    return config.Settings(data, None)


def press_to_frame() -> tuple[list[float], int]:
    events = game_events()
    app = App(settings(), seed=SEED)
    pushed: list[float] = []
    show = app.display.show

    def timed_show(image: object) -> bool:
        changed = show(image)  # type: ignore[arg-type]
        if changed:
            pushed.append(time.perf_counter())
        return changed

    app.display.show = timed_show  # type: ignore[method-assign]
    stop = threading.Event()
    thread = threading.Thread(target=app.run, args=(stop,))
    thread.start()
    latencies = []
    try:
        time.sleep(0.1)
        for event in events:
            before = len(pushed)
            start = time.perf_counter()
            app.events.put(event)
            deadline = start + 1.0
            while len(pushed) == before and time.perf_counter() < deadline:
                time.sleep(0.0002)
            if len(pushed) > before:
                latencies.append((pushed[-1] - start) * 1000)
    finally:
        stop.set()
        app.events.wake()
        thread.join()
        app.close()
    return latencies, len(events)


def idle_cpu(seconds: float = 3.0, pad: bool = False) -> float:
    with tempfile.TemporaryDirectory() as folder:
        ptypad = PtyPad(Path(folder) / "pad", boot=1) if pad else None
        app = App(settings(serial=[str(ptypad.path)]) if ptypad else settings(), seed=SEED)
        stop = threading.Event()
        thread = threading.Thread(target=app.run, args=(stop,))
        thread.start()
        time.sleep(1.0)  # settle: first frame, pad hello
        before_cpu, before_wall = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        used = time.process_time() - before_cpu
        wall = time.perf_counter() - before_wall
        stop.set()
        app.events.wake()
        thread.join()
        app.close()
        if ptypad:
            ptypad.close()
    return 100 * used / wall


def main() -> None:
    print("game night (320x240, dummy display)")
    latencies, presses = press_to_frame()
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99)]
    median = statistics.median(latencies)
    print(f"{'press -> frame pushed':<44} median {median:7.2f} ms   p99 {p99:7.2f} ms   ({len(latencies)} frames, "
          f"{presses} presses)")  # fmt: skip
    quiet = idle_cpu()
    print(f"{'idle CPU, waiting for input':<44} {quiet:10.3f} % of a core")
    with_pad = idle_cpu(pad=True)
    print(f"{'idle CPU, with one USB keypad connected':<44} {with_pad:10.3f} % of a core")
    verdict = "met" if p99 < 10 and max(quiet, with_pad) < 0.5 else "MISSED"
    print(f"budgets: p99 < 10 ms and idle < 0.5% of a core {verdict}")


if __name__ == "__main__":
    main()
