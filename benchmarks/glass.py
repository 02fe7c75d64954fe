"""Press to glass on the panel a Pi really drives: ``.venv/bin/python -m benchmarks.glass`` on the Pi.

``bench pi`` models a Pi from the CPU a press takes here and published figures for the wire and the SD card. This
measures a Pi itself: the presses of a seeded whole game go through the companion's App with the device's own
configuration (the LCD, its driver, pins, SPI clock and rotation, the buzzer, the voice), the store in a folder of its
own in the current directory (the checkout on the Pi's SD card: its syncs are the card's), and each press is timed on
the wall clock from the press until the display thread has written the frame's last box (spidev returned). That is
the figure the README's table holds to 50 ms at p99 with the card: on a Pi 3 B with an ILI9341 it replaces ``bench
pi``'s factors, wire model and ``TRANSFER_MS`` with one measurement.

- The companion installed in the venv runs (the wheel install.sh built, its rules engine compiled), not the
  checkout's plain copy that ``python -m`` from the checkout would find first; the first line says which ran.
- The game is the one ``bench pi`` plays (English, private ballots, normal type: the presses are scripted for it);
  everything else is the device's. The presses come back to back and are fed to the App, so the buttons stay on a
  mock pin factory and the service's pins need not be free, but the panel must: stop the service first.
- Back to back is not a table: the store's idle checkpoint never runs (a table's pauses run it; here the WAL and the
  journal grow through the game, which makes some syncs longer), the voice has a backlog to say, and the Pi's clocks
  stay up (after a pause at a table the core clock, and with it the SPI clock, may start lower). Work the App does
  after a frame (the voice's queue, cues) counts only where it outlasts the frame's wire.
- Where the configuration names no LCD (a desktop, CI) it runs on the capture display and says that its figures are
  not a Pi's.

``python -m benchmarks.glass [--config FILE] [--presses N] [--games N]``, as root (the panel's SPI and pins).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.system.config import Settings

GAMES = 1
BUDGET_MS = 50.0  # the README's budget for a Pi 3 B: p99, the SD card's syncs included
FLUSH_GUARD_S = 30.0  # a hang guard for one frame, not a verdict
CHECKOUT = Path(__file__).resolve().parents[1]


def installed_first() -> None:
    """The venv's companion ahead of the checkout on the import path, where there is one (on a Pi, install.sh's
    wheel): called before anything of the companion is imported."""
    checkout = {"", str(CHECKOUT), str(Path.cwd())}
    others = [entry for entry in sys.path if entry not in checkout]
    found = importlib.machinery.PathFinder.find_spec("companion", others)
    if found is not None and found.origin is not None and CHECKOUT not in Path(found.origin).resolve().parents:
        sys.path[:] = others + [entry for entry in sys.path if entry in checkout]


def settings(config_file: Path | None, state_dir: str, search: bool) -> Settings:
    """The device's configuration (the service's file, or the user's and the card's as the command finds them), with
    the games kept in ``state_dir``, no keypads, and the table the scripted presses were made for."""
    from companion.system import config

    try:
        loaded = config.load(config_file, search=search)
    except config.ConfigError as error:
        raise SystemExit(f"bench glass: {error}") from None
    data = loaded.data
    data["game"].update(state_dir=state_dir, language="en", entry="private")
    data["display"]["text_size"] = "normal"
    data["pads"]["serial"] = "off"
    return replace(loaded, data=data)


def service_running() -> bool:
    """Whether the companion's service holds the panel now (where systemd runs it)."""
    if shutil.which("systemctl") is None:
        return False
    return subprocess.run(["systemctl", "is-active", "--quiet", "doge-companion"], check=False).returncode == 0


