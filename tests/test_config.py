"""Configuration: defaults + the user's file; ``check-config`` names every problem, one line each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.system import config

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(config.ConfigError) as caught:
        config.load(write(tmp_path, text))
    return caught.value.problems


def test_defaults_alone_are_valid() -> None:
    settings = config.load(search=False)
    assert settings["hardware"] == "mock" and settings.display_size == (320, 240)
    assert settings.source is None


def test_user_file_overlays_only_what_it_sets(tmp_path: Path) -> None:
    settings = config.load(write(tmp_path, '[display]\ndriver = "st7735"\nrotate = 1\n'))
    assert settings["display"]["driver"] == "st7735" and settings["display"]["rotate"] == 1
    assert settings["display"]["dc_pin"] == 24, "keys not in the user file keep their defaults"
    assert settings.display_size == (160, 128)


def test_search_order_xdg_then_etc(tmp_path: Path) -> None:
    (tmp_path / "doge-companion").mkdir()
    found = tmp_path / "doge-companion" / "config.toml"
    found.write_text("")
    assert config.user_config_path({"XDG_CONFIG_HOME": str(tmp_path)}) == found
    assert config.user_config_path({"XDG_CONFIG_HOME": str(tmp_path / "none"), "HOME": str(tmp_path / "none")}) in (
        None,
        Path("/etc/doge-companion/config.toml"),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[display]\nwidht = 3\n", "display.widht: unknown key"),
        ("colour = 1\n", "colour: unknown key"),
        ('[display]\nrotate = "1"\n', 'display.rotate: must be a whole number, not "1"'),
        ("[display]\nrotate = 1.0\n", "display.rotate: must be a whole number, not 1.0"),
        ("[game]\ncues = 1\n", "game.cues: must be true or false, not 1"),
        ("[game]\nplayers = 5\n", "game.players: must be from 3 to 4, not 5"),
        ('[game]\nlanguage = "fr"\n', 'game.language: unknown value "fr" (choose en, de, it)'),
        ('[display]\ndriver = "ssd1306"\n', 'display.driver: unknown display "ssd1306"'),
        ('[display]\ntext_size = "huge"\n', 'display.text_size: unknown value "huge" (choose normal, large)'),
        ("display = 3\n", "display: must be a table [display], not 3"),
        ("[buttons]\nok = 40\n", "buttons.ok: GPIO 40 is not a usable pin"),
        ("[buttons]\nok = true\n", "buttons.ok: must be a BCM GPIO number"),
        ("[buttons]\nok = 6\n", "buttons.ok: GPIO 6 is already used by buttons.right"),
        ("[buzzer]\npin = 24\n", "buzzer.pin: GPIO 24 is already used by display.dc_pin"),
        ("[buttons]\nleft = 11\n", "buttons.left: GPIO 11 is already used by display (SPI0 SCLK)"),
        ("[[pads.gpio]]\nleft = 17\nright = 27\nok = 5\n", "pads.gpio[0].ok: GPIO 5 is already used by buttons.left"),
        ("[[pads.gpio]]\nleft = 17\nright = 27\n", "pads.gpio[0].ok: missing"),
        ("[[pads.gpio]]\nleft = 17\nright = 27\nok = 22\nblink = 1\n", "pads.gpio[0].blink: unknown key"),
        ('[pads]\nserial = ["/dev/ttyDOGE9"]\n', "pads.serial: serial port /dev/ttyDOGE9 does not exist"),
        ('[pads]\nserial = "sometimes"\n', 'pads.serial: must be "auto", "off" or a list of serial ports'),
        ("[display]\nbus_speed_mhz = 33\n", "display.bus_speed_mhz: must be one of"),
        ("[display\n", "not valid TOML"),
    ],
)
def test_each_kind_of_bad_file(tmp_path: Path, text: str, expected: str) -> None:
    found = problems(tmp_path, text)
    assert len(found) == 1, found
    assert found[0].startswith(f"{tmp_path / 'config.toml'}: ")
    assert expected in found[0]


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    found = problems(tmp_path, '[display]\ndriver = "x"\nrotate = 9\n[buttons]\nok = 6\n')
    assert len(found) == 3


def test_a_capture_display_frees_the_spi_pins(tmp_path: Path) -> None:
    settings = config.load(write(tmp_path, '[display]\ndriver = "capture"\n[buttons]\nleft = 10\n'))
    assert settings["buttons"]["left"] == 10


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="no such file"):
        config.load(tmp_path / "missing.toml")
    with pytest.raises(config.ConfigError, match="is a directory"):
        config.load(tmp_path)
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'[game]\nlanguage = "\xe9"\n')
    with pytest.raises(config.ConfigError, match=r"not UTF-8|not valid TOML"):
        config.load(bad)


def test_print_config_round_trips(tmp_path: Path) -> None:
    settings = config.load(write(tmp_path, "[[pads.gpio]]\nleft = 17\nright = 27\nok = 22\n"))
    again = config.load(write(tmp_path, config.to_toml(settings.data)))
    assert again.data == settings.data


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_check_config_command(tmp_path: Path) -> None:
    good = run_cli("check-config", str(write(tmp_path, '[game]\nlanguage = "de"\n')))
    assert good.returncode == 0 and good.stdout.strip().endswith(": OK")
    bad = run_cli("check-config", str(write(tmp_path, '[display]\ndriver = "x"\nrotate = 9\n')))
    assert bad.returncode == 78 and bad.stdout == ""  # sysexits' EX_CONFIG
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 2 and all("config.toml: display." in line for line in lines)
    assert "Traceback" not in bad.stderr


def test_print_config_command(tmp_path: Path) -> None:
    result = run_cli("print-config", "--config", str(write(tmp_path, '[display]\ndriver = "st7789"\n')))
    assert result.returncode == 0 and 'driver = "st7789"' in result.stdout and "[buttons]" in result.stdout


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[sound]\nvoice = "yes"\n', 'sound.voice: unknown value "yes" (choose on, off)'),
        ("[sound]\nvoice = true\n", "sound.voice: unknown value true (choose on, off)"),
        ("[sound]\nrate = 500\n", "sound.rate: must be from 80 to 300, not 500"),
        ('[sound]\nrate = "fast"\n', 'sound.rate: must be a whole number, not "fast"'),
        ("[sound]\nvolume = 150\n", "sound.volume: must be from 0 to 100, not 150"),
        ("[sound]\ndevice = 1\n", "sound.device: must be text in quotes, not 1"),
        (
            '[sound]\ndevice = "my speaker"\n',
            'sound.device: "my speaker" is not an ALSA device name (e.g. "default", "plughw:CARD=Headphones"; aplay -L '
            "lists them)",
        ),
        ('[sound]\nengine = "piper"\n', "sound.engine: unknown key (known here: voice, rate, volume, device)"),
    ],
)
def test_each_bad_sound_setting_is_one_whole_line(tmp_path: Path, text: str, line: str) -> None:
    assert problems(tmp_path, text) == [f"{tmp_path / 'config.toml'}: {line}"]


def test_the_sound_defaults_and_the_devices_people_name_are_valid(tmp_path: Path) -> None:
    assert config.load(search=False)["sound"] == {"voice": "on", "rate": 160, "volume": 80, "device": "default"}
    for device in ("plughw:CARD=Headphones", "default:CARD=vc4hdmi0", "hw:1,0", "null", "plughw:CARD=Device,DEV=0"):
        assert config.load(write(tmp_path, f'[sound]\ndevice = "{device}"\n'))["sound"]["device"] == device
