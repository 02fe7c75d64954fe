"""Bytes on the SPI wire per press (only what changed is sent: display/dirty.py): the real luma.lcd driver classes over
a recording SPI bus.

The frames are a real game's: the presses of a simulated 4-player game (benchmarks/flow.py) go through the
controller, each screen is rendered at the driver's native size and pushed. A press is a *highlight move* when only
the menu's cursor changed, a *screen change* when anything else did. "before" is luma's stock behaviour (st7735 and
ili9341 with their own segment diff, st7789 sending every frame whole); "after" is the companion's drivers
(display/drivers.py: dirty boxes, every driver). Wire time is bytes x 8 / SPI clock: the floor, without the gaps
between transfers. At the end the emulated controller's memory must equal the last frame (checked, not timed).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.flow.controller import Controller
from companion.system import config
from display.backends import Display
from display.drivers import build_lcd
from display.panels import MADCTL_BGR, PANELS, spi_hz
from display.render import render
from display.screen import Screen
from display.wiretap import GRAM, Glass, Wire, eighteen_bit, sixteen_bit
from display.wiretap import Controller as Emulated

from . import figures
from .flow import SEED, game_events

PRESSES = 3000  # the first presses of the game: setup, two years of elections and ballots
DC = 24


def screens(limit: int = PRESSES) -> list[tuple[str, Screen]]:
    """(kind, screen) for each press that changed the screen: "move" (only the cursor) or "change"."""
    controller = Controller(random.Random(SEED))
    shown = controller.screen()
    result: list[tuple[str, Screen]] = [("change", shown)]
    for event in game_events()[:limit]:
        controller.handle(event)
        screen = controller.screen()
        if screen == shown:
            continue
        moved = screen.menu is not None and shown.menu is not None and screen.menu.cursor != shown.menu.cursor
        same_otherwise = moved and screen.menu is not None and shown.menu is not None
        if same_otherwise and shown.menu is not None and screen.menu is not None:
            same_otherwise = (screen.title, screen.lines, screen.menu.options) == (
                shown.title,
                shown.lines,
                shown.menu.options,
            )
        result.append(("move" if same_otherwise else "change", screen))
        shown = screen
    return result


def stock(driver: str, wire: Wire, size: tuple[int, int]) -> Any:
    from luma.core.interface.serial import spi
    from luma.lcd import device as lcd

    interface = spi(spi=wire, gpio=wire, gpio_DC=DC, gpio_RST=None, bus_speed_hz=32_000_000)
    return getattr(lcd, driver)(interface, width=size[0], height=size[1], gpio=wire, backlight=lambda _on: None)


def ours(driver: str, wire: Wire, size: tuple[int, int]) -> Any:
    from display.drivers import Spi

    interface = Spi(spi=wire, gpio=wire, gpio_DC=DC, gpio_RST=None, bus_speed_hz=32_000_000)
    return build_lcd(driver, interface, size, gpio=wire, backlight=lambda _on: None)


def measure(
    driver: str, build: Callable[[str, Wire, tuple[int, int]], Any], frames: list[tuple[str, Any]], threaded: bool
) -> tuple[dict[str, list[int]], list[float]]:
    """Bytes sent per press by kind, and the game thread's time per press in ms (luma's push before; the hand-over
    to the display thread after, measured with that thread idle: each frame is flushed, untimed, before the next)."""
    panel = PANELS[driver]
    emulated = Emulated(GRAM[driver], Glass(bool(panel.madctl & MADCTL_BGR), panel.inverted))
    wire = Wire(DC, emulated)
    display = Display(build(driver, wire, panel.native), threaded=threaded)
    sent: dict[str, list[int]] = {"move": [], "change": []}
    blocked = []
    for kind, image in frames:
        before = wire.bytes
        start = time.perf_counter()
        display.show(image)
        blocked.append((time.perf_counter() - start) * 1000)
        display.flush()
        sent[kind].append(wire.bytes - before)
    last = frames[-1][1]
    shown = sixteen_bit(last) if emulated.colour_bits == 16 else eighteen_bit(last)  # ours, luma's own
    assert emulated.seen(0, 0, panel.native).tobytes() == shown.tobytes(), "the panel lost a change"
    display.close()  # luma's cleanup blanks the panel
    return sent, blocked


def main(smoke: bool = False) -> None:
    """``smoke``: the first 40 presses, no verdict (the test suite's run)."""
    import luma.lcd.device

    presses = 40 if smoke else PRESSES
    luma.lcd.device.sleep = lambda _seconds: None  # ili9341's 120 ms start-up pause is for the silicon
    configured = config.load(search=False)["display"]
    game = screens(presses)
    moves = sum(kind == "move" for kind, _screen in game)
    print(f"bytes on the SPI wire per press (first {presses} presses of a game: {moves} highlight moves, "
          f"{len(game) - moves} screen changes; wire time at each panel's configured SPI clock)")  # fmt: skip
    verdicts = []
    moves_cell, changes_cell, shares = [], [], []
    for driver, panel in PANELS.items():
        clock = spi_hz({**configured, "driver": driver})
        frames = [(kind, render(screen, panel.native)) for kind, screen in game]
        pixels = panel.native[0] * panel.native[1]
        print(f"{driver} {panel.native[0]}x{panel.native[1]}, {clock / 1e6:g} MHz: a full frame is {pixels * 3:,} "
              f"bytes in luma's 18-bit colour, {pixels * 3 * 8 / clock * 1000:.1f} ms; {pixels * 2:,} bytes in the "
              f"companion's RGB565, {pixels * 2 * 8 / clock * 1000:.1f} ms")  # fmt: skip
        for label, build, threaded, full in (("before", stock, False, pixels * 3), ("after", ours, True, pixels * 2)):
            sent, blocked = measure(driver, build, frames, threaded)
            move, change = statistics.median(sent["move"]), statistics.median(sent["change"])
            worst = max(sent["move"])
            fulls = sum(count >= full for counts in sent.values() for count in counts)
            print(
                f"  {label:<7} highlight move: median {move:9,.0f} bytes ({100 * move / full:5.1f}% of a frame, "
                f"{move * 8 / clock * 1000:5.2f} ms), max {worst:9,} bytes   screen change: median {change:9,.0f} "
                f"bytes ({change * 8 / clock * 1000:5.2f} ms)   full frames sent: {fulls}"
            )
            wire_ms = statistics.median(sent["move"]) * 8 / clock * 1000 if not threaded else 0.0
            print(
                f"          game thread per press: median {statistics.median(blocked):6.3f} ms, p99 "
                f"{sorted(blocked)[int(len(blocked) * 0.99)]:6.3f} ms of Python"
                + (f" + {wire_ms:.2f} ms on the wire (median move)" if not threaded else " (hands the frame over)")
            )
            if label == "after":
                verdicts.append(move < full / 10)
                moves_cell.append(f"{move / 1000:.1f}")
                shares.append(f"{100 * move / full:.1f}")
                changes_cell.append(f"{change / 1000:.0f}")
    figures.report("SPI bytes per menu highlight move, st7735 / st7789 / ili9341 (in 16-bit colour)",
                   f"{' / '.join(moves_cell)} KB ({' / '.join(shares)}% of a frame)", "< 10%")  # fmt: skip
    figures.report("SPI bytes per screen change, median, st7735 / st7789 / ili9341",
                   f"{' / '.join(changes_cell)} KB")  # fmt: skip
    if smoke:
        return
    verdict = "met" if all(verdicts) else "MISSED"
    print(f"budget: a typical press (median highlight move) < 10% of a full frame on every driver: {verdict}")


if __name__ == "__main__":
    main()