def press_to_glass(chosen: Settings, presses: int | None, seed: int) -> tuple[list[float], int]:
    """Wall-clock ms from each press to its frame on the glass (the presses that showed one), and the presses made.
    The first frame (the setup screen, as a start shows it) is out before the first press."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.app import App

    from .flow import game_events

    try:
        app = App(chosen, seed=seed, pin_factory=MockFactory(pin_class=MockPWMPin))  # PWM: a tonal buzzer
    except Exception as error:  # SPI off, the panel's pins held, a library missing: luma's and lgpio's own errors
        why = f"{type(error).__name__}: {error}"
        raise SystemExit(f"bench glass: the hardware could not be opened ({why}); stop the service first "
                         "(systemctl stop doge-companion) and check SPI is on") from None  # fmt: skip
    times: list[float] = []
    try:
        events = game_events(app.display.size, seed)[:presses]
        app.show(app.controller.screen())
        app.display.flush(FLUSH_GUARD_S)
        pusher = app.display.pusher
        for event in events:
            frames, failures = app.display.frames, pusher.failures if pusher is not None else 0
            started = time.perf_counter()
            app.step(event)
            if app.display.frames == frames:
                continue
            if not app.display.flush(FLUSH_GUARD_S):
                raise SystemExit(f"bench glass: a frame took over {FLUSH_GUARD_S:g} s to reach the panel")
            times.append((time.perf_counter() - started) * 1000)
            if pusher is not None and pusher.failures != failures:
                raise SystemExit("bench glass: a frame could not be written to the panel (the journal says why)")
        if presses is None and app.controller.stage != "over":
            raise SystemExit("bench glass: the scripted presses did not play the game to its end")
    finally:
        app.close()
    return times, len(events)


def main(smoke: bool = False, argv: list[str] | None = None) -> None:
    """``smoke``: the first 40 presses on the capture display, no verdict (the test suite's run)."""
    from .flow import SEED
    from .pi import _p99 as p99  # as bench pi takes it (imported here: after installed_first, as the App is)

    parser = argparse.ArgumentParser(prog="python -m benchmarks.glass", description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, help="the service's config file (default: as the command finds it)")
    parser.add_argument("--presses", type=int, help="only the first N presses of each game")
    parser.add_argument("--games", type=int, default=GAMES, help="whole seeded games (default %(default)s)")
    args = parser.parse_args(argv or [])
    presses, games = (40, 1) if smoke else (args.presses, max(1, args.games))
    times: list[float] = []
    played = 0
    real = False
    for game in range(games):
        with tempfile.TemporaryDirectory(prefix="bench-glass-", dir=None if smoke else Path.cwd()) as folder:
            chosen = settings(None if smoke else args.config, folder, search=not smoke)
            display = chosen["display"]
            real = chosen["hardware"] != "mock" and display["driver"] != "capture"
            if real and service_running():
                raise SystemExit("bench glass: the companion's service holds the panel: systemctl stop doge-companion")
            os.environ["LG_WD"] = folder  # lgpio's notification pipe: not in the checkout
            found, ran = press_to_glass(chosen, presses, SEED + game)
            times += found
            played += ran
    import companion
    from companion.engine import state

    build = "" if state.__file__.endswith(".py") else " (rules engine compiled)"
    if real:
        from display.panels import spi_hz

        what = f"{display['driver']} at {spi_hz(display) / 1e6:g} MHz asked, the store on {Path.cwd()}'s disk"
    else:
        what = "the capture display (no LCD configured here: these figures are not a Pi's)"
    print(f"press -> glass on this machine, wall clock, {what}; companion {Path(companion.__file__).parent}{build}: "
          f"{len(times)} frames of {played} presses")  # fmt: skip
    if not times:
        print("  no press showed a frame")
        return
    verdict = "" if smoke or not real else (" PASS" if p99(times) <= BUDGET_MS else " FAIL")
    print(f"  ms: p50 {statistics.median(times):5.1f} p99 {p99(times):5.1f} max {max(times):5.1f}{verdict} "
          f"(p99 < {BUDGET_MS:g} ms with the card)")  # fmt: skip


if __name__ == "__main__":
    sys.dont_write_bytecode = True  # run as root from the checkout: no root-owned __pycache__ left in it
    installed_first()
    main("--smoke" in sys.argv[1:], [arg for arg in sys.argv[1:] if arg != "--smoke"])
