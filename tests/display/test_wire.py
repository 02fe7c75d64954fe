"""The real luma.lcd driver classes, byte for byte: what the controller receives is decoded back into a picture.

Every driver x size/offset x rotation x colour order x inversion the config accepts: a first frame, a menu highlight
move, a different screen and the blank screen go out (partial pushes after the first), and after each the
emulated panel must show exactly the frame (in the 16-bit colour the drivers switch to), with nothing written outside
the glass.
"""

from __future__ import annotations

import copy
import itertools
import random
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.flow.autoplay import Table
from companion.flow.controller import Controller as GameController
from companion.system import config
from display import drivers
from display.backends import Display, build_display
from display.drivers import rgb565
from display.panels import MADCTL_BGR, PANELS
from display.render import render
from display.screen import Line, MenuView, Screen
from display.wiretap import GRAM, Controller, Glass, Wire, WireError, sixteen_bit

DC = 24
# (size, h_offset, v_offset): native sizes, and real modules that need offsets (luma's landscape addressing)
LAYOUTS = {
    "st7735": [((160, 128), 0, 0), ((160, 128), 1, 2), ((160, 80), 1, 26)],  # "green tab"; 0.96" 160x80
    "st7789": [((240, 240), 0, 0), ((240, 240), 80, 0), ((240, 135), 40, 53)],  # 1.3" at offset 80; 1.14"
    "ili9341": [((320, 240), 0, 0), ((240, 240), 80, 0)],
}
CASES = [
    (driver, size, h, v, rotate, bgr, inverse)
    for driver, layouts in LAYOUTS.items()
    for (size, h, v) in layouts
    for rotate, (bgr, inverse) in itertools.product(range(4), [(False, False), (True, False), (False, True)])
] + [(driver, PANELS[driver].native, 0, 0, 1, True, True) for driver in LAYOUTS]
CLOCKWISE = {0: None, 1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_90}


@pytest.fixture(autouse=True)
def no_reset_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """luma's ili9341 sleeps 120 ms after sleep-out, for the silicon; nothing to wait for here."""
    monkeypatch.setattr("luma.lcd.device.sleep", lambda _seconds: None)


def settings(**display: Any) -> dict[str, Any]:
    data = copy.deepcopy(config.load(search=False).data)
    data["display"].update(display, dc_pin=DC)
    return data


def wired(
    driver: str,
    size: tuple[int, int],
    h: int = 0,
    v: int = 0,
    rotate: int = 0,
    bgr: bool = False,
    inverse: bool = False,
) -> tuple[Display, Controller, Wire]:
    """A display on the real driver class, wired to an emulated controller whose glass matches the config."""
    panel = PANELS[driver]
    glass = Glass(needs_bgr=bool(panel.madctl & MADCTL_BGR) != bgr, needs_inversion=panel.inverted != inverse)
    controller = Controller(GRAM[driver], glass)
    wire = Wire(DC, controller)
    options = {"rotate": rotate, "bgr": bgr, "inverse": inverse, "h_offset": h, "v_offset": v}
    display = build_display(settings(driver=driver, **options), size, spi=wire, gpio=wire)
    return display, controller, wire


def menu(size: tuple[int, int], cursor: int, title: str = "Vote") -> Image.Image:
    screen = Screen(title, (Line("Red: 3 votes", colour="red"), Line("Blue", colour="blue")), "ok: choose")
    screen = Screen(screen.title, screen.lines, screen.footer, menu=MenuView(("Dandolo", "Morosini", "Pass"), cursor))
    return render(screen, size)


def frames(size: tuple[int, int]) -> list[Image.Image]:
    """A game screen, its highlight moved, another screen (with every 6-bit colour level), and black."""
    other = menu(size, 0, title="Year 2")
    draw = ImageDraw.Draw(other)
    for x in range(min(size[0], 64)):
        draw.line((x, size[1] - 8, x, size[1] - 1), fill=(x * 4, 255 - x * 4, (x * 37) % 256))
    return [menu(size, 0), menu(size, 1), other, Image.new("RGB", size)]


