"""The companion on a Raspberry Pi (issues 18 and 26): ``python3 dev.py bench pi``.

No Pi is needed and nothing is throttled. Each figure is built from what can be measured exactly on this machine and
one stated conversion:

- the CPU time of each step, read from the thread's (or the process's) own CPU clock (``time.thread_time``,
  ``wait4``'s resource usage): other programs on a shared machine change the wall time, not these;
- the bytes each frame puts on the SPI wire (the companion's real luma drivers over a recording bus) and the SQLite
  commits each press makes (counted);
- the conversion: a Pi core is ``factor`` times slower than one core here (:func:`factors`: this machine's
  speed on a reference loop over each Pi's, stated in :data:`PI_RATES`), and the wire carries ``bus_speed_mhz``
  (the config's SPI clock) bits per microsecond.

A throttle that stops and continues a process (the previous version of this benchmark) cannot slow short work as
much as long work; the burst check at the top shows that the CPU clock used here charges the same cost per unit of
work to a 0.1 ms burst as to a 100 ms one, so one factor converts every figure alike.

Figures (targets from issue 18):

- press -> on the glass, per driver (and once more for the ILI9341 with every notice handed to a voice whose device
  never takes audio, printed beside the others: it must be the same figure, issue 37): the game thread's whole step
  for the press (controller, the record line committed to SQLite, drawing at the panel's size, the driver finding
  what changed) x factor, plus the SPI wire and, on the presses that commit a record line (about one in nine), the
  SD card's share of the commit. Target: p99 < 50 ms. Measured here for each press: its CPU, its bytes, its SPI
  transfers, the WAL frames its commit appended and whether the -wal file grew (SQLite's WAL index header,
  sqlite.org/walformat.html 2.1: mxFrame).
  Modelled, each from published figures (:func:`press_to_glass_on`):

  * the wire: bytes x 8 at the clock the Pi really gives, not the one asked for: the BCM283x SPI clock is the VPU
    core clock over an even divider (Linux drivers/spi/spi-bcm2835.c, bcm2835_spi_transfer_one: ``cdiv =
    DIV_ROUND_UP(clk_hz, spi_hz); cdiv += cdiv % 2``), and the core clock is 400 MHz on a Pi 3 B and a Zero 2 W
    and 500 MHz on a Pi 4 B by default (Raspberry Pi documentation, config.txt "Overclocking options", core_freq):
    32 MHz asked gives 28.6 MHz on the first two and 31.25 MHz on the Pi 4 (less when its core clock drops,
    raspberrypi/linux #3381). Plus a cost per transfer (luma sends a frame in 4,096-byte writes, each an ioctl,
    DMA-mapped from 96 bytes, BCM2835_SPI_DMA_MIN_LENGTH): TRANSFER_MS = 0.08 ms, from notro's full-frame times
    of fbtft by transfer size on a Pi 1 (msperl/spi-bcm2835 #13: a 40,960-byte frame 17.98 ms in 1,024-byte
    transfers against 14.92 ms in one, (17.98 - 14.92) / 39 = 0.078 ms a transfer; 0.135 ms for a 77,440-byte
    one). A Pi 1's core is slower than these Pis', so it is an upper estimate; a measured one replaces it.
  * the SD card: ``synchronous=FULL`` makes each commit wait for the card to write the WAL frames it appended
    (4,120 bytes each: ceil(frames x 4,120 / 4,096) + 1 blocks of 4 KiB, the first shared with the last commit),
    and 3 more for ext4's journal while the -wal file grows (its size is metadata). Each block is timed at the
    card's published 4K random write rate (Jeff Geerling, pidramble.com/wiki/benchmarks/microsd-cards, Raspberry
    Pi 4 model B, "4K rand write", iozone): SanDisk Extreme Pro A1 32GB 4.70 MB/s (0.87 ms a block), SanDisk Ultra
    16GB 1.52 MB/s (2.69 ms), Toshiba C10 U1 16GB 0.22 MB/s (18.6 ms); the A1 class itself promises 500 random
    writes a second (2 ms). The commit that fills the WAL to wal_autocheckpoint pages also copies them into the
    database file (at most the database's pages, each timed as a block): a max, not a p99.

  The CPU, the wire and the card are added up as the game thread does them one after the other (commit, draw,
  push). A design that draws while the commit's fsync runs and pushes once it has returned would cost
  max(card, draw) + wire on a committing press and still show nothing unsaved: not done here.
- start -> first frame: the CPU time of the whole ``doge-companion run`` process (interpreter start, imports, first
  frame, exit) x factor, bytecode compiled (as ``pip install`` leaves the Pi's venv). Reading the files from the
  SD card is not modelled. Target: < 2 s.
- hard player: a Pi's hard player measures its own speed and takes the work that fits its budget (0.25 s), so its
  strength is that work: this build's work per CPU second here / factor x budget, shown next to what it takes here.
  Then its decisions at that work (view included), CPU here x factor. Target: <= 1 s, max included; none past the
  3 budgets after which a search is cut short.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from . import figures

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 3000  # the first presses of the simulated game, as in benchmarks/wire.py
YEARS = 2
BURSTS_MS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)

# How fast each Pi's core runs the reference loop (:func:`_spin`), in steps per CPU second, stated once; the factor
# for a machine is its own rate measured at the start of a run divided by these, so the figures do not move with
# the host (a stated factor per host did: the same commit's start-up measured 99 ms one day and 233 ms on another
# VM of the same kind, which would have made every "Pi" figure 2.35x worse). Derived from issue 18's estimate (a
# Pi 3 B core 10x slower than the development machine, an AMD EPYC core then running this loop at ~20.2 million
# steps a second; pyperformance ratios agree), the Zero 2 W by its clock (the same Cortex-A53 at 1.0 instead of
# 1.2 GHz), the Pi 4's Cortex-A72 at 1.8 GHz about 2.5 times a Pi 3's core. On a real Pi, `bench pi` prints its own
# rate on its first lines: that is the number to put here.
PI_RATES: dict[str, float] = {"Pi 3 B": 2.02e6, "Zero 2 W": 1.68e6, "Pi 4 B": 5.05e6}
CORE_MHZ = {"Pi 3 B": 400, "Zero 2 W": 400, "Pi 4 B": 500}  # the VPU core clock the SPI clock is divided from
TRANSFER_MS = 0.08  # an SPI transfer's own cost (ioctl, DMA mapping), notro's Pi 1 figure: see the module's text
# microSD cards' 4K random write, MB/s, as published (see the module's text): a good, a typical and a slow one.
CARDS = {"good card": 4.70, "typical card": 1.52, "slow card": 0.22}
CARD_NAMES = {
    "good card": "SanDisk Extreme Pro A1",
    "typical card": "SanDisk Ultra",
    "slow card": "Toshiba C10 U1",
}
BLOCK = 4096
WAL_FRAME = 24 + 4096  # a WAL frame: its header and one page (the store's page size, SQLite's default)


def spi_clock(model: str, asked_hz: float) -> float:
    """The clock the Pi's SPI controller gives for ``asked_hz``: its core clock over the smallest even divider that
    does not exceed the request (spi-bcm2835)."""
    core = CORE_MHZ[model] * 1_000_000
    divider = 2 if asked_hz >= core / 2 else math.ceil(core / asked_hz)
    return core / (divider + divider % 2)


def card_ms(blocks: int, mb_per_s: float) -> float:
    return blocks * BLOCK / (mb_per_s * 1_000_000) * 1000


def host_rate(steps: int = 2_000_000, repeats: int = 5) -> float:
    """This machine's reference-loop steps per CPU second (the best of ``repeats``: interference only slows it)."""
    best = 0.0
    for _ in range(repeats):
        started = time.thread_time()
        _spin(steps)
        best = max(best, steps / max(time.thread_time() - started, 1e-9))
    return best


