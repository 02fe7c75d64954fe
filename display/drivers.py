"""luma.lcd devices built with the options real panels need, every one pushing only the boxes that changed, in
16-bit colour.

luma 2.13's st7735 and ili9341 take a ``framebuffer`` strategy and ``h_offset``/``v_offset``; st7789 takes neither
and sends the whole 240x240 frame (172,800 bytes) on every change, so :class:`st7789` below adds both the way its
siblings do it. Options luma's class does not take (``inverse`` on ili9341 and st7789, ``bgr`` on st7789) are sent
as the standard MIPI DCS commands after luma's own start-up sequence; which options luma takes is read from its
constructors, so a future luma that learns them is used as is.

luma sends 18-bit colour, 3 bytes a pixel; all three controllers also take RGB565, 2 bytes a pixel (COLMOD 55h),
which every screen of the companion shows alike (its colours are few and flat). A third fewer bytes on the wire: a
full 320x240 frame is 153,600 bytes, 38 ms at 32 MHz instead of 58 (tests/display/test_wire.py). Set once luma's
start-up (which clears the screen in 18-bit) is done; the controller keeps what it holds.

Imported only when a real LCD is built: this module loads luma.lcd.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from luma.core.interface.serial import spi as luma_spi
from luma.lcd import device as lcd
from PIL import Image

from .dirty import DirtyBoxes
from .panels import MADCTL_BGR, PANELS

MADCTL, INVOFF, INVON = 0x36, 0x20, 0x21


COLMOD, CASET, RASET, RAMWR = 0x3A, 0x2A, 0x2B, 0x2C
RGB565 = 0x55  # 16 bits a pixel on both the RGB and the MCU interface (ili9341, st7789); st7735 reads the low 3 bits
_RED_HIGH = bytes(value & 0xF8 for value in range(256))
_GREEN_HIGH = bytes(value >> 5 for value in range(256))
_GREEN_LOW = bytes(value << 3 & 0xE0 for value in range(256))
_BLUE_LOW = bytes(value >> 3 for value in range(256))


def rgb565(image: Image.Image) -> bytes:
    """An RGB image as the controllers take 16-bit colour: RRRRRGGG GGGBBBBB, high byte first. Byte-string
    operations only (Pillow has no packer for it): 0.03 ms for a 40x20 box here, 1.3 ms for a whole 320x240 frame."""
    raw = image.tobytes()
    count = len(raw) // 3
    red, green, blue = raw[0::3], raw[1::3], raw[2::3]
    high = int.from_bytes(red.translate(_RED_HIGH)) | int.from_bytes(green.translate(_GREEN_HIGH))
    low = int.from_bytes(green.translate(_GREEN_LOW)) | int.from_bytes(blue.translate(_BLUE_LOW))
    packed = bytearray(2 * count)
    packed[0::2] = high.to_bytes(count)
    packed[1::2] = low.to_bytes(count)
    return bytes(packed)


class Spi(luma_spi):  # type: ignore[misc]  # luma ships no types
    """luma's SPI interface, every write made with spidev's ``writebytes2``.

    luma writes with ``writebytes``, which takes at most 4,096 bytes (an OverflowError above it, whatever
    ``spidev.bufsiz`` says) and copies each byte through a Python list first. ``writebytes2`` takes the bytes as they
    are, cuts them into writes of the kernel's bufsiz itself (install.sh raises it: a frame in 3 writes instead of
    38), and lets the game thread run while the wire is busy. So luma's cutting into ``transfer_size`` pieces is
    left out too.
    """

    def data(self, data: Any) -> None:
        if self._DC:
            self._gpio.output(self._DC, self._data_mode)
        self._spi.writebytes2(data)

    def _write_bytes(self, data: Any) -> None:
        self._spi.writebytes2(data)


class Inline(Executor):
    """Runs what it is given at once, in the caller's thread (luma's start-up, before a writer thread is set)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the caller, as a thread's Future would
            done.set_exception(error)
        return done


