"""The companion on a Raspberry Pi (the README's Pi figures): ``python3 dev.py bench pi``.

No Pi is needed and nothing is throttled. Each figure is built from what can be measured exactly on this machine and
one stated conversion:

- the CPU time of each step, read from the thread's (or the process's) own CPU clock (``time.thread_time``,
  ``wait4``'s resource usage): other programs on a shared machine change the wall time, not these;
- the bytes each frame puts on the SPI wire (the companion's real luma drivers over a recording bus) and every sync
  each press makes the disk do, with the 4 KiB blocks written before it (counted in SQLite's own VFS calls:
  :mod:`benchmarks.syncs`);
- the conversion: each Pi runs a reference loop at a stated rate (:data:`PI_RATES`), and this machine is as fast as
  the loop says it is at that moment: a press's or a start's CPU is converted by the loop's rate right around it,
  on the same core, over the Pi's (its ``factor``; the figure at the pinned factor of :data:`PI_FACTORS` alone is
  printed beside it). Two checks are printed on every run: whether the loop and a new screen drawn change speed
  alike here (:func:`tracking_check`), and how often a press runs in a spell of the other speed that its readings
  miss (:func:`reading_check`). The wire carries each panel's configured SPI clock (``display.bus_speed_mhz``, 0:
  the panel's own default, display/panels.py) in bits per microsecond.

A throttle that stops and continues a process (the previous version of this benchmark) cannot slow short work as
much as long work; the burst check at the top shows that the CPU clock used here charges the same cost per unit of
work to a 0.1 ms burst as to a 100 ms one, so one factor converts every figure alike.

Figures (the README's budgets):

- press -> on the glass, per driver (and once more for the ILI9341 with every notice handed to a voice whose device
  never takes audio, printed beside the others: it must be the same figure, docs/sound.md "Which device plays"): the
  game thread's whole step
  for the press (controller, whatever it commits to SQLite, drawing at the panel's size, the driver finding what
  changed) x factor, plus the SPI wire and the SD card's share of every sync the press made. The same workload
  every run: :data:`GAMES` whole games, seeded, at each panel's size. Target: p99 < 50 ms. Measured here for each
  press: its CPU, its bytes, its SPI transfers, its syncs and the blocks each wrote.
  Modelled, each from published figures (:func:`press_to_glass_on`):

  * the wire: bytes x 8 at the clock the Pi really gives, not the one asked for: the BCM283x SPI clock is the VPU
    core clock over an even divider (Linux drivers/spi/spi-bcm2835.c, bcm2835_spi_transfer_one: ``cdiv =
    DIV_ROUND_UP(clk_hz, spi_hz); cdiv += cdiv % 2``), and the core clock is 400 MHz on a Pi 3 B and a Zero 2 W
    and 500 MHz on a Pi 4 B by default (Raspberry Pi documentation, config.txt "Overclocking options", core_freq):
    32 MHz asked (the ST7735's default) gives 28.6 MHz on the first two and 31.25 MHz on the Pi 4, 50 MHz (the
    ST7789's and ILI9341's) 50 MHz on all three (less when the core clock drops, raspberrypi/linux #3381: a Pi 3's
    idle core runs at 250 MHz, which gives 31.25 and 41.7 MHz). Plus a cost per transfer (each command, its
    parameters, and the pixels in writes of up to 65,535 bytes (spidev's writebytes2 with the bufsiz install.sh
    sets): each an ioctl, DMA-mapped from 96 bytes, BCM2835_SPI_DMA_MIN_LENGTH): TRANSFER_MS = 0.08 ms, from
    notro's full-frame times
    of fbtft by transfer size on a Pi 1 (msperl/spi-bcm2835 #13: a 40,960-byte frame 17.98 ms in 1,024-byte
    transfers against 14.92 ms in one, (17.98 - 14.92) / 39 = 0.078 ms a transfer; 0.135 ms for a 77,440-byte
    one). A Pi 1's core is slower than these Pis', so it is an upper estimate; a measured one replaces it.
  * the SD card: each sync waits for the card to write the 4 KiB blocks its file's writes touched since the file's
    last sync (a WAL frame is 4,120 bytes, so a frame touches two), and 3 more for ext4's journal when the file
    grew (its size is metadata). Each block is timed at the
    card's published 4K random write rate (Jeff Geerling, pidramble.com/wiki/benchmarks/microsd-cards, Raspberry
    Pi 4 model B, "4K rand write", iozone): SanDisk Extreme Pro A1 32GB 4.70 MB/s (0.87 ms a block), SanDisk Ultra
    16GB 1.52 MB/s (2.69 ms), Toshiba C10 U1 16GB 0.22 MB/s (18.6 ms); the A1 class itself promises 500 random
    writes a second (2 ms). The journal's entries are written over zeros it wrote and synced ahead
    (companion/store/journal.py), so a press's sync is the entry's block or two, and ext4's journal only when the
    zeros run out. A checkpoint's syncs (the WAL, then the database file it copied pages into) are counted like any
    other on the press that makes them; the store makes them when the game has waited ``IDLE_S`` for a press
    (``Store.idle``), and here the presses come back to back: the checkpoint of a whole game's WAL, made at its end
    as an idle moment would, is printed apart (a press that comes during one waits for it: not modelled).

  The card's syncs come first (a decision is committed before its frame is drawn), then the CPU and the wire.
  The driver writes each changed box on a thread of its own while it cuts and converts the next
  (display/drivers.py): here that writer runs in line and notes, for each box, the step's CPU when it was handed
  over and the CPU of its own writes, and the modelled press replays it (:func:`pushed`): a box's wire starts once
  its writes' Python has run, after the box before it went out; the Python of every thread runs one at a time
  (the interpreter's lock), only the wire runs beside it. The press is never shorter than all its CPU x factor.
  Drawing while the commit's fsync runs and pushing once it has returned (max(card, draw) + wire on a committing
  press, nothing unsaved shown) is not done.
- start -> first frame: the CPU time of the whole ``doge-companion run`` process (interpreter start, imports, first
  frame, exit) x factor, bytecode compiled (as ``pip install`` leaves the Pi's venv). Reading the files from the
  SD card is not modelled. Target: < 2 s. A start lasts 0.3-1.4 s here, longer than a spell of one speed, so the
  readings at its two ends say less about it than about a press.
- hard player: a Pi's hard player measures its own speed and takes the work that fits its budget (0.25 s), so its
  strength is that work: this build's work per CPU second here / factor x budget, shown next to what it takes here.
  Then its decisions at that work (view included), CPU here x factor. Target: <= 1 s, max included; none past the
  3 budgets after which a search is cut short.

``python -m benchmarks.pi --presses`` prints the press -> glass figures alone; ``--profile [DRIVER ...]`` the top
costs (own CPU time, cProfile) of the presses at or above the CPU p99 of a whole game on each panel.
"""