@cache
def factors() -> dict[str, float]:
    """Per-core slow-down of each Pi against one core here: this machine's rate over each Pi's stated rate, measured
    once per run."""
    rate = host_rate()
    return {model: round(rate / pi_rate, 2) for model, pi_rate in PI_RATES.items()}


MODEL_NOTES = {
    "Pi 3 B": "Cortex-A53 1.2 GHz",
    "Zero 2 W": "Cortex-A53 1.0 GHz",
    "Pi 4 B": "Cortex-A72 1.8 GHz",
}


def _spin(units: int) -> int:
    """``units`` equal steps of pure-Python work (the companion's work is pure Python and PIL): the numbers stay
    small, so a step costs the same in a short burst as in a long one."""
    total = 0
    for _ in range(units):
        total = (total * 31 + 7) & 0xFFFF
    return total


def burst_check(bursts: tuple[float, ...] = BURSTS_MS, smoke: bool = False) -> list[tuple[float, float, float]]:
    """(target ms, measured CPU ms, cost per unit relative to the 10 ms burst) for fixed bursts of work."""
    calibration = 200_000
    started = time.thread_time()
    _spin(calibration)
    per_ms = calibration / max((time.thread_time() - started) * 1000, 1e-6)
    rows = []
    for target in bursts:
        units = max(1, int(per_ms * target))
        repeats = 1 if smoke else max(3, min(200, int(300 / target)))
        costs = []
        for _ in range(repeats):
            before = time.thread_time()
            _spin(units)
            costs.append((time.thread_time() - before) * 1000)
        rows.append((target, statistics.median(costs), statistics.median(costs) / units))
    reference = next((per_unit for target, _ms, per_unit in rows if target == 10.0), rows[-1][2])
    return [(target, ms, per_unit / reference) for target, ms, per_unit in rows]


