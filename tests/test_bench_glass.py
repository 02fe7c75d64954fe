"""``bench glass`` (docs/installing.md's checklist): a real panel's press to glass, wall clock. Here its LCD branch runs
over stand-ins for spidev and RPi.GPIO (the modules luma imports on a Pi), so the path a Pi takes is the one tested; its
figures are this machine's and judge nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SPIDEV = """
import atexit, os
from display.wiretap import Wire

class SpiDev(Wire):
    def __init__(self):
        super().__init__(dc_pin=24, bufsiz=65536)
        atexit.register(lambda: open(os.environ["FAKE_SPI_LOG"], "w").write(f"{self.bytes} {self.transfers}"))
"""
GPIO = """
from display.wiretap import Wire
_pins = Wire(dc_pin=24)
BCM, OUT, IN, HIGH, LOW = Wire.BCM, Wire.OUT, Wire.IN, Wire.HIGH, Wire.LOW
setmode, setwarnings, setup = _pins.setmode, _pins.setwarnings, _pins.setup
output, cleanup = _pins.output, _pins.cleanup
"""
CONFIG = """hardware = "pi"
[display]
driver = "ili9341"
[pads]
serial = "off"
[sound]
voice = "off"
"""


def test_bench_glass_drives_the_configured_lcd_and_times_each_press(tmp_path: Path) -> None:
    stand_ins = tmp_path / "stand-ins"
    (stand_ins / "RPi").mkdir(parents=True)
    (stand_ins / "spidev.py").write_text(SPIDEV)
    (stand_ins / "RPi" / "__init__.py").write_text("")
    (stand_ins / "RPi" / "GPIO.py").write_text(GPIO)
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    work = tmp_path / "work"  # the store goes in a folder of its own here, and is gone afterwards
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": f"{stand_ins}{os.pathsep}{ROOT}", "DOGE_CARD_FILE": ""}

    def glass(presses: int) -> tuple[subprocess.CompletedProcess[str], list[int]]:
        log = tmp_path / f"spi-{presses}.log"
        result = subprocess.run(
            [sys.executable, "-m", "benchmarks.glass", "--config", str(config), "--presses", str(presses)],
            cwd=work, env={**env, "FAKE_SPI_LOG": str(log)}, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=600,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
        return result, [int(number) for number in log.read_text().split()]

    _start, (start_bytes, start_transfers) = glass(0)  # luma's start-up and the first frame alone
    result, (sent, transfers) = glass(60)
    first, figures = result.stdout.splitlines()[:2]
    assert "ili9341 at 50 MHz asked" in first, first
    frames, presses = (int(word) for word in first.split(": ")[-1].split()[::3][:2])
    assert presses == 60 and 0 < frames <= presses, first
    found = re.search(r"p50 +([\d.]+) p99 +([\d.]+) max +([\d.]+) (PASS|FAIL) ", figures)
    assert found is not None, figures
    p50, p99, most = (float(found[n]) for n in (1, 2, 3))
    assert 0 < p50 <= p99 <= most, figures
    assert sent > start_bytes and transfers >= start_transfers + 4 * frames, "each timed frame went over the bus"
    assert list(work.iterdir()) == [], "the store's folder was removed"


def test_the_companion_installed_in_the_venv_runs_before_the_checkouts_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a Pi, ``python -m benchmarks.glass`` from the checkout would import the checkout's plain companion first;
    the installed wheel (its engine compiled) is the one the service runs."""
    from benchmarks import glass

    site = tmp_path / "site-packages"
    (site / "companion").mkdir(parents=True)
    (site / "companion" / "__init__.py").write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", str(glass.CHECKOUT), str(site)])
    glass.installed_first()
    assert sys.path == [str(site), "", str(glass.CHECKOUT)]
    monkeypatch.setattr(sys, "path", ["", str(glass.CHECKOUT), str(tmp_path / "nothing-installed")])
    glass.installed_first()
    assert sys.path == ["", str(glass.CHECKOUT), str(tmp_path / "nothing-installed")], "no install: as it was"