from __future__ import annotations

import gc
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from display.wiretap import Wire

from . import figures, syncs
from .syncs import BLOCK

ROOT = Path(__file__).resolve().parents[1]
YEARS = 2
BURSTS_MS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)

# How fast each Pi's core runs the reference loop (:func:`_spin`), in steps per CPU second, stated once: the first
# estimate (a Pi 3 B core 10x slower than the development machine, an AMD EPYC core then running this loop at ~20.2
# million steps a second; pyperformance ratios agree), the Zero 2 W by its clock (the same Cortex-A53 at 1.0 instead
# of 1.2 GHz), the Pi 4's Cortex-A72 at 1.8 GHz about 2.5 times a Pi 3's core. On a real Pi, `bench pi` prints its
# own rate on its first lines: that is the number to put here.
PI_RATES: dict[str, float] = {"Pi 3 B": 2.02e6, "Zero 2 W": 1.68e6, "Pi 4 B": 5.05e6}
# Press -> glass: re-measured once at the start of a run, the factor moved 8.8-10.9 between runs on the
# same kind of machine, more than most changes a run is meant to show, because the machine itself does. A shared
# machine's core runs in two speeds (measured 2026-11-28: about 8 and 15 million steps a second), each for 1 ms to
# several seconds, one core fast while the other is slow, and the companion's own work (a new screen drawn with
# FreeType) went 1.62x as fast in the fast one as in the slow one, as the reference loop did (:func:`tracking_check`
# prints this on every run). So each press is converted by this machine's speed right around it: the loop's rate
# just before and just after it (LOCAL_STEPS each, about 1-2.5 ms), on the core the game is held to, over each Pi's
# rate; a speed read once for the game (round 8's median of samples every 250 presses) converted a press made in
# the slow speed by the fast one's factor. The spread of the factors is printed, and, beside each figure, the figure
# at the pinned factor alone (PI_FACTORS: the first estimate against the reference machine; only that figure uses
# it).
PI_FACTORS: dict[str, float] = {"Pi 3 B": 10.0, "Zero 2 W": 12.0, "Pi 4 B": 4.0}
RATE_ROUNDS = 7  # the factor measured at the start, printed: rounds of the reference loop
FREEZE_EVERY = 250  # presses between gc.freeze() calls (press_to_glass)
LOCAL_STEPS = 20_000
CORE_MHZ = {"Pi 3 B": 400, "Zero 2 W": 400, "Pi 4 B": 500}  # the VPU core clock the SPI clock is divided from
TRANSFER_MS = 0.08  # an SPI transfer's own cost (ioctl, DMA mapping), notro's Pi 1 figure: see the module's text
# microSD cards' 4K random write, MB/s, as published (see the module's text): a good, a typical and a slow one.
CARDS = {"good card": 4.70, "typical card": 1.52, "slow card": 0.22}
CARD_NAMES = {
    "good card": "SanDisk Extreme Pro A1",
    "typical card": "SanDisk Ultra",
    "slow card": "Toshiba C10 U1",
}
SPIDEV_BUFSIZ = 65536  # what install.sh sets (spidev's own default: 4,096)
GAMES = 1  # whole games per panel, seeded (benchmarks/flow.SEED + n): the same presses before and after a change


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