class PressMeter:
    """Steps the companion's own App in this thread, a real driver on a recording SPI bus as its display."""

    def __init__(self, driver: str, state_dir: str, stuck_voice: bool = False) -> None:
        import luma.lcd.device

        from companion.app import App
        from companion.system import config
        from display.backends import Display
        from display.panels import PANELS
        from display.wiretap import Wire

        from .flow import SEED, settings
        from .wire import DC, ours

        luma.lcd.device.sleep = lambda _seconds: None  # ili9341's 120 ms start-up pause is for the silicon
        self.clock = config.load(search=False)["display"]["bus_speed_mhz"] * 1_000_000
        self.app = App(settings(state_dir), seed=SEED, sound_output=stuck_output() if stuck_voice else None)
        self.app.display.close()
        self.wire = Wire(DC)
        self.app.display = Display(ours(driver, self.wire, PANELS[driver].native), threaded=False)
        self.app.controller.parts.size = self.app.display.size
        self.blocks = 0  # the 4 KiB blocks the card writes for this press's commits
        self.checkpoint = 0  # pages a checkpoint copied into the database file during this press
        save = self.app.saver.save
        store = self.app.store.path
        assert store is not None
        limit = self.app.store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]

        def counted(lines: list[str], summary: dict[str, Any]) -> None:
            (before, _pages), size = wal_index(store), wal_size(store)
            save(lines, summary)
            (after, pages), grown = wal_index(store), wal_size(store) > size
            frames = after - before if after >= before else after  # the log starts again after a checkpoint
            self.blocks += math.ceil(frames * WAL_FRAME / BLOCK) + 1 + (3 if grown else 0)
            if before < limit <= after:  # this commit filled the log: it copies it into the database file
                self.checkpoint += min(after, pages)

        self.app.saver.save = counted  # type: ignore[method-assign]
        self.app.show(self.app.controller.screen())

    def press(self, event: Any) -> tuple[float, int, int, int, int] | None:
        """(CPU ms of the step, bytes sent, SPI transfers, card blocks its commits wrote, checkpointed pages) for one
        press; None if it put nothing on the glass."""
        frames, sent, transfers = self.app.display.frames, self.wire.bytes, self.wire.transfers
        self.blocks = self.checkpoint = 0
        started = time.thread_time()
        self.app.step(event)
        cpu = (time.thread_time() - started) * 1000
        if self.app.display.frames == frames:
            return None
        return cpu, self.wire.bytes - sent, self.wire.transfers - transfers, self.blocks, self.checkpoint

    def close(self) -> None:
        self.app.close()


