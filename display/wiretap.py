"""What an LCD controller would make of the bytes luma sends: a recording SPI bus and an emulated controller.

Used by the tests and benchmarks (never at run time) to check the real luma.lcd driver classes byte for byte off
the Pi: luma is given a recording stand-in for spidev and RPi.GPIO (the hardware modules, not luma); the DC pin's
level splits commands from data, and :class:`Controller` follows the MIPI DCS commands the three controllers
share (CASET 2Ah / RASET 2Bh address window, RAMWR 2Ch memory write, MADCTL 36h, INVOFF/INVON 20h/21h, COLMOD
3Ah, SWRESET 01h) to rebuild the picture in the controller's memory from 18-bit colour (3 bytes a pixel of which
the controller keeps the top 6 bits) or 16-bit RGB565 (2 bytes a pixel, high byte first). It is strict: a window
outside memory, or more pixels than the window holds, raises :class:`WireError` instead of wrapping as silicon would.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageChops

from .panels import MADCTL_BGR, MADCTL_MV

CASET, RASET, RAMWR, MADCTL, COLMOD, INVOFF, INVON, SWRESET = 0x2A, 0x2B, 0x2C, 0x36, 0x3A, 0x20, 0x21, 0x01
# Frame memory, columns x rows in the controller's own orientation (datasheets: ST7735S 132x162, others 240x320).
GRAM = {"st7735": (132, 162), "st7789": (240, 320), "ili9341": (240, 320)}


class WireError(AssertionError):
    """Bytes a controller could not make sense of, or would draw somewhere else than meant."""


SPIDEV_MAXPATH = 4096  # the most spidev's writebytes takes (py-spidev 3.8, spidev_module.c): OverflowError above it
SPIDEV_MOST_BLOCK = 65535  # the largest write spidev's writebytes2 makes, whatever spidev.bufsiz allows


class Wire:
    """A recording spidev (``wire.spi``) and RPi.GPIO (``wire.gpio``) for luma's ``spi`` interface.

    Every SPI transfer (each ``write`` spidev makes to the kernel) is counted and fed to ``controller`` when one is
    attached, split as spidev splits it: ``writebytes`` refuses more than 4,096 bytes, as spidev does,
    ``writebytes2`` cuts its bytes into writes of the kernel's ``bufsiz`` (4,096 unless set at boot), at most 65,535.
    """

    OUT, IN, HIGH, LOW, BCM = "out", "in", 1, 0, "bcm"

    def __init__(self, dc_pin: int, controller: Controller | None = None, bufsiz: int = 4096) -> None:
        self.dc_pin = dc_pin
        self.controller = controller
        self.block = min(bufsiz, SPIDEV_MOST_BLOCK)
        self.levels: dict[int, int] = {}
        self.bytes = 0
        self.transfers = 0
        self.max_speed_hz = 0
        self.mode = 0
        self.spi = self  # one object plays both parts: luma only calls methods the two modules have
        self.gpio = self

    # spidev
    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def close(self) -> None:
        pass

    def writebytes(self, data: list[int] | bytes) -> None:
        if len(data) > SPIDEV_MAXPATH:
            raise OverflowError(f"Argument list size exceeds {SPIDEV_MAXPATH} bytes.")
        self.transfer(bytes(data))

    def writebytes2(self, data: list[int] | bytes) -> None:
        chunk = bytes(data)
        for start in range(0, len(chunk), self.block):
            self.transfer(chunk[start : start + self.block])

    def transfer(self, chunk: bytes) -> None:
        """One write to the kernel's spidev."""
        self.bytes += len(chunk)
        self.transfers += 1
        is_command = self.levels.get(self.dc_pin, self.LOW) == self.LOW
        if self.controller is not None:
            self.controller.feed(is_command, chunk)

    # RPi.GPIO
    def setmode(self, mode: str) -> None:
        pass

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: str, **_kwargs: object) -> None:
        self.levels.setdefault(pin, self.LOW)

    def output(self, pin: int, level: int) -> None:
        self.levels[pin] = level

    def cleanup(self, *_pins: object) -> None:
        pass


@dataclass
class Glass:
    """The glass a controller drives: whether it needs MADCTL's BGR bit and INVON to show colours right."""

    needs_bgr: bool
    needs_inversion: bool


