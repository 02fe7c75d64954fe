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
"""

from __future__ import annotations

from dataclasses import dataclass

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


PANELS: dict[str, Panel] = {
    "st7735": Panel((160, 128), ((160, 80), (160, 128), (128, 128)), (162, 132), 0x60, False),
    "st7789": Panel((240, 240), None, (320, 240), 0x70, True),
    "ili9341": Panel((320, 240), ((320, 240), (240, 240), (320, 180)), (320, 240), 0x28, False),
}


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