def stuck_output() -> Any:
    """ALSA with a player that opens and then never takes audio (the voice's tests' stand-in)."""
    from hardware.speech import Alsa
    from tests.hardware.test_speaker import STUCK

    return Alsa("null", player=STUCK)


def press_to_glass(driver: str, presses: int, stuck_voice: bool = False) -> dict[str, Any]:
    from display.panels import PANELS

    from .flow import game_events

    with tempfile.TemporaryDirectory() as folder:
        meter = PressMeter(driver, folder, stuck_voice)
        events = game_events(PANELS[driver].native)[:presses]
        try:
            found = [meter.press(event) for event in events]
        finally:
            meter.close()
    shown = [press for press in found if press is not None]
    return {
        "cpu": [press[0] for press in shown],
        "bytes": [press[1] for press in shown],
        "transfers": [press[2] for press in shown],
        "blocks": [press[3] for press in shown],
        "checkpointed": [press[4] for press in shown],
        "commits": sum(press[3] > 0 for press in shown),
        "clock": meter.clock,
        "presses": len(events),
    }


def wal_index(store: Path) -> tuple[int, int]:
    """(frames in the WAL, pages in the database) from the WAL index header at the start of the -shm file
    (sqlite.org/walformat.html 2.1: mxFrame at byte 16, nPage at 20, in the machine's byte order)."""
    with open(f"{store}-shm", "rb") as shm:
        header = shm.read(24)
    return struct.unpack_from("=II", header, 16) if len(header) == 24 else (0, 0)


def wal_size(store: Path) -> int:
    try:
        return os.path.getsize(f"{store}-wal")
    except OSError:
        return 0


def press_to_glass_on(measured: dict[str, Any], model: str, factor: float, card: float | None) -> list[float]:
    """Each press's modelled time on MODEL (ms): CPU x factor + the wire at the clock it gives + the transfers'
    own cost + (with a CARD's MB/s) the blocks its commits wrote and any checkpoint's pages."""
    clock = spi_clock(model, measured["clock"])
    presses = zip(
        measured["cpu"],
        measured["bytes"],
        measured["transfers"],
        measured["blocks"],
        measured["checkpointed"],
        strict=True,
    )
    return [
        cpu * factor + sent * 8 / clock * 1000 + transfers * TRANSFER_MS
        + (card_ms(blocks + pages, card) if card is not None else 0.0)
        for cpu, sent, transfers, blocks, pages in presses
    ]  # fmt: skip


def start_cpu(runs: int) -> tuple[list[float], float]:
    """CPU seconds of whole ``doge-companion run`` processes up to their first frame (and exit), bytecode cached, and
    of one with no bytecode at all (every module compiled at start)."""
    from .startup import first_frame

    with tempfile.TemporaryDirectory() as cache:
        cold = first_frame(Path(cache), write=False)[1]
        first_frame(Path(cache))  # writes the bytecode
        return [first_frame(Path(cache))[1] for _ in range(runs)], cold


def hard_decisions(years: int, work: int | None = None) -> dict[str, Any]:
    """CPU ms of each of the hard seat's decisions (making its view included) in a seeded game against two normal
    players, with ``work`` units per decision (None: what this machine affords in the budget)."""
    from companion.bots import HardBot, make_bot
    from companion.engine import State

    from .bots import play_bots

    rng = random.Random(18)
    bots = [make_bot("hard", 1, work), make_bot("normal", 2), make_bot("normal", 3)]
    hard = bots[0]
    assert isinstance(hard, HardBot)
    state = State(["a", "b", "c"])
    found = play_bots(state, bots, rng, years, time.thread_time)
    times = [seconds * 1000 for seat, seconds in found if seat == 0]
    return {"times": times, "work": hard.work, "budget": hard.budget, "overrun": hard.OVERRUN}


