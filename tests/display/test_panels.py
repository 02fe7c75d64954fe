"""What each driver accepts: the panel table agrees with luma's own classes, and check-config reports the rest."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from unittest.mock import Mock

import pytest
from luma.core.error import DeviceDisplayModeError

from companion.system import config
from display.drivers import CLASSES
from display.panels import PANELS, accepts_size, offset_limits
from display.wiretap import GRAM

EDGES = (80, 128, 132, 135, 160, 162, 170, 172, 180, 240, 241, 280, 320, 321)


@pytest.fixture(autouse=True)
def no_reset_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("luma.lcd.device.sleep", lambda _seconds: None)


def luma_accepts(driver: str, size: tuple[int, int]) -> bool:
    """Build luma's real class over mocked SPI and GPIO (as luma's own tests do): does it take this size?"""
    spi, gpio = Mock(), Mock()
    from luma.core.interface.serial import spi as interface

    try:
        CLASSES[driver](interface(spi=spi, gpio=gpio), width=size[0], height=size[1], gpio=gpio)
    except DeviceDisplayModeError:
        return False
    return True


@pytest.mark.parametrize("driver", ["st7735", "ili9341"])
def test_the_sizes_are_luma_s_own(driver: str) -> None:
    for size in itertools.product(EDGES, EDGES):
        assert accepts_size(driver, size) == luma_accepts(driver, size), size


def test_st7789_takes_any_size_in_luma_and_the_table_bounds_it_by_memory() -> None:
    assert all(luma_accepts("st7789", size) for size in [(240, 240), (320, 240), (240, 135), (321, 241)])
    assert accepts_size("st7789", (320, 240)) and accepts_size("st7789", (240, 135))
    assert not accepts_size("st7789", (321, 240)) and not accepts_size("st7789", (240, 320))


@pytest.mark.parametrize("driver", list(PANELS))
def test_memory_is_the_datasheet_memory_under_luma_s_madctl(driver: str) -> None:
    columns, rows = GRAM[driver]
    swapped = PANELS[driver].madctl & 0x20
    assert PANELS[driver].memory == ((rows, columns) if swapped else (columns, rows))
    assert offset_limits(driver, PANELS[driver].native) == (
        PANELS[driver].memory[0] - PANELS[driver].native[0],
        PANELS[driver].memory[1] - PANELS[driver].native[1],
    )


def check(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError) as caught:
        config.load(path)
    return caught.value.problems


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            '[display]\ndriver = "ili9341"\nwidth = 320\nheight = 200\n',
            "display.height: ili9341 accepts 320x240, 240x240, 320x180, not 320x200",
        ),
        (
            '[display]\ndriver = "st7735"\nwidth = 128\nheight = 160\n',
            "display.height: st7735 accepts 160x80, 160x128, 128x128, not 128x160 (a portrait panel: swap width and "
            "height, and set rotate = 1 or 3)",
        ),
        (
            '[display]\ndriver = "st7789"\nwidth = 240\nheight = 320\n',
            "display.height: st7789 addresses at most 320x240, not 240x320 (a portrait panel",
        ),
        (
            '[display]\ndriver = "st7789"\nh_offset = 81\n',
            "display.h_offset: 81 puts a 240x240 picture outside the st7789's memory (at most 80)",
        ),
        (
            '[display]\ndriver = "st7735"\nv_offset = 5\n',
            "display.v_offset: 5 puts a 160x128 picture outside the st7735's memory (at most 4)",
        ),
        ('[display]\nbgr = "yes"\n', 'display.bgr: must be true or false, not "yes"'),
        ("[display]\nh_offset = -1\n", "display.h_offset: must be from 0 to 1024, not -1"),
    ],
)
def test_check_config_names_the_file_and_the_key(tmp_path: Path, text: str, line: str) -> None:
    lines = check(tmp_path, text)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{tmp_path / 'config.toml'}: {line}")


def test_real_modules_that_need_settings_are_accepted(tmp_path: Path) -> None:
    examples = [
        '[display]\ndriver = "st7735"\nwidth = 160\nheight = 128\nrotate = 1\nh_offset = 1\nv_offset = 2\nbgr = true\n',
        '[display]\ndriver = "st7789"\nh_offset = 80\ninverse = true\n',
        '[display]\ndriver = "st7789"\nwidth = 240\nheight = 135\nh_offset = 40\nv_offset = 53\n',
        '[display]\ndriver = "ili9341"\nwidth = 240\nheight = 240\nh_offset = 80\n',
        '[display]\ndriver = "capture"\nwidth = 500\nheight = 77\nh_offset = 900\n',
    ]
    for number, text in enumerate(examples):
        path = tmp_path / f"{number}.toml"
        path.write_text(text)
        config.load(path)


def test_every_example_in_the_config_docs_is_accepted(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "config.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    for number, block in enumerate(blocks):
        path = tmp_path / f"{number}.toml"
        path.write_text(block)
        config.load(path)