class SixteenBit:
    """Mixed into a luma device: each changed box goes out in RGB565 once :meth:`sixteen_bit` has switched the
    controller (luma's own start-up, which draws the first frame, stays in its 18-bit colour).

    A box is written by ``writer`` (a thread of its own: :func:`build_lcd`) while the next is cut and converted: the
    wire runs (spidev lets go of the interpreter while the kernel writes) during the Python of the next box, one
    box in flight at a time, in order. The frame counts as sent once every box has gone out."""

    _bits = 18
    writer: Executor = Inline()

    def sixteen_bit(self) -> None:
        self.command(COLMOD, RGB565)  # type: ignore[attr-defined]
        self._bits = 16

    def display(self, image: Image.Image) -> None:
        device: Any = self
        assert image.mode == device.mode and image.size == device.size
        image = device.preprocess(image)
        if not isinstance(device.framebuffer, DirtyBoxes):  # luma's own default (a class built without one)
            device.framebuffer = DirtyBoxes()
        columns = None  # the controller keeps its columns until told others: a new screen's bands share them
        sending: Future[None] | None = None
        try:
            for box in device.framebuffer.boxes(image):
                window = device.apply_offsets(box)
                new_columns = (window[0], window[2]) != columns
                columns = (window[0], window[2])
                part = image.crop(box)
                pixels = rgb565(part) if self._bits == 16 else part.tobytes()
                if sending is not None:
                    sending.result()
                sending = self.writer.submit(self._window, window, new_columns, pixels)
        finally:
            if sending is not None:
                sending.result()
        device.framebuffer.sent(image)

    def _window(self, window: tuple[int, int, int, int], new_columns: bool, pixels: bytes) -> None:
        device: Any = self
        left, top, right, bottom = window
        if new_columns:
            device.command(CASET, left >> 8, left & 0xFF, (right - 1) >> 8, (right - 1) & 0xFF)
        device.command(RASET, top >> 8, top & 0xFF, (bottom - 1) >> 8, (bottom - 1) & 0xFF)
        device.command(RAMWR)
        device.data(pixels)

    def cleanup(self) -> None:
        """luma's: the screen cleared (through the writer), SPI and the pins released; then the writer's thread
        stops, and anything after (luma's own exit hook cleans up again) is written in line."""
        try:
            super().cleanup()  # type: ignore[misc]
        finally:
            self.writer.shutdown()
            self.writer = Inline()


class st7735(SixteenBit, lcd.st7735):  # type: ignore[misc]  # luma ships no types
    """luma's st7735 in 16-bit colour. The names stay luma's, so logs and ``type(device).__name__`` say which
    controller it is."""


class ili9341(SixteenBit, lcd.ili9341):  # type: ignore[misc]
    """luma's ili9341 in 16-bit colour."""


class st7789(SixteenBit, lcd.st7789):  # type: ignore[misc]
    """luma's st7789 with a framebuffer strategy and offsets, like luma's st7735 and ili9341, in 16-bit colour."""

    def __init__(
        self,
        serial_interface: Any = None,
        width: int = 240,
        height: int = 240,
        rotate: int = 0,
        *,
        framebuffer: Any = None,
        h_offset: int = 0,
        v_offset: int = 0,
        **kwargs: Any,
    ) -> None:
        # Set before luma's constructor: it clears the screen through display().
        self.framebuffer = framebuffer if framebuffer is not None else DirtyBoxes()
        self._offsets = (h_offset, v_offset)
        super().__init__(serial_interface, width=width, height=height, rotate=rotate, **kwargs)

    def apply_offsets(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        dx, dy = self._offsets
        return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


CLASSES: dict[str, Any] = {"st7735": st7735, "st7789": st7789, "ili9341": ili9341}


def build_lcd(
    driver: str,
    interface: Any,
    size: tuple[int, int],
    *,
    rotate: int = 0,
    bgr: bool = False,
    inverse: bool = False,
    h_offset: int = 0,
    v_offset: int = 0,
    **options: Any,
) -> Any:
    """A luma device for ``driver`` over ``interface``; ``bgr``/``inverse`` flip the driver's defaults.

    ``options`` go to luma as they are (gpio, backlight pins).
    """
    cls = CLASSES[driver]
    takes = inspect.signature(cls.__init__).parameters
    panel = PANELS[driver]
    options.update(width=size[0], height=size[1], rotate=rotate, framebuffer=DirtyBoxes())
    options.update(h_offset=h_offset, v_offset=v_offset)
    if "bgr" in takes:
        options["bgr"] = bgr
    if "inverse" in takes:
        options["inverse"] = inverse
    device = cls(interface, **options)
    if bgr and "bgr" not in takes:
        device.command(MADCTL, panel.madctl ^ MADCTL_BGR)
    if inverse and "inverse" not in takes:
        device.command(INVOFF if panel.inverted else INVON)
    device.sixteen_bit()
    device.writer = ThreadPoolExecutor(1, thread_name_prefix="spi")
    return device
