"""The program starts on simulated hardware and reaches its first screen; the whole input path works."""

from __future__ import annotations

import copy
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from companion.app import App
from companion.system import config
from tests.hardware.test_serial_pads import wait_for
from tests.helpers import game_thread

ROOT = Path(__file__).resolve().parents[1]


def write_config(tmp_path: Path, extra: str = "", serial: str = '"off"') -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'hardware = "mock"\n[pads]\nserial = {serial}\n' + extra)
    return path


@contextmanager
def running(app: App, factory: MockFactory) -> Iterator[App]:
    """The app's game thread running in the background (:func:`game_thread`); the mock pins reset afterwards."""
    try:
        with game_thread(app):
            yield app
    finally:
        factory.reset()


def test_run_with_mock_hardware_reaches_the_first_screen_and_stops_cleanly(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "run",
            "--config",
            str(write_config(tmp_path)),
            "--screenshots",
            str(shots),
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        first = wait_for(lambda: (shots / "frame-00001.png").exists() and shots / "frame-00001.png", timeout=120)
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr
    assert b"waiting for input" in stderr and b"--script" in stderr and b"--autoplay" in stderr, stderr
    image = Image.open(first)
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert image.size == (320, 240) and len(colours) > 2, "a drawn screen, not a blank one"
    last = sorted(shots.iterdir())[-1]
    assert Image.open(last).getcolors() == [(320 * 240, (0, 0, 0))], "the screen is blanked on the way out"


def test_a_pad_button_press_reaches_the_screen(tmp_path: Path) -> None:
    extra = "[[pads.gpio]]\nleft = 17\nright = 27\nok = 22\n"
    settings = config.load(write_config(tmp_path, extra))
    settings.data["pads"]["hold_ms"] = 2000
    factory = MockFactory(pin_class=MockPWMPin)
    with running(App(settings, pin_factory=factory), factory) as app:
        wait_for(lambda: app.screen is not None)
        factory.pin(22).drive_low()
        factory.pin(22).drive_high()
        wait_for(lambda: app.display.frames >= 2)
        assert app.screen is not None and "Red: pad 1" in app.screen.text()


def test_real_hardware_off_pi_is_a_clear_one_line_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(write_config(tmp_path)), "--hardware", "pi"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "cannot start the hardware" in result.stderr and 'hardware = "mock"' in result.stderr


def test_run_with_a_bad_config_says_what_to_fix(tmp_path: Path) -> None:
    path = write_config(tmp_path, "[display]\nrotate = 7\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 78 and "display.rotate" in result.stderr and "check-config" in result.stderr


def test_settings_are_not_shared_between_loads() -> None:
    first = config.load(search=False)
    first.data["pads"]["hold_ms"] = 1
    assert config.load(search=False)["pads"]["hold_ms"] != 1
    assert copy.deepcopy(first.data)["pads"]["hold_ms"] == 1


def test_an_unplugged_pad_is_reported_on_the_screen(tmp_path: Path) -> None:
    from hardware.pty_pad import PtyPad

    pad = PtyPad(tmp_path / "pad", boot=5)
    settings = config.load(write_config(tmp_path, serial=f'["{pad.path}"]'))
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        with running(App(settings, pin_factory=factory), factory) as app:
            wait_for(lambda: app.screen is not None and "Pad 1: ok to join" in app.screen.text())
            pad.unplug()
            wait_for(lambda: app.screen is not None and "Pad 1 is unplugged" in app.screen.text())
            pad.plug()
            wait_for(lambda: app.screen is not None and "Pad 1: ok to join" in app.screen.text())
            assert "unplugged" not in app.screen.text()
    finally:
        pad.close()


def test_the_text_size_setting_reaches_the_panel_and_the_paging(tmp_path: Path) -> None:
    """``[display] text_size = "large"`` draws the same screen larger, and cuts long screens by the same
    measure the panel shows them with."""
    images = {}
    for text_size in ("normal", "large"):
        extra = f'[display]\ndriver = "capture"\nwidth = 160\nheight = 128\ntext_size = "{text_size}"\n'
        app = App(config.load(write_config(tmp_path, extra)))
        try:
            app.show(app.controller.screen())
            assert app.controller.parts.text_size == text_size and app.display.size == (160, 128)
            images[text_size] = app.display.last_image
        finally:
            app.close()
    normal, large = images["normal"], images["large"]
    assert normal is not None and large is not None and normal.tobytes() != large.tobytes()
