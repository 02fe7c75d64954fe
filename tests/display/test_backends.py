"""Display back-ends: luma's dummy device for capture, and the real luma.lcd drivers over mocked SPI."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any
from unittest.mock import Mock

import pytest
from PIL import Image, ImageDraw

from companion.system import config
from display.backends import Display, build_display
from display.panels import PANELS
from display.wiretap import GRAM, Controller, Glass, Wire, sixteen_bit


def settings(**display: Any) -> dict[str, Any]:
    data = copy.deepcopy(config.load(search=False).data)
    data["display"].update(display)
    return data


def marked(size: tuple[int, int]) -> Image.Image:
    """A frame with a red block in its top-left corner, to see where the corner ends up."""
    image = Image.new("RGB", size, "white")
    ImageDraw.Draw(image).rectangle((0, 0, 9, 9), fill="red")
    return image


def test_capture_keeps_the_frame_at_the_configured_size() -> None:
    display = build_display(settings(driver="capture"), (160, 128))
    assert display.size == (160, 128)
    assert display.show(marked((160, 128)))
    assert display.last_image is not None and display.last_image.size == (160, 128)
    assert display.last_image.getpixel((0, 0)) == (255, 0, 0)


def test_capture_with_rotation_draws_at_the_logical_size() -> None:
    display = build_display(settings(driver="capture", rotate=1), (320, 240))
    assert display.size == (240, 320), "a quarter turn swaps the logical size"
    display.show(marked((240, 320)))
    physical = display.last_image
    assert physical is not None and physical.size == (320, 240)
    assert physical.getpixel((0, 0)) != (255, 0, 0), "the device stores the frame in its physical orientation"
    red = [(x, y) for x in (0, 319) for y in (0, 239) if physical.getpixel((x, y)) == (255, 0, 0)]
    assert len(red) == 1


def test_an_unchanged_frame_is_not_sent_again(tmp_path: Path) -> None:
    display = build_display(settings(driver="capture"), (320, 240), screenshots=tmp_path / "shots")
    assert display.show(marked((320, 240)))
    assert not display.show(marked((320, 240)))
    assert display.show(Image.new("RGB", (320, 240), "black"))
    assert display.frames == 2
    assert sorted(p.name for p in (tmp_path / "shots").iterdir()) == ["frame-00001.png", "frame-00002.png"]


def test_a_frame_of_the_wrong_size_is_refused() -> None:
    display = build_display(settings(driver="capture"), (320, 240))
    with pytest.raises(ValueError, match="160x128"):
        display.show(Image.new("RGB", (160, 128)))


@pytest.mark.parametrize(("driver", "size"), [("st7735", (160, 128)), ("st7789", (240, 240)), ("ili9341", (320, 240))])
def test_real_lcd_drivers_over_mocked_spi(driver: str, size: tuple[int, int]) -> None:
    spi, gpio = Mock(), Mock()
    gpio.OUT, gpio.HIGH, gpio.LOW = "out", 1, 0
    display = build_display(
        settings(driver=driver, dc_pin=23, reset_pin=22, backlight_pin=27), size, spi=spi, gpio=gpio
    )
    assert type(display.device).__name__ == driver and display.size == size
    spi.open.assert_called_with(0, 0)
    assert spi.max_speed_hz == {"st7735": 32_000_000}.get(driver, 50_000_000), "bus_speed_mhz 0: the panel's own"
    configured = {call.args[0] for call in gpio.setup.call_args_list}
    assert {22, 23, 27} <= configured, "DC, RST and backlight pins come from the config"
    sent_before = spi.writebytes2.call_count + spi.writebytes.call_count
    display.show(marked(size))
    assert display.flush(timeout=10), "hang guard: the display thread did not finish"
    assert spi.writebytes2.call_count + spi.writebytes.call_count > sent_before, "the frame went out over SPI"
    display.blank()
    display.close()


def test_display_without_backlight_control() -> None:
    spi, gpio = Mock(), Mock()
    display = build_display(settings(driver="st7789", backlight_pin=-1), (240, 240), spi=spi, gpio=gpio)
    configured = {call.args[0] for call in gpio.setup.call_args_list}
    assert 18 not in configured
    display.show(marked((240, 240)))
    display.close()


def test_close_is_safe_twice() -> None:
    display = build_display(settings(driver="capture"), (320, 240))
    display.close()
    display.close()
    assert isinstance(display, Display)


def test_without_backlight_control_on_luma_lcd_before_2_13(monkeypatch: pytest.MonkeyPatch) -> None:
    """luma.lcd 2.10 (Debian bookworm's) has no ``backlight=`` and sets up and drives GPIO 18 as the backlight
    whatever the config says: the GPIO it is given has no backlight pin to drive (the floor-lock test runs the test
    above on 2.10 itself)."""
    from luma.lcd.device import backlit_device

    original = backlit_device.__init__

    def before_2_13(self: Any, const: Any = None, serial_interface: Any = None, gpio: Any = None,
                    gpio_LIGHT: int = 18, active_low: bool = True, **kwargs: Any) -> None:  # fmt: skip
        kwargs.pop("backlight", None)
        original(self, const, serial_interface, gpio=gpio, gpio_LIGHT=gpio_LIGHT, active_low=active_low, **kwargs)

    monkeypatch.setattr(backlit_device, "__init__", before_2_13)
    spi, gpio = Mock(), Mock()
    display = build_display(settings(driver="st7789", backlight_pin=-1), (240, 240), spi=spi, gpio=gpio)
    configured = {call.args[0] for call in gpio.setup.call_args_list}
    assert configured and configured.isdisjoint({18, -1}), "DC and RST set up, no backlight pin"
    assert all(call.args[0] not in (18, -1) for call in gpio.output.call_args_list)
    display.show(marked((240, 240)))
    display.close()
    assert all(call.args[:1] not in ((18,), (-1,)) for call in gpio.cleanup.call_args_list)


@pytest.mark.parametrize(
    ("driver", "asked", "clock"), [("st7789", 0, 50), ("st7789", 16, 16), ("ili9341", 0, 50), ("st7735", 0, 32)]
)
def test_each_panel_has_its_own_spi_clock(driver: str, asked: int, clock: int) -> None:
    """Each panel's default SPI clock (docs/config.md): the ST7789 is rated for 62.5 MHz and gets 50 by default (the
    most luma takes below it), the ST7735S keeps the 32 MHz it is commonly run at, the ILI9341 gets the 50 its Pi
    drivers use (their datasheets say 15 and 10: docs/config.md); a clock set in the config wins."""
    spi, gpio = Mock(), Mock()
    gpio.OUT, gpio.HIGH, gpio.LOW = "out", 1, 0
    display = build_display(settings(driver=driver, bus_speed_mhz=asked), PANELS[driver].native, spi=spi, gpio=gpio)
    assert spi.max_speed_hz == clock * 1_000_000
    assert PANELS[driver].spi_mhz <= 52, "luma takes no more"
    assert driver != "st7789" or PANELS[driver].spi_mhz <= PANELS[driver].datasheet_mhz, "rated for it: keep within"
    display.close()


def test_pixels_go_in_writes_as_large_as_spidev_takes() -> None:
    """Few writes a frame: each write is an ioctl and a DMA mapping on the Pi. With spidev.bufsiz raised (install.sh:
    65,536) a whole frame goes in writes of up to 65,535 bytes (writebytes2's most), not one per 4,096, and none through
    writebytes, which refuses more than 4,096 (the wire keeps spidev's limits)."""
    controller = Controller(GRAM["ili9341"], Glass(needs_bgr=False, needs_inversion=False))
    wire = Wire(settings()["display"]["dc_pin"], controller, bufsiz=65536)
    display = build_display(settings(driver="ili9341"), (320, 240), spi=wire, gpio=wire)
    before = wire.transfers
    white = Image.new("RGB", (320, 240), "white")
    display.show(white)
    assert display.flush(timeout=10)
    assert controller.seen(0, 0, (320, 240)).tobytes() == sixteen_bit(white).tobytes()
    assert wire.transfers - before <= 5 + -(-320 * 240 * 2 // 65535), "a window's commands, then 3 writes of pixels"
    display.close()
