"""luma.lcd devices built with the options real panels need, every one pushing only the boxes that changed.

luma 2.13's st7735 and ili9341 take a ``framebuffer`` strategy and ``h_offset``/``v_offset``; st7789 takes neither
and sends the whole 240x240 frame (172,800 bytes) on every change, so :class:`st7789` below adds both the way its
siblings do it. Options luma's class does not take (``inverse`` on ili9341 and st7789, ``bgr`` on st7789) are sent
as the standard MIPI DCS commands after luma's own start-up sequence; which options luma takes is read from its
constructors, so a future luma that learns them is used as is.

Imported only when a real LCD is built: this module loads luma.lcd.
"""

from __future__ import annotations

import inspect
from typing import Any

from luma.lcd import device as lcd
from PIL import Image

from .dirty import DirtyBoxes
from .panels import MADCTL_BGR, PANELS

MADCTL, INVOFF, INVON = 0x36, 0x20, 0x21


class st7789(lcd.st7789):  # type: ignore[misc]  # luma ships no types
    """luma's st7789 with a framebuffer strategy and offsets, like luma's st7735 and ili9341.

    The name stays ``st7789`` so logs and ``type(device).__name__`` say which controller it is.
    """

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

    def display(self, image: Image.Image) -> None:
        """Send each changed box through luma's ``set_window`` and ``data`` (the whole frame only the first time)."""
        assert image.mode == self.mode and image.size == self.size
        dx, dy = self._offsets
        for part, (left, top, right, bottom) in self.framebuffer.redraw(self.preprocess(image)):
            self.set_window(left + dx, top + dy, right + dx, bottom + dy)
            self.data(part.tobytes())


CLASSES: dict[str, Any] = {"st7735": lcd.st7735, "st7789": st7789, "ili9341": lcd.ili9341}


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
    return device