def physical(frame: Image.Image, rotate: int) -> Image.Image:
    turn = CLOCKWISE[rotate]
    return frame if turn is None else frame.transpose(turn)


def check(controller: Controller, frame: Image.Image, rotate: int, h: int, v: int) -> None:
    expected = sixteen_bit(physical(frame, rotate))
    seen = controller.seen(h, v, expected.size)
    assert seen.tobytes() == expected.tobytes(), "the panel does not show the frame"
    outside = controller.memory().copy()
    outside.paste((0, 0, 0), (h, v, h + expected.size[0], v + expected.size[1]))
    assert outside.getbbox() is None, "pixels were written outside the glass"


@pytest.mark.parametrize(("driver", "size", "h", "v", "rotate", "bgr", "inverse"), CASES)
def test_the_panel_shows_every_frame_exactly(
    driver: str, size: tuple[int, int], h: int, v: int, rotate: int, bgr: bool, inverse: bool
) -> None:
    display, controller, _wire = wired(driver, size, h, v, rotate, bgr, inverse)
    logical = display.size
    assert logical == (size if rotate % 2 == 0 else (size[1], size[0]))
    for frame in frames(logical):
        assert display.show(frame)
        assert display.flush(timeout=30), "hang guard"
        check(controller, frame, rotate, h, v)
    default_orientation = PANELS[driver].madctl & ~MADCTL_BGR
    assert {value & ~MADCTL_BGR for value in controller.madctl_history} == {default_orientation}
    display.close()


@pytest.mark.parametrize("driver", LAYOUTS)
def test_a_quarter_turn_puts_the_top_left_corner_top_right(driver: str) -> None:
    size = PANELS[driver].native
    display, controller, _wire = wired(driver, size, rotate=1)
    frame = Image.new("RGB", display.size, "white")
    ImageDraw.Draw(frame).rectangle((0, 0, 9, 9), fill="red")
    display.show(frame)
    display.flush(timeout=30)
    seen = controller.seen(0, 0, size)
    assert seen.getpixel((size[0] - 1, 0)) == (248, 0, 0)
    assert seen.getpixel((0, 0)) == (248, 252, 248)
    display.close()


@pytest.mark.parametrize("driver", LAYOUTS)
def test_a_wrong_colour_setting_shows_on_the_emulated_panel(driver: str) -> None:
    """The check can fail: a BGR glass driven as RGB swaps red and blue; a wrong inversion shows a negative."""
    size = PANELS[driver].native
    display, controller, _wire = wired(driver, size)
    controller.glass = Glass(not controller.glass.needs_bgr, controller.glass.needs_inversion)
    display.show(Image.new("RGB", size, (255, 0, 0)))
    display.flush(timeout=30)
    assert controller.seen(0, 0, size).getpixel((0, 0)) == (0, 0, 248)
    controller.glass = Glass(not controller.glass.needs_bgr, not controller.glass.needs_inversion)
    assert controller.seen(0, 0, size).getpixel((0, 0)) == (7, 255, 255)
    display.close()


@pytest.mark.parametrize("driver", LAYOUTS)
def test_a_highlight_move_sends_under_a_tenth_of_a_frame(driver: str) -> None:
    size = PANELS[driver].native
    display, _controller, wire = wired(driver, size)
    full = size[0] * size[1] * 2  # RGB565
    display.show(menu(size, 0))
    display.flush(timeout=30)
    before = wire.bytes
    display.show(menu(size, 1))
    display.flush(timeout=30)
    assert 0 < wire.bytes - before < full / 10
    before = wire.bytes
    display.show(menu(size, 1))
    display.flush(timeout=30)
    assert wire.bytes == before, "an unchanged frame sends nothing"
    display.close()


