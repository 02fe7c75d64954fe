"""What each LCD driver accepts: sizes, offsets, colour order and inversion, as plain data (no luma import).

``check-config`` uses this table so a Pi owner learns about an impossible setting from one line over SSH instead of
from a traceback (or a garbled screen) at start-up. Where the facts come from:

- ``sizes``: the lists luma.lcd 2.13 hard-codes in each driver's constructor (st7735, ili9341); st7789 has none, so
  any size that fits the controller's memory is allowed. ``tests/display/test_panels.py`` builds luma's real
  classes to prove the table agrees with luma.
- ``memory``: the controller's frame memory as the host addresses it under the MADCTL value luma sends (its MV bit
  swaps rows and columns): ST7735S 132x162, ST7789 and ILI9341 240x320 (their datasheets). A window plus its offset
  must fit inside it, else the controller wraps or drops pixels.
- ``madctl`` and ``inverted``: what luma sends by default (MADCTL 0x36, and INVON 0x21 or not). Luma rotates in
  software and never changes MADCTL, so the orientation bits stay fixed; ``bgr``/``inverse`` in the config flip the
  colour-order bit and the inversion relative to these defaults ("red and blue come out swapped", "colours come out
  as a negative"), which is what a person looking at a wrong screen can tell.
- ``datasheet_mhz``: the fastest serial write clock each datasheet promises (its shortest write cycle, tSCYCW:
  ILI9341 100 ns, ST7735S 66 ns, ST7789 16 ns). Above it a panel often works (modules with short wires commonly
  take 32 MHz and more) but nothing promises it; ``spi_mhz`` is what ``bus_speed_mhz = 0`` asks for: within the
  datasheet on the ST7789, the tried 32 MHz on the ST7735S, and 50 MHz on the ILI9341, whose modules are run far
  above their datasheet's 10 MHz by the Pi's common drivers: Adafruit's own Python examples ask 64 MHz (a Pi 3 gives
  50), and fbcp-ili9341 (ili9341.h, its README's table) found each of four ILI9341 modules working on a Pi 3 B at
  66.7 MHz and more (73.5 to 77.5 MHz at their fastest).
  At 32 MHz a new screen's wire alone was over half the 40 ms a press may take (the README's press -> glass budget); at
  10 MHz a full frame takes 123 ms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MADCTL_BGR = 0x08  # the colour-order bit of MIPI DCS MADCTL, the same on all three controllers
MADCTL_MV = 0x20  # row/column exchange


@dataclass(frozen=True)
class Panel:
    """One driver's limits and defaults (see the module docstring for sources)."""

    native: tuple[int, int]  # the size used when the config says 0
    sizes: tuple[tuple[int, int], ...] | None  # luma's accepted (width, height); None: any size that fits memory
    memory: tuple[int, int]  # columns x rows the host can address under luma's MADCTL
    madctl: int  # luma's MADCTL value
    inverted: bool  # luma sends INVON by default
    datasheet_mhz: float  # the datasheet's fastest write clock
    spi_mhz: float  # the clock asked for when the config says 0 (one luma accepts)


PANELS: dict[str, Panel] = {
    "st7735": Panel((160, 128), ((160, 80), (160, 128), (128, 128)), (162, 132), 0x60, False, 15, 32),
    "st7789": Panel((240, 240), None, (320, 240), 0x70, True, 62.5, 50),
    "ili9341": Panel((320, 240), ((320, 240), (240, 240), (320, 180)), (320, 240), 0x28, False, 10, 50),
}


def spi_hz(display: Mapping[str, Any]) -> float:
    """The SPI clock to ask for, in Hz, from a ``[display]`` config: its ``bus_speed_mhz``, or with 0 the panel's
    ``spi_mhz``."""
    mhz = display["bus_speed_mhz"] or PANELS[display["driver"]].spi_mhz
    return float(mhz) * 1_000_000


def accepts_size(driver: str, size: tuple[int, int]) -> bool:
    """Whether the driver can drive a panel of ``size`` (unrotated width, height)."""
    panel = PANELS[driver]
    if panel.sizes is not None:
        return size in panel.sizes
    return 0 < size[0] <= panel.memory[0] and 0 < size[1] <= panel.memory[1]


def offset_limits(driver: str, size: tuple[int, int]) -> tuple[int, int]:
    """The largest ``h_offset`` and ``v_offset`` that keep a ``size`` picture inside the controller's memory."""
    columns, rows = PANELS[driver].memory
    return (columns - size[0], rows - size[1])
