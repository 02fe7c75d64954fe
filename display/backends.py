"""Display back-ends: one contract, ``show(image)``, for an SPI LCD (luma.lcd) or a capture with no screen at all.

luma is imported only here and only when a display is built, so the commands that need no display never load it.
An LCD is pushed on its own thread (:mod:`display.pusher`) and sends only the boxes that changed
(:mod:`display.dirty`): the game thread hands a frame over and goes back to waiting for input.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from .pusher import Pusher

log = logging.getLogger(__name__)


class ScreenshotError(Exception):
    """A frame that ``--screenshots`` could not write: the CLI stops the run with one line, not a traceback."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path, self.why = path, why


class Display:
    """Wraps a luma device: sends a frame only when it differs from the last one, and can keep PNG copies.

    ``threaded``: frames go out on a display thread where the newest frame wins (real LCDs); else ``show`` pushes
    at once (the in-memory capture, whose push costs microseconds and whose tests read the frame right after).
    """

    def __init__(self, device: Any, screenshots: Path | None = None, *, threaded: bool = False) -> None:
        self.device = device
        self.size: tuple[int, int] = (device.width, device.height)
        self.frames = 0
        self._last: Image.Image | None = None
        self._screenshots = screenshots
        if screenshots is not None:
            screenshots.mkdir(parents=True, exist_ok=True)
        self.pusher = Pusher(device.display) if threaded else None

    def show(self, image: Image.Image) -> bool:
        """Push ``image`` (drawn at the logical size); returns False when it was the frame already shown."""
        if image.size != self.size:
            raise ValueError(f"frame is {image.size[0]}x{image.size[1]}, the display is {self.size[0]}x{self.size[1]}")
        if image.mode != self.device.mode:
            image = image.convert(self.device.mode)
        if self._last is not None and ImageChops.difference(self._last, image).getbbox() is None:
            return False  # one pass in C; comparing the frames' bytes copied 230 kB out of Pillow first
        self._last = image.copy()
        self.frames += 1
        if self._screenshots is not None:  # every frame shown, even one the wire drops for a newer one
            path = self._screenshots / f"frame-{self.frames:05d}.png"
            try:
                image.save(path)
            except OSError as error:  # a full disk: the run stops in one line (the game is in the store already)
                raise ScreenshotError(path, error.strerror or str(error)) from error
        if self.pusher is not None:
            self.pusher.hand(image)
        else:
            self.device.display(image)
        return True

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the panel shows the newest frame; False only if ``timeout`` (a hang guard) ran out."""
        return self.pusher.flush(timeout) if self.pusher is not None else True

    @property
    def last_image(self) -> Image.Image | None:
        """What the device holds now, in its physical orientation (the capture back-end only)."""
        self.flush()
        image: Image.Image | None = getattr(self.device, "image", None)
        return image

    def blank(self) -> None:
        """Black screen (and the backlight off where there is one), e.g. on shutdown."""
        self.show(Image.new(self.device.mode, self.size))
        self.flush(timeout=5.0)
        backlight = getattr(self.device, "backlight", None)
        if callable(backlight):
            backlight(False)

    def close(self) -> None:
        """Send what is waiting, stop the display thread, release luma's pins and SPI."""
        if self.pusher is not None:
            self.pusher.close()
        cleanup = getattr(self.device, "cleanup", None)
        if callable(cleanup):
            try:
                cleanup()
            except Exception:  # closing a display must never stop a shutdown
                log.debug("display cleanup failed", exc_info=True)


NO_PIN = -1


class WithoutPin:
    """RPi.GPIO (or a test's stand-in) with one pin cut off: the backlight luma.lcd before 2.13 sets up and drives
    whatever it is told goes nowhere, so no other part's pin (GPIO 18 by default) is touched."""

    def __init__(self, gpio: Any, pin: int) -> None:
        self._gpio, self._pin = gpio, pin

    def setup(self, pin: int, *args: Any, **kwargs: Any) -> None:
        if pin != self._pin:
            self._gpio.setup(pin, *args, **kwargs)

    def output(self, pin: int, *args: Any) -> None:
        if pin != self._pin:
            self._gpio.output(pin, *args)

    def cleanup(self, *pins: Any) -> None:
        if pins != (self._pin,):
            self._gpio.cleanup(*pins)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._gpio, name)


def rpi_gpio() -> Any:
    """RPi.GPIO in BCM numbering, as luma takes it when given none (rpi-lgpio provides it on a Pi 5)."""
    from hardware.board import supply_rpi_lgpio

    supply_rpi_lgpio()
    import RPi.GPIO as GPIO

    GPIO.setmode(GPIO.BCM)
    return GPIO


def build_display(
    settings: Mapping[str, Any],
    size: tuple[int, int],
    screenshots: Path | None = None,
    *,
    spi: Any = None,
    gpio: Any = None,
) -> Display:
    """The display the config names. ``spi``/``gpio`` replace spidev and RPi.GPIO (the tests pass mocks).

    ``size`` is the panel's unrotated size (luma's convention); the display's ``size`` is the logical one.
    """
    config = settings["display"]
    width, height = size
    if config["driver"] == "capture":
        from luma.core.device import dummy

        return Display(dummy(width=width, height=height, rotate=config["rotate"], mode="RGB"), screenshots)
    import inspect

    if gpio is None:  # luma imports RPi.GPIO itself: rpi-lgpio must know the board first
        from hardware.board import supply_rpi_lgpio

        supply_rpi_lgpio()
    from luma.lcd.device import backlit_device

    from .drivers import Spi, build_lcd
    from .panels import spi_hz

    interface = Spi(
        spi=spi,
        gpio=gpio,
        port=config["spi_port"],
        device=config["spi_device"],
        bus_speed_hz=int(spi_hz(config)),
        gpio_DC=config["dc_pin"],
        gpio_RST=None if config["reset_pin"] == -1 else config["reset_pin"],
    )
    options: dict[str, Any] = {"gpio": gpio}
    if config["backlight_pin"] != -1:
        options["gpio_LIGHT"] = config["backlight_pin"]
        options["active_low"] = config["backlight_active_low"]
    elif "backlight" in inspect.signature(backlit_device.__init__).parameters:  # luma.lcd 2.13
        options["backlight"] = lambda _on: None
    else:  # luma.lcd before 2.13 (Debian bookworm has 2.10) drives a backlight pin whatever it is told: a pin of none
        options["gpio"] = WithoutPin(gpio if gpio is not None else rpi_gpio(), NO_PIN)
        options["gpio_LIGHT"] = NO_PIN
    panel = {key: config[key] for key in ("rotate", "bgr", "inverse", "h_offset", "v_offset")}
    device = build_lcd(config["driver"], interface, size, **panel, **options)
    return Display(device, screenshots, threaded=True)