@contextmanager
def one_core() -> Iterator[None]:
    """This thread held to one core while the block runs: a shared machine's cores run at different speeds at the
    same moment, so the loop read around a press must run where the press ran."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


@cache
def factors() -> dict[str, float]:
    """Per-core slow-down of each Pi against one core here: this machine's rate over each Pi's stated rate, measured
    once per run, the best of 5 rounds (the burst check, the hard player, and benchmarks/web.py and speech.py); a
    press and a start are converted by the rate around each instead (:func:`press_to_glass`, :func:`start_cpu`)."""
    rate = host_rate()
    return {model: round(rate / pi_rate, 2) for model, pi_rate in PI_RATES.items()}


@cache
def measured_factors(rounds: int = RATE_ROUNDS) -> dict[str, list[float]]:
    """The factor this machine measures for each Pi (its rate over the Pi's stated rate), once per round, sorted."""
    rates = sorted(host_rate(repeats=1) for _ in range(rounds))
    return {model: [rate / pi_rate for rate in rates] for model, pi_rate in PI_RATES.items()}


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


def tracking_check(rounds: int = 160) -> tuple[float, float, float, float]:
    """Whether the reference loop's speed tells the companion's: the loop and a new screen drawn (320x240, eight
    lines never drawn before, so FreeType renders each) taken in turns on one core. Returns the loop's median rate
    and the screen's median CPU ms in the slowest and the fastest quarter of the loop's readings: where the machine
    changes speed, both change alike (their products match) or the conversion would be wrong."""
    from display.render import render
    from display.screen import Line, Screen

    words = ["the", "doge", "votes", "a", "palace", "house", "and", "advisor", "in", "each", "district", "now"]
    found = []
    with one_core():
        for round_ in range(rounds):
            rate = host_rate(LOCAL_STEPS, repeats=1)
            lines = tuple(Line(f"{round_}.{row} " + " ".join(words[row:] + words[:row])[:40]) for row in range(8))
            started = time.thread_time()
            render(Screen(f"Check {round_}", lines, footer="ok: go on"), (320, 240))
            found.append((rate, (time.thread_time() - started) * 1000))
    found.sort()
    quarter = max(1, rounds // 4)
    slow, fast = found[:quarter], found[-quarter:]
    return (
        statistics.median(rate for rate, _ms in slow),
        statistics.median(rate for rate, _ms in fast),
        statistics.median(ms for _rate, ms in slow),
        statistics.median(ms for _rate, ms in fast),
    )


def reading_check(rounds: int = 600, steps: int = 100_000) -> list[float]:
    """How far the reading around a press is from the speed the press ran at: a stand-in press (``steps`` of the
    loop, about as long as a slow press here) between two readings, as press_to_glass takes them, the speed
    estimated from the readings over its own; sorted. A press made in a short spell of the other speed, with the
    same speed on either side of it, is converted wrong by the readings: this is how often."""
    found = []
    with one_core():
        before = host_rate(LOCAL_STEPS, repeats=1)
        for _ in range(rounds):
            press = host_rate(steps, repeats=1)
            after = host_rate(LOCAL_STEPS, repeats=1)
            found.append((before + after) / 2 / press)
            before = after
    return sorted(found)


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
    """Steps the companion's own App in this thread, a real driver on a recording SPI bus as its display, every
    sync the store asks of the disk counted (:mod:`benchmarks.syncs`)."""

    def __init__(self, driver: str, state_dir: str, seed: int, stuck_voice: bool = False) -> None:
        import luma.lcd.device

        from companion.app import App
        from display.backends import Display
        from display.panels import PANELS

        from .flow import settings
        from .wire import DC

        problem = syncs.install()
        if problem is not None:
            raise SystemExit(f"bench pi: syncs cannot be counted here: {problem}")
        luma.lcd.device.sleep = lambda _seconds: None  # ili9341's 120 ms start-up pause is for the silicon
        self.clock = configured_clock(driver)
        self.app = App(settings(state_dir), seed=seed, sound_output=stuck_output() if stuck_voice else None)
        self.app.display.close()
        self.wire = Counter(DC, bufsiz=SPIDEV_BUFSIZ)
        device = panel(driver, self.wire, PANELS[driver].native)
        device.writer.shutdown()
        self.writer = device.writer = WindowMeter(self.wire)
        self.app.display = Display(device, threaded=False)
        self.app.controller.parts.size = self.app.display.size
        self.app.show(self.app.controller.screen())

    def press(self, event: Any) -> tuple[float, int, int, tuple[tuple[str, int], ...], bool, tuple[Window, ...]]:
        """(CPU ms of the step, bytes sent, SPI transfers, its syncs as (file, card blocks), whether it put a frame on
        the glass, the boxes the driver handed its writer) for one press."""
        frames, sent, transfers = self.app.display.frames, self.wire.bytes, self.wire.transfers
        syncs.COUNTER.reset()
        self.writer.windows = []
        started = self.writer.started = time.thread_time()
        self.app.step(event)
        cpu = (time.thread_time() - started) * 1000
        shown = self.app.display.frames != frames
        # Tuples of numbers and strings, which the collector stops tracking: kept for a whole game, lists made it
        # run full collections in the middle of presses (a stall of 20-50 ms of CPU here that is the benchmark's,
        # not the companion's: a game played without keeping them runs none).
        return (cpu, self.wire.bytes - sent, self.wire.transfers - transfers, tuple(syncs.COUNTER.syncs), shown,
                tuple(self.writer.windows))  # fmt: skip

    def close(self) -> None:
        self.app.close()


Window = tuple[float, float, int, int]  # a box: step CPU ms when handed over, CPU ms of its writes, bytes, transfers


class WindowMeter(Executor):
    """The driver's writer (display/drivers.py), run in line: notes each box as a :data:`Window` (the step's CPU
    when it was handed over, less the writes before it: the writer's thread is not the step's)."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.started = 0.0
        self.windows: list[Window] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        handed, sent, transfers = time.thread_time(), self.wire.bytes, self.wire.transfers
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except Exception as error:  # the driver's to see, as from its own writer's thread
            done.set_exception(error)
        own = (time.thread_time() - handed) * 1000
        earlier = sum(window[1] for window in self.windows)
        self.windows.append(
            ((handed - self.started) * 1000 - earlier, own, self.wire.bytes - sent, self.wire.transfers - transfers)
        )
        return done


def pushed(windows: Sequence[Window], factor: float, wire: Callable[[int, int], float]) -> float:
    """When the last box is on the glass (ms from the press), the driver's writer replayed at ``factor``: each box
    is handed over once it is converted and the box before it has gone out, its writes' Python runs (holding the
    interpreter, so the step waits too), then its wire, during which the step goes on."""
    now = end = before = 0.0
    for handed, own, sent, transfers in windows:
        now += (handed - before) * factor
        before = handed
        now = max(now, end) + own * factor
        end = now + wire(sent, transfers)
    return end


class Counter(Wire):
    """The recording bus, counting only: each of spidev's writes is a C call whose own cost is :data:`TRANSFER_MS`,
    so the Python a recording bus runs for each transfer (a copy, the DC pin's level) is not charged to the press.
    ``writebytes2`` (the only one the companion uses) makes one write a ``block`` of bytes, as spidev does."""

    def writebytes2(self, data: list[int] | bytes) -> None:
        self.bytes += len(data)
        self.transfers += -(-len(data) // self.block)


def panel(driver: str, wire: Wire, size: tuple[int, int]) -> Any:
    """The companion's luma device over ``wire`` (a wire with install.sh's spidev bufsiz: a Pi it installed)."""
    from display.drivers import Spi, build_lcd

    from .wire import DC

    interface = Spi(spi=wire, gpio=wire, gpio_DC=DC, gpio_RST=None)
    return build_lcd(driver, interface, size, gpio=wire, backlight=lambda _on: None)


def configured_clock(driver: str) -> float:
    """The SPI clock (Hz) the default configuration asks for ``driver``'s panel."""
    from companion.system import config
    from display.panels import spi_hz

    return spi_hz({**config.load(search=False)["display"], "driver": driver})


def stuck_output() -> Any:
    """ALSA with a player that opens and then never takes audio (the voice's tests' stand-in)."""
    from hardware.speech import Alsa
    from tests.hardware.test_speaker import STUCK

    return Alsa("null", player=STUCK)


def press_to_glass(driver: str, presses: int | None = None, stuck_voice: bool = False) -> dict[str, Any]:
    """The presses of :data:`GAMES` whole seeded games at ``driver``'s size (``presses``: only the first of the
    first game, the smoke run's)."""
    from display.panels import PANELS

    from .flow import SEED, game_events

    found: list[tuple[float, int, int, tuple[tuple[str, int], ...], bool, tuple[Window, ...]]] = []
    rates: list[float] = []  # this machine's speed around each press: what a shared machine gave that press
    idle: list[tuple[str, int]] = []  # the syncs of each game's idle moment at its end
    played = 0
    for game in range(GAMES):
        seed = SEED + game
        events = game_events(PANELS[driver].native, seed)[:presses]
        played += len(events)
        with tempfile.TemporaryDirectory() as folder, one_core():
            meter = PressMeter(driver, folder, seed, stuck_voice)
            try:
                before = host_rate(LOCAL_STEPS, repeats=1)
                for index, event in enumerate(events):
                    if index % FREEZE_EVERY == 0:
                        # What is kept so far (the measurements among it) out of the collector's sight: kept for a
                        # whole game they made it run full collections, 20-50 ms of CPU here, in the middle of
                        # presses; the game played without them runs none (its young collections still count).
                        gc.freeze()
                    found.append(meter.press(event))
                    after = host_rate(LOCAL_STEPS, repeats=1)
                    rates.append((before + after) / 2)
                    before = after
                syncs.COUNTER.reset()
                meter.app.store.idle()
                idle.extend(syncs.COUNTER.syncs)
            finally:
                meter.close()
                gc.unfreeze()
    shown = [press for press in found if press[4]]
    return {
        "cpu": [press[0] for press in shown],
        "bytes": [press[1] for press in shown],
        "transfers": [press[2] for press in shown],
        "syncs": [press[3] for press in shown],
        "windows": [press[5] for press in shown],
        "rates": [rate for rate, press in zip(rates, found, strict=True) if press[4]],
        "all syncs": [press[3] for press in found],
        "idle syncs": idle,
        "clock": meter.clock,
        "presses": played,
    }


def local_factors(measured: dict[str, Any], model: str) -> list[float]:
    """Each press's factor for ``model``: this machine's speed around the press over the Pi's."""
    return [rate / PI_RATES[model] for rate in measured["rates"]]


def press_to_glass_on(
    measured: dict[str, Any], model: str, press_factors: Sequence[float], card: float | None
) -> list[float]:
    """Each press's modelled time on MODEL (ms): CPU x its factor + the wire at the clock it gives + the transfers'
    own cost + (with a CARD's MB/s) the blocks each of its syncs made the card write."""
    clock = spi_clock(model, measured["clock"])

    def wire(sent: int, transfers: int) -> float:
        return sent * 8 / clock * 1000 + transfers * TRANSFER_MS

    found = []
    for cpu, sent, transfers, synced, windows, factor in zip(
        measured["cpu"],
        measured["bytes"],
        measured["transfers"],
        measured["syncs"],
        measured["windows"],
        press_factors,
        strict=True,
    ):
        rest = wire(sent - sum(window[2] for window in windows), transfers - sum(window[3] for window in windows))
        disk = sum(card_ms(blocks, card) for _file, blocks in synced) if card is not None else 0.0
        found.append(disk + max(cpu * factor, pushed(windows, factor, wire)) + rest)
    return found


def start_cpu(runs: int) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """CPU seconds of whole ``doge-companion run`` processes up to their first frame (and exit), bytecode cached, and
    of one with no bytecode at all (every module compiled at start); each with this machine's speed around it (the
    processes held to the core the loop runs on)."""
    from .startup import first_frame

    def around(write: bool = True) -> tuple[float, float]:
        before = host_rate(LOCAL_STEPS, repeats=1)
        cpu = first_frame(Path(pycache), write)[1]
        return cpu, (before + host_rate(LOCAL_STEPS, repeats=1)) / 2

    with tempfile.TemporaryDirectory() as pycache, one_core():
        cold = around(write=False)
        first_frame(Path(pycache))  # writes the bytecode
        return [around() for _ in range(runs)], cold


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


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def _p99(values: list[float]) -> float:
    return _percentile(values, 0.99)


def _verdict(value: float, limit: float, smoke: bool) -> str:
    return "" if smoke else (" PASS" if value <= limit else " FAIL")


def _per_model(label: str, value: Callable[[float], str]) -> None:
    print(f"  {label:<30}" + "   ".join(f"{model} {value(factor)}" for model, factor in factors().items()))


def _spread(values: list[float]) -> str:
    return f"p50 {statistics.median(values):5.1f} p99 {_p99(values):5.1f} max {max(values):5.1f}"


def press_to_glass_report(driver: str, measured: dict[str, Any], smoke: bool) -> dict[str, dict[str, float]]:
    """What was measured here, what is modelled, and press -> glass on each Pi with no card counted and with each
    card (the verdict: the typical card); returns the p99s by model and card."""
    cpu, sent, transfers = measured["cpu"], measured["bytes"], measured["transfers"]
    every = measured["all syncs"]
    synced = [press for press in every if press]
    kinds: dict[str, int] = {}
    for press in every:
        for kind, _blocks in press:
            kinds[kind] = kinds.get(kind, 0) + 1
    blocks = [blocks for press in every for _kind, blocks in press]
    asked = measured["clock"] / 1e6
    print(f"press -> on the glass, {driver} ({len(cpu)} frames of {measured['presses']} presses, {GAMES} whole "
          f"game(s); SPI {asked:g} MHz asked)")  # fmt: skip
    print(f"  syncs counted (every xSync SQLite made, os.fsync and the journal's os.fdatasync): {sum(kinds.values())} "
          f"in {len(every)} presses "
          f"({', '.join(f'{kind} {count}' for kind, count in sorted(kinds.items())) or 'none'}); {len(synced)} presses "
          f"synced, at most {max(map(len, every), default=0)} syncs in one; card blocks a sync median "
          f"{statistics.median(blocks or [0]):.0f} max {max(blocks or [0])}; off the presses, the checkpoint of the "
          f"game's WAL when it is idle: {len(measured['idle syncs'])} syncs, "
          f"{sum(blocks for _kind, blocks in measured['idle syncs'])} blocks")  # fmt: skip
    print(f"  measured here: step CPU median {statistics.median(cpu):6.3f} ms p99 {_p99(cpu):6.3f} ms max "
          f"{max(cpu):6.3f} ms; bytes median {statistics.median(sent):,.0f} p99 {_p99(sent):,.0f}; SPI transfers "
          f"median {statistics.median(transfers):.0f} p99 {_p99(transfers):.0f}")  # fmt: skip
    clocks = ", ".join(f"{model} {spi_clock(model, measured['clock']) / 1e6:.2f} MHz" for model in PI_RATES)
    print(f"  modelled: CPU x factor; the wire at the clock a Pi gives ({clocks}) + {TRANSFER_MS} ms a transfer; a "
          f"sync's blocks at a card's 4K random write: " + ", ".join(
              f"{kind} ({CARD_NAMES[kind]}) {rate} MB/s = {card_ms(1, rate):.2f} ms" for kind, rate in CARDS.items()
          ))  # fmt: skip
    rates = measured["rates"]
    print(
        f"  this machine's speed around each press: median {statistics.median(rates) / 1e6:.2f} million steps a CPU "
        f"second ({_percentile(rates, 0.01) / 1e6:.2f}-{_percentile(rates, 0.99) / 1e6:.2f} from 1% to 99% of "
        f"presses), each press's CPU converted by its own (the factors below: their median)"
    )
    found: dict[str, dict[str, float]] = {}
    for model, pinned in PI_FACTORS.items():
        local = local_factors(measured, model)
        found[model] = {"factor": statistics.median(local)}
        for kind, rate in {"no card": None, **CARDS}.items():
            glass = press_to_glass_on(measured, model, local, rate)
            found[model][kind] = _p99(glass)
            found[model][f"{kind}, pinned"] = _p99(press_to_glass_on(measured, model, [pinned] * len(local), rate))
            verdict = _verdict(_p99(glass), 50, smoke) if kind == "typical card" else ""
            label = f"{model:<9} x{found[model]['factor']:<5.2f}" if kind == "no card" else ""
            print(f"  {label:<16} ms: {kind:<12} {_spread(glass)}{verdict}  (pinned x{pinned:g} alone: p99 "
                  f"{found[model][f'{kind}, pinned']:5.1f})")  # fmt: skip
    return found


def main(smoke: bool = False) -> None:
    """``smoke``: a few presses, one start, one year's first decisions, no verdicts (the test suite's run)."""
    print("The companion on a Raspberry Pi: CPU time measured here x a per-core factor (measured: CPU, bytes, SPI "
          "transfers, syncs and their blocks; modelled from published figures: the Pi's SPI clock, a transfer's "
          "cost, the SD card's writes)")  # fmt: skip
    print_factors()
    print_tracking(smoke)

    print("burst check: fixed bursts of pure-Python work, CPU time of this thread (time.thread_time)")
    for target, measured, relative in burst_check(BURSTS_MS[:3] if smoke else BURSTS_MS, smoke):
        pi3 = factors()["Pi 3 B"]
        print(f"  burst {target:6.1f} ms: measured {measured:8.3f} ms CPU, cost per unit {relative:5.2f}x the 10 ms "
              f"burst's -> Pi 3 B {measured * pi3:8.2f} ms (slow-down {pi3:g}x at every length)")  # fmt: skip

    press_figures(smoke)
    start_figures(smoke)
    hard_player(1 if smoke else YEARS, smoke)


def print_factors() -> None:
    """The pinned factors, and the ones this machine measures (their spread over :data:`RATE_ROUNDS` rounds)."""
    named = ", ".join(f"{model} ({MODEL_NOTES[model]}) x{factor:g}" for model, factor in PI_FACTORS.items())
    print(f"  factors (a Pi core against one core of the reference machine, pinned): {named}")
    rates = measured_factors()["Pi 3 B"]
    print(
        f"  this machine runs the reference loop at {PI_RATES['Pi 3 B'] * min(rates) / 1e6:.2f}-"
        f"{PI_RATES['Pi 3 B'] * max(rates) / 1e6:.2f} million steps per CPU second ({RATE_ROUNDS} rounds); stated for "
        "a Pi: " + ", ".join(f"{model} {rate / 1e6:.2f}" for model, rate in PI_RATES.items())
    )
    print("  factors measured here: " + ", ".join(
        f"{model} x{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"
        for model, values in measured_factors().items()
    ) + " (the burst check and the hard player use the best of 5 rounds; a press and a start, this machine's speed "
        "around it)")  # fmt: skip


def print_tracking(smoke: bool) -> None:
    slow_rate, fast_rate, slow_ms, fast_ms = tracking_check(20 if smoke else 160)
    print(f"  tracking check, the loop and a new 320x240 screen in turns: where the loop ran "
          f"{fast_rate / slow_rate:.2f}x as fast ({slow_rate / 1e6:.1f} -> {fast_rate / 1e6:.1f} million steps a "
          f"second), the screen drew {slow_ms / fast_ms:.2f}x as fast ({slow_ms:.2f} -> {fast_ms:.2f} ms CPU): the "
          "nearer the two, the truer a press converted by the loop's speed around it")  # fmt: skip
    errors = reading_check(60 if smoke else 600)
    low, high = _percentile(errors, 0.01), _percentile(errors, 0.99)
    print(f"  reading check, a stand-in press between two readings of the loop: its speed read {low:.2f}-{high:.2f}x "
          f"its own from 1% to 99% of presses; more than 20% too fast for "
          f"{sum(error > 1.2 for error in errors) / len(errors):.1%} of them (their Pi figures too high), too slow "
          f"for {sum(error < 1 / 1.2 for error in errors) / len(errors):.1%} (too low)")  # fmt: skip


def press_figures(smoke: bool) -> None:
    """Press -> glass on every panel, a whole game each, and with a stuck voice on the ILI9341."""
    presses = 40 if smoke else None
    drivers = ("st7735", "st7789", "ili9341")
    glass = {driver: press_to_glass_report(driver, press_to_glass(driver, presses), smoke) for driver in drivers}
    # The voice (docs/sound.md): the same press -> glass with every notice said to a device that never takes audio.
    press_to_glass_report(
        "ili9341, every notice said to a stuck audio device", press_to_glass("ili9341", presses, True), smoke
    )
    for model, factor in PI_FACTORS.items():
        figures.report(
            f"press to on the glass on a {model}, st7735 / st7789 / ili9341 (`bench pi`: a whole game each, CPU here x "
            "a pinned factor scaled by this machine's speed around each press, each panel's SPI clock and every "
            "sync's SD card writes modelled)",
            f"x{factor:g} x this machine's speed around each press: median x" + " / ".join(
                f"{glass[driver][model]['factor']:.1f}" for driver in drivers
            ) + "; " + "; ".join(
                f"{kind} p99 " + " / ".join(f"{glass[driver][model][kind]:.1f}" for driver in drivers) + " ms"
                for kind in ("no card", "typical card", "slow card")
            ) + f" (x{factor:g} alone, typical card: " + " / ".join(
                f"{glass[driver][model]['typical card, pinned']:.1f}" for driver in drivers
            ) + " ms)",
            "p99 < 50 ms (typical card)",
        )  # fmt: skip


def start_figures(smoke: bool) -> None:
    """Process start -> first frame."""
    starts, cold = start_cpu(1 if smoke else 5)
    print(f"start -> first frame (whole process, byte-compiled): CPU here median "
          f"{statistics.median(cpu for cpu, _rate in starts):5.3f} s (no bytecode: {cold[0]:5.3f} s), each converted "
          "by this machine's speed around it")  # fmt: skip
    median: dict[str, float] = {}
    no_bytecode = {model: cold[0] * cold[1] / pi_rate for model, pi_rate in PI_RATES.items()}
    for model, pi_rate in PI_RATES.items():
        values = [cpu * rate / pi_rate for cpu, rate in starts]
        median[model] = statistics.median(values)
        print(f"  {model:<9} median {median[model]:5.2f} s max {max(values):5.2f} s{_verdict(max(values), 2, smoke)} "
              f"(< 2 s; SD card reads not modelled); no bytecode {no_bytecode[model]:5.2f} s")  # fmt: skip
    figures.report(
        "on a Pi: process start to first frame, `run --hardware mock`, byte-compiled (no bytecode; SD card reads "
        "not modelled): " + " / ".join(PI_RATES),
        " / ".join(f"{value:.2f}" for value in median.values())
        + " s ("
        + " / ".join(f"{value:.1f}" for value in no_bytecode.values())
        + " s)",
        "< 2 s",
    )


def profile_p99(driver: str, top: int = 5) -> None:
    """Where the slowest 1% of presses spend their CPU: the game played once to find them (by CPU), then again with
    cProfile on for those presses only; the ``top`` functions by their own CPU time."""
    import cProfile
    import pstats

    from display.panels import PANELS

    from .flow import SEED, game_events

    events = game_events(PANELS[driver].native, SEED)
    with tempfile.TemporaryDirectory() as folder:
        meter = PressMeter(driver, folder, SEED)
        cpu = [meter.press(event)[0] for event in events]
        meter.close()
    slowest = {index for index, value in enumerate(cpu) if value >= _p99(cpu)}
    profile = cProfile.Profile(time.thread_time)  # CPU, as the figures: a sync's wait is the card's, modelled
    with tempfile.TemporaryDirectory() as folder:
        meter = PressMeter(driver, folder, SEED)
        for index, event in enumerate(events):
            if index in slowest:
                profile.enable()
                meter.press(event)
                profile.disable()
            else:
                meter.press(event)
        meter.close()
    total = sum(cpu[index] for index in slowest)
    print(f"{driver}: the {len(slowest)} presses at or above the CPU p99 ({_p99(cpu):.2f} ms here), {total:.0f} ms "
          f"of CPU in all; their top {top} by own CPU time:")  # fmt: skip
    stats = pstats.Stats(profile)
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]  # type: ignore[attr-defined]
    for (path, line, name), (_calls, count, own, cumulative, _callers) in rows:
        print(f"  {own * 1000:8.1f} ms own {cumulative * 1000:8.1f} ms cumulative {count:7} calls  "
              f"{Path(path).name}:{line} {name}")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["--profile"]:
        for name in sys.argv[2:] or ["ili9341"]:
            profile_p99(name)
    elif sys.argv[1:2] == ["--presses"]:  # the press figures alone
        print_factors()
        print_tracking(False)
        press_figures(False)
    else:
        main("--smoke" in sys.argv[1:])