def hard_player(years: int, smoke: bool) -> None:
    """A Pi's hard player measures its own speed and takes the work that fits its budget: that work per model
    (this build's speed / factor), then its decisions at that work, timed here x factor."""
    from companion.bots import players
    from companion.bots.calibration import SHARE, work_per_second

    rate = work_per_second(clock=time.thread_time)
    build = "pure Python" if players.__file__.endswith(".py") else "compiled by mypyc"
    here = hard_decisions(years)
    print(f"hard player (this checkout's search: {build}; install.sh's wheel compiles it): {rate / 1e6:.2f} million "
          f"units of work per CPU second here; here it takes {here['work']:,} units a decision, CPU median "
          f"{statistics.median(here['times']):.1f} ms")  # fmt: skip
    cells = []
    for model, factor in factors().items():
        work = int(rate / factor * here["budget"] * SHARE)
        times = [value * factor for value in hard_decisions(years, work)["times"]]
        late = sum(value > 1000 * here["overrun"] * here["budget"] for value in times)
        verdict = _verdict(max(times), 1000, smoke)
        print(f"  {model:<9} x{factor:<3g} {work:>9,} units ({work / here['work']:4.0%} of here's): median "
              f"{statistics.median(times):5.0f} ms max {max(times):5.0f} ms{verdict} (<= 1 s); {late} of {len(times)} "
              f"past {here['overrun'] * here['budget']:g} s (cut short)")  # fmt: skip
        cells.append(f"{model} {work:,} units, max {max(times) / 1000:.2f} s")
    figures.report(
        "on a Pi: the hard player at the work it affords in its budget, and its slowest decision",
        f"{build} search, {here['budget']:g} s budget: " + "; ".join(cells),
        "<= 1 s",
    )


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _verdict(value: float, limit: float, smoke: bool) -> str:
    return "" if smoke else (" PASS" if value <= limit else " FAIL")


def _per_model(label: str, value: Callable[[float], str]) -> None:
    print(f"  {label:<30}" + "   ".join(f"{model} {value(factor)}" for model, factor in factors().items()))


def press_to_glass_report(driver: str, measured: dict[str, Any], smoke: bool) -> dict[str, dict[str, float]]:
    """What was measured here, what is modelled, and press -> glass on each Pi with no card counted and with each
    card (the verdict: the typical card); returns the p99s by model and card."""
    cpu, sent, transfers, blocks = measured["cpu"], measured["bytes"], measured["transfers"], measured["blocks"]
    committing = [count for count in blocks if count]
    asked = measured["clock"] / 1e6
    print(f"press -> on the glass, {driver} ({len(cpu)} frames of {measured['presses']} presses; "
          f"{measured['commits']} of them committed a record line; SPI {asked:g} MHz asked)")  # fmt: skip
    print(f"  measured here: step CPU median {statistics.median(cpu):6.3f} ms p99 {_p99(cpu):6.3f} ms; bytes "
          f"median {statistics.median(sent):,.0f} p99 {_p99(sent):,.0f}; SPI transfers median "
          f"{statistics.median(transfers):.0f} p99 {_p99(transfers):.0f}; card blocks a commit median "
          f"{statistics.median(committing or [0]):.0f} max {max(committing or [0])}; "
          f"{sum(map(bool, measured['checkpointed']))} checkpoint(s)")  # fmt: skip
    clocks = ", ".join(f"{model} {spi_clock(model, measured['clock']) / 1e6:.2f} MHz" for model in factors())
    print(f"  modelled: CPU x factor; the wire at the clock a Pi gives ({clocks}) + {TRANSFER_MS} ms a transfer; a "
          f"commit's blocks at a card's 4K random write: " + ", ".join(
              f"{kind} ({CARD_NAMES[kind]}) {rate} MB/s = {card_ms(1, rate):.2f} ms" for kind, rate in CARDS.items()
          ))  # fmt: skip
    found: dict[str, dict[str, float]] = {}
    for model, factor in factors().items():
        bare = press_to_glass_on(measured, model, factor, None)
        found[model] = {"no card": _p99(bare)}
        cells = [f"no card {_p99(bare):5.1f}"]
        for kind, rate in CARDS.items():
            glass = press_to_glass_on(measured, model, factor, rate)
            found[model][kind] = _p99(glass)
            verdict = _verdict(_p99(glass), 50, smoke) if kind == "typical card" else ""
            cells.append(f"{kind} {_p99(glass):5.1f}{verdict} (max {max(glass):6.0f})")
        print(f"  {model:<9} x{factor:<4g} p99 ms: " + "; ".join(cells) + "  (p99 < 50 ms)")
    return found