@dataclass
class Controller:
    """The controller's state and memory, rebuilt from the command and data bytes it receives."""

    gram: tuple[int, int]
    glass: Glass
    madctl: int = 0
    inverted: bool = False
    colour_bits: int = 0
    madctl_history: list[int] = field(default_factory=list)
    _command: int | None = None
    _params: bytearray = field(default_factory=bytearray)
    _window: tuple[int, int, int, int] = (0, 0, 0, 0)
    _pixels: bytearray = field(default_factory=bytearray)
    _memory: Image.Image | None = None

    @property
    def memory_size(self) -> tuple[int, int]:
        """Columns x rows as the host addresses them: MADCTL's MV bit exchanges the two."""
        columns, rows = self.gram
        return (rows, columns) if self.madctl & MADCTL_MV else (columns, rows)

    def memory(self) -> Image.Image:
        self._commit()
        if self._memory is None or self._memory.size != self.memory_size:
            self._memory = Image.new("RGB", self.memory_size)
        return self._memory

    def feed(self, is_command: bool, chunk: bytes) -> None:
        if is_command:
            for byte in chunk:
                self._start(byte)
        elif self._command == RAMWR:
            self._pixels += chunk
        else:
            self._params += chunk
            self._parameters()

    def _start(self, command: int) -> None:
        self._commit()
        self._command, self._params = command, bytearray()
        if command == SWRESET:
            self.madctl, self.inverted = 0, False
        elif command in (INVOFF, INVON):
            self.inverted = command == INVON
        elif command == RAMWR:
            self._pixels = bytearray()

    def _parameters(self) -> None:
        params = self._params
        if self._command in (CASET, RASET) and len(params) == 4:
            start, end = params[0] << 8 | params[1], params[2] << 8 | params[3]
            axis = 0 if self._command == CASET else 1
            if not start <= end < self.memory_size[axis]:
                raise WireError(f"{'CASET' if axis == 0 else 'RASET'} {start}..{end} outside {self.memory_size}")
            left, top, right, bottom = self._window
            self._window = (start, top, end + 1, bottom) if axis == 0 else (left, start, right, end + 1)
        elif self._command == MADCTL and len(params) == 1:
            self.madctl = params[0]
            self.madctl_history.append(params[0])
        elif self._command == COLMOD and len(params) == 1:
            self.colour_bits = {0x06: 18, 0x05: 16, 0x03: 12}.get(params[0] & 0x07, 0)

    def _commit(self) -> None:
        """Write the pixels of the RAMWR in progress into memory, row by row from the window's corner."""
        if self._command != RAMWR or not self._pixels:
            return
        data, self._pixels = bytes(self._pixels), bytearray()
        size = {18: 3, 16: 2}.get(self.colour_bits)
        if size is None:
            raise WireError(f"memory write in {self.colour_bits}-bit colour; the companion sends 16 or 18 bits")
        if len(data) % size:
            raise WireError(f"{len(data)} bytes is not a whole number of {size}-byte pixels")
        if size == 2:
            data = _from_rgb565(data)
        left, top, right, bottom = self._window
        width = right - left
        count = len(data) // 3
        if count > width * (bottom - top):
            raise WireError(f"{count} pixels for a {width}x{bottom - top} window")
        memory = self.memory()
        rows, rest = divmod(count, width)
        if rows:
            memory.paste(Image.frombytes("RGB", (width, rows), data[: rows * width * 3]), (left, top))
        if rest:
            memory.paste(Image.frombytes("RGB", (rest, 1), data[rows * width * 3 :]), (left, top + rows))

    def seen(self, h_offset: int, v_offset: int, size: tuple[int, int]) -> Image.Image:
        """The glass as a person sees it: the panel's part of memory, at most 18-bit, in the colours it shows."""
        picture = self.memory().crop((h_offset, v_offset, h_offset + size[0], v_offset + size[1]))
        picture = picture.point(lambda value: value & 0xFC)
        if bool(self.madctl & MADCTL_BGR) != self.glass.needs_bgr:
            red, green, blue = picture.split()
            picture = Image.merge("RGB", (blue, green, red))
        if self.inverted != self.glass.needs_inversion:
            picture = ImageChops.invert(picture)
        return picture


def eighteen_bit(image: Image.Image) -> Image.Image:
    """``image`` as an 18-bit panel shows it: the top 6 bits of each channel."""
    return image.convert("RGB").point(lambda value: value & 0xFC)


_FIVE_BITS = bytes(value & 0xF8 for value in range(256))
_GREEN_FROM_HIGH = bytes((value & 0x07) << 5 for value in range(256))
_GREEN_FROM_LOW = bytes((value & 0xE0) >> 3 for value in range(256))
_BLUE_FROM_LOW = bytes((value & 0x1F) << 3 for value in range(256))


def sixteen_bit(image: Image.Image) -> Image.Image:
    """``image`` as a panel shows it in RGB565: the top 5, 6 and 5 bits of red, green and blue."""
    red, green, blue = image.convert("RGB").split()
    return Image.merge("RGB", (red.point(_FIVE_BITS), green.point(lambda value: value & 0xFC), blue.point(_FIVE_BITS)))


def _from_rgb565(data: bytes) -> bytes:
    """RGB565 pixels (high byte first) as 3-byte RGB with the bits the controller keeps, zeros below them."""
    high, low = data[0::2], data[1::2]
    green = int.from_bytes(high.translate(_GREEN_FROM_HIGH)) | int.from_bytes(low.translate(_GREEN_FROM_LOW))
    rgb = bytearray(3 * len(high))
    rgb[0::3] = high.translate(_FIVE_BITS)
    rgb[1::3] = green.to_bytes(len(high))
    rgb[2::3] = low.translate(_BLUE_FROM_LOW)
    return bytes(rgb)
