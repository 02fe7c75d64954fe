"""The companion at a Raspberry Pi's speed (issue 18): ``python3 dev.py bench pi``.

Each figure is measured twice in a child process: raw, at this machine's speed, and emulated, with the child held to
one core and 1/``PI_FACTOR`` of its CPU time per wall second (see :mod:`benchmarks.throttle`: SIGSTOP/SIGCONT from
this process against the child's CPU time read from /proc). The child prepares (builds the App, plays the simulated
table that makes the presses) before the throttle starts, so only the measured part is slowed. Next to the raw
figures, ``x PI_FACTOR`` is the naive scaled estimate; the Pi verdicts use the emulated runs.

- press -> frame: an event put on the queue until the game thread has pushed the frame to a 320x240 capture display
  (controller, renderer, display), for the first ``PRESSES`` presses of a simulated 4-player game. The waiting side
  blocks on an Event (no polling, which would eat the throttled budget). The SPI wire is not included (no LCD here).
- start -> first frame: :mod:`benchmarks.startup`, byte-compiled (as ``pip install`` leaves the Pi's venv).
- hard player: making its view and deciding, first decision (the calibration probe) included, for the hard seat of
  a seeded game against two normal players until year ``YEARS``; its work per decision is measured in that process.
- idle CPU (raw only): the process's CPU time while it waits for input.

Targets (issue 18): at Pi speed press -> frame p99 < 50 ms, start -> first frame < 2 s, hard player <= 1 s per
decision, max included; on this machine press -> frame p99 < 10 ms and idle CPU < 0.5% of a core. On a shared,
loaded machine every figure is pessimistic: other programs take CPU from the measured one, throttled or not.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .throttle import PI_FACTOR, Throttle

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 600
YEARS = 2


def _child_flow(presses: int = PRESSES) -> dict[str, Any]:
    from companion import config
    from companion.app import App

    from .flow import SEED, game_events, settings

    events = game_events()[:presses]
    folder = tempfile.TemporaryDirectory()  # a game left unfinished must not be resumed by the next run
    data = settings().data
    data["game"]["state_dir"] = folder.name
    app = App(config.Settings(data, None), seed=SEED)
    shown = threading.Event()
    pushed = [0.0]
    show = app.display.show

    def timed_show(image: Any) -> bool:
        changed = show(image)
        if changed:
            pushed[0] = time.perf_counter()
            shown.set()
        return changed

    app.display.show = timed_show  # type: ignore[method-assign]
    stop = threading.Event()
    thread = threading.Thread(target=app.run, args=(stop,))
    thread.start()
    shown.wait(5)
    _ready()
    latencies = []
    try:
        for event in events:
            shown.clear()
            start = time.perf_counter()
            app.events.put(event)
            if shown.wait(2.0):
                latencies.append((pushed[0] - start) * 1000)
    finally:
        stop.set()
        app.events.wake()
        thread.join()
        app.close()
        folder.cleanup()
    return {"latencies": latencies}


def _child_bots() -> dict[str, Any]:
    from companion.bots import HardBot, make_bot
    from companion.engine import State

    from .bots import play_bots

    rng = random.Random(18)
    bots = [make_bot("hard", 1), make_bot("normal", 2), make_bot("normal", 3)]
    state = State(["a", "b", "c"])
    _ready()
    times = [seconds * 1000 for seat, seconds in play_bots(state, bots, rng, YEARS) if seat == 0]
    hard = bots[0]
    assert isinstance(hard, HardBot)
    return {"times": times, "work": hard.work, "cut_short": hard.cut_short}


def _ready() -> None:
    """Tell the parent the preparation is done, and wait for its go (the throttle is on by then)."""
    print("ready", flush=True)
    sys.stdin.readline()


def measure(kind: str, factor: float, presses: int = PRESSES, module: str = "benchmarks.pi") -> dict[str, Any]:
    """Run a child benchmark ``kind`` ("flow" or "bots"; ``module``'s own for another family) at ``factor`` times
    slower than this machine."""
    child = subprocess.Popen(
        [sys.executable, "-m", module, "--child", kind, str(presses)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    if child.stdout.readline().strip() != "ready":
        raise RuntimeError(f"the {kind} benchmark did not start")
    throttle = Throttle(child.pid, factor) if factor != 1.0 else None
    child.stdin.write("go\n")
    child.stdin.flush()
    try:
        result: dict[str, Any] = json.loads(child.stdout.readline())
    finally:
        if throttle is not None:
            throttle.stop()
        child.wait()
    return result


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _verdict(value: float, limit: float) -> str:
    return "PASS" if value < limit else "FAIL"


def main() -> None:
    from . import flow, startup

    f = PI_FACTOR
    print(f"Pi speed: raw on this machine, 'x{f:g}' = raw scaled by {f:g}, 'Pi' = emulated: the child on one core with")
    print(
        f"1/{f:g} of its CPU time per wall second (SIGSTOP/SIGCONT throttle). Medians; a loaded machine inflates all."
    )

    raw = measure("flow", 1.0)["latencies"]
    slow = measure("flow", f)["latencies"]
    print(f"{'press -> frame pushed, 320x240':<34} raw median {statistics.median(raw):6.2f} p99 {_p99(raw):6.2f} ms "
          f"{_verdict(_p99(raw), 10)} (< 10 ms) | x{f:g} p99 {_p99(raw) * f:6.1f} ms | Pi median "
          f"{statistics.median(slow):6.1f} p99 {_p99(slow):6.1f} ms {_verdict(_p99(slow), 50)} (< 50 ms) "
          f"[{len(raw)}/{len(slow)} presses]")  # fmt: skip

    quiet = flow.idle_cpu()
    print(f"{'idle CPU, waiting for input':<34} raw {quiet:.3f} % of a core {_verdict(quiet, 0.5)} (< 0.5%)")

    start_raw = startup.start_to_frame(runs=5)
    start_slow = startup.start_to_frame(runs=3, factor=f)
    print(f"{'start -> first frame (compiled)':<34} raw median {start_raw['compiled'] * 1000:6.0f} ms "
          f"(no bytecode: {start_raw['cold'] * 1000:.0f} ms) | x{f:g} {start_raw['compiled'] * f:6.2f} s | Pi median "
          f"{start_slow['compiled']:5.2f} s max {start_slow['max']:5.2f} s {_verdict(start_slow['max'], 2)} (< 2 s; "
          f"no bytecode: {start_slow['cold']:.2f} s)")  # fmt: skip

    bots_raw = measure("bots", 1.0)
    bots_slow = measure("bots", f)
    for label, figures in (("raw", bots_raw), ("Pi", bots_slow)):
        times = figures["times"]
        verdict = f" {_verdict(max(times), 1000.001)} (<= 1 s, max included)" if label == "Pi" else ""
        print(f"{'hard player, view + decision':<34} {label:<3} median {statistics.median(times):6.0f} ms "
              f"p99 {_p99(times):6.0f} ms max {max(times):6.0f} ms{verdict}; work {figures['work']} units "
              f"({len(times)} decisions, {figures['cut_short']} cut short)")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        result = _child_flow(int(sys.argv[3])) if sys.argv[2] == "flow" else _child_bots()
        print(json.dumps(result), flush=True)
    else:
        main()