@pytest.mark.parametrize("driver", LAYOUTS)
def test_frames_go_out_in_16_bit_colour_two_bytes_a_pixel(driver: str) -> None:
    """After luma's start-up (18-bit), the driver switches the controller to RGB565 (COLMOD 55h), and a
    whole new frame then costs 2 bytes a pixel on the wire, a third fewer than luma's 3."""
    size = PANELS[driver].native
    display, controller, wire = wired(driver, size)
    assert controller.colour_bits == 16
    before = wire.bytes
    display.show(Image.new("RGB", size, "white"))
    display.flush(timeout=30)
    assert size[0] * size[1] * 2 <= wire.bytes - before < size[0] * size[1] * 2 + 64
    display.close()


@examples(max_examples=50)
@given(st.binary(min_size=3, max_size=300).map(lambda raw: raw[: len(raw) // 3 * 3]))
def test_rgb565_packs_each_pixel_high_byte_first(raw: bytes) -> None:
    image = Image.frombytes("RGB", (len(raw) // 3, 1), raw)
    expected = b"".join(
        ((r >> 3) << 11 | (g >> 2) << 5 | b >> 3).to_bytes(2, "big") for r, g, b in zip(*[iter(raw)] * 3, strict=True)
    )
    assert rgb565(image) == expected


def test_the_emulator_refuses_a_window_outside_memory() -> None:
    controller = Controller(GRAM["st7789"], Glass(False, True))
    controller.feed(True, bytes([0x36]))
    controller.feed(False, bytes([0x70]))
    controller.feed(True, bytes([0x2A]))
    with pytest.raises(WireError, match="CASET"):
        controller.feed(False, bytes([0, 80, 0x01, 0x40]))  # columns 80..320: one past the 320 the ST7789 has


class HeldWire(Wire):
    """A wire whose transfers can be held, as a slow SPI clock holds them; the game thread must not wait."""

    def __init__(self, dc_pin: int, controller: Controller) -> None:
        super().__init__(dc_pin, controller)
        self.release = threading.Event()
        self.release.set()
        self.busy = threading.Event()

    def transfer(self, chunk: bytes) -> None:
        if not self.release.is_set():
            self.busy.set()
            assert self.release.wait(30), "hang guard"
        super().transfer(chunk)


def test_show_returns_while_the_wire_is_busy_and_the_newest_frame_wins() -> None:
    panel = PANELS["st7789"]
    controller = Controller(GRAM["st7789"], Glass(False, True))
    wire = HeldWire(DC, controller)
    display = build_display(settings(driver="st7789"), panel.native, spi=wire, gpio=wire)
    first, moved, other, _black = frames(panel.native)
    wire.release.clear()
    assert display.show(first)
    assert wire.busy.wait(30), "hang guard: the display thread is sending the first frame"
    assert display.show(moved) and display.show(other), "the game thread handed both over while the wire was busy"
    wire.release.set()
    assert display.flush(timeout=30)
    check(controller, other, 0, 0, 0)
    assert display.pusher is not None and display.pusher.dropped == 1, "the stale frame in between was never sent"
    display.close()


class WaitingWire(Wire):
    """A wire whose first write of pixels, once armed, waits until the next box has been converted."""

    def __init__(self, dc_pin: int, controller: Controller, converted: threading.Event) -> None:
        super().__init__(dc_pin, controller)
        self.converted = converted
        self.armed = False

    def transfer(self, chunk: bytes) -> None:
        if self.armed and self.levels.get(self.dc_pin) == self.HIGH and len(chunk) > 4:  # pixels, not parameters
            self.armed = False
            assert self.converted.wait(10), "the next box was not converted while this one was on the wire"
        super().transfer(chunk)


def test_a_box_goes_over_the_wire_while_the_next_is_converted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wire of one box runs during the Python of the next (spidev's writebytes2 lets go of the
    interpreter), in order, and the panel ends with the frame exactly."""
    panel = PANELS["ili9341"]
    converted, boxes = threading.Event(), []
    real = drivers.rgb565

    def converting(part: Image.Image) -> bytes:
        boxes.append(part.size)
        if len(boxes) == 2:
            converted.set()
        return real(part)

    monkeypatch.setattr(drivers, "rgb565", converting)
    controller = Controller(GRAM["ili9341"], Glass(bool(panel.madctl & MADCTL_BGR), panel.inverted))
    wire = WaitingWire(DC, controller, converted)
    display = build_display(settings(driver="ili9341"), panel.native, spi=wire, gpio=wire)
    background = Image.new("RGB", panel.native, (16, 20, 32))
    display.show(background)
    assert display.flush(timeout=30)
    marked = background.copy()
    ImageDraw.Draw(marked).rectangle((2, 2, 40, 20), fill="red")
    ImageDraw.Draw(marked).rectangle((250, 200, 300, 230), fill="gold")
    boxes.clear()
    wire.armed = True
    display.show(marked)
    assert display.flush(timeout=30)
    assert display.pusher is not None and display.pusher.failures == 0, "the held box waited for the next one"
    assert len(boxes) == 2
    check(controller, marked, 0, 0, 0)
    display.close()


def test_closing_clears_the_panel_through_the_writer_and_stops_it() -> None:
    panel = PANELS["st7789"]
    controller = Controller(GRAM["st7789"], Glass(bool(panel.madctl & MADCTL_BGR), panel.inverted))
    wire = Wire(DC, controller)
    display = build_display(settings(driver="st7789"), panel.native, spi=wire, gpio=wire)
    display.show(Image.new("RGB", panel.native, "white"))
    assert display.flush(timeout=30)
    display.close()
    assert controller.seen(0, 0, panel.native).getbbox() is None, "luma's clean-up clears the screen"
    assert isinstance(display.device.writer, drivers.Inline), "the writer's thread stopped"
    display.device.cleanup()  # luma's exit hook cleans up again


def game_screens(count: int) -> list[Screen]:
    """The distinct screens of the first presses of a simulated game, in order (a real game's frames)."""
    shown: list[Screen] = []

    def watch(controller: Any, _event: object) -> None:
        screen = controller.screen()
        if not shown or screen != shown[-1]:
            shown.append(screen)

    table = Table(GameController(random.Random(11)), random.Random(3), ["1", "2", "3"], keypads=False, watch=watch)
    table.setup()
    while len(shown) < count and table.controller.stage != "over":
        table.turn()
    return shown[:count]


@pytest.mark.parametrize(("driver", "size", "h", "v"), [(d, *layouts[-1]) for d, layouts in LAYOUTS.items()])
def test_a_game_s_partial_pushes_keep_the_panel_equal_to_the_last_frame(
    driver: str, size: tuple[int, int], h: int, v: int
) -> None:
    display, controller, _wire = wired(driver, size, h, v, rotate=3)
    for screen in game_screens(120):
        frame = render(screen, display.size)
        display.show(frame)
        assert display.flush(timeout=30), "hang guard"
        check(controller, frame, 3, h, v)
    display.close()


@pytest.mark.parametrize("driver", list(LAYOUTS))
def test_boxes_of_the_same_columns_share_one_column_window(driver: str) -> None:
    """The controller keeps its columns (CASET) until told others, so boxes of a frame that span the same columns
    (a new screen's full-width bands) open their windows with a row command (RASET) alone: fewer transfers, each
    its own ioctl on a Pi. The panel still shows the frame exactly."""
    size = PANELS[driver].native
    display, controller, _wire = wired(driver, size)
    commands: list[int] = []
    feed = controller.feed

    def counting(is_command: bool, chunk: bytes) -> None:
        if is_command:
            commands.extend(chunk)
        feed(is_command, chunk)

    controller.feed = counting  # type: ignore[method-assign]
    display.show(Image.new("RGB", size))
    display.flush()
    stripes = Image.new("RGB", size)
    for top in (4, size[1] // 2, size[1] - 12):
        ImageDraw.Draw(stripes).rectangle((0, top, size[0] - 1, top + 5), fill=(200, 40, 90))
    commands.clear()
    display.show(stripes)
    display.flush()
    check(controller, stripes, 0, 0, 0)
    assert commands.count(0x2B) == 3, "one window a stripe"
    assert commands.count(0x2A) == 1, "the stripes share their columns"
    display.close()