def main(smoke: bool = False) -> None:
    """``smoke``: a few presses, one start, one year's first decisions, no verdicts (the test suite's run)."""
    print("The companion on a Raspberry Pi: CPU time measured here x a per-core factor (measured: CPU, bytes, SPI "
          "transfers, WAL frames; modelled from published figures: the Pi's SPI clock, a transfer's cost, the SD "
          "card's writes)")  # fmt: skip
    named = ", ".join(f"{model} ({MODEL_NOTES[model]}) x{factor:g}" for model, factor in factors().items())
    rate = factors()["Pi 3 B"] * PI_RATES["Pi 3 B"]
    print(
        f"  this machine runs the reference loop at {rate / 1e6:.2f} million steps per CPU second; stated "
        "for a Pi: " + ", ".join(f"{model} {rate / 1e6:.2f}" for model, rate in PI_RATES.items())
    )
    print(f"  factors (a Pi core against one core here, their ratio): {named}")

    print("burst check: fixed bursts of pure-Python work, CPU time of this thread (time.thread_time)")
    for target, measured, relative in burst_check(BURSTS_MS[:3] if smoke else BURSTS_MS, smoke):
        pi3 = factors()["Pi 3 B"]
        print(f"  burst {target:6.1f} ms: measured {measured:8.3f} ms CPU, cost per unit {relative:5.2f}x the 10 ms "
              f"burst's -> Pi 3 B {measured * pi3:8.2f} ms (slow-down {pi3:g}x at every length)")  # fmt: skip

    presses = 40 if smoke else PRESSES
    drivers = ("st7735", "st7789", "ili9341")
    glass = {driver: press_to_glass_report(driver, press_to_glass(driver, presses), smoke) for driver in drivers}
    # The voice (issue 37): the same press -> glass with every notice said to a device that never takes audio.
    press_to_glass_report(
        "ili9341, every notice said to a stuck audio device", press_to_glass("ili9341", presses, True), smoke
    )
    for model, factor in factors().items():
        figures.report(
            f"press to on the glass on a {model}, st7735 / st7789 / ili9341 (`bench pi`: CPU here x its factor, the "
            "SPI wire and the SD card modelled)",
            f"x{factor:g}: " + "; ".join(
                f"{kind} p99 " + " / ".join(f"{glass[driver][model][kind]:.1f}" for driver in drivers) + " ms"
                for kind in ("no card", "typical card", "slow card")
            ),
            "p99 < 50 ms (typical card)",
        )  # fmt: skip

    starts, cold = start_cpu(1 if smoke else 5)
    print(f"start -> first frame (whole process, byte-compiled): CPU here median {statistics.median(starts):5.3f} s "
          f"(no bytecode: {cold:5.3f} s)")  # fmt: skip
    for model, factor in factors().items():
        value = statistics.median(starts) * factor
        print(f"  {model:<9} x{factor:<3g} median {value:5.2f} s max {max(starts) * factor:5.2f} s"
              f"{_verdict(max(starts) * factor, 2, smoke)} (< 2 s; SD card reads not modelled); no bytecode "
              f"{cold * factor:5.2f} s")  # fmt: skip
    figures.report(
        "on a Pi: process start to first frame, `run --hardware mock`, byte-compiled (no bytecode; SD card reads "
        "not modelled): " + " / ".join(factors()),
        " / ".join(f"{statistics.median(starts) * factor:.2f}" for factor in factors().values())
        + " s ("
        + " / ".join(f"{cold * factor:.1f}" for factor in factors().values())
        + " s)",
        "< 2 s",
    )

    hard_player(1 if smoke else YEARS, smoke)


if __name__ == "__main__":
    main("--smoke" in sys.argv[1:])
