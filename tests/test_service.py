"""Running as a service (docs/installing.md "A Raspberry Pi, as a service"): the unit file, systemd's notifications,
SIGTERM, the long press that powers off."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.app import App
from companion.cli.common import EXIT_CONFIG
from companion.store import Store
from companion.system import config
from companion.system.notify import Notifier
from hardware.events import EventQueue, InputEvent
from hardware.gpio import GpioButtons
from tests.hardware.test_serial_pads import next_events
from tests.system_tools import need_tool

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "doge-companion.service"


def unit_settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_file_verifies_without_warnings(tmp_path: Path) -> None:
    need_tool("systemd-analyze")
    # verify fails when ExecStart's program does not exist here, so check a copy pointing at this checkout's.
    program = shutil.which("doge-companion") or str(Path(sys.executable).with_name("doge-companion"))
    copy = tmp_path / "doge-companion.service"
    copy.write_text(UNIT.read_text().replace("/opt/doge-companion/.venv/bin/doge-companion", program))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "doge-companion" in line]
    assert warnings == [], "systemd-analyze exits 0 on warnings: none may mention the unit"


def test_the_units_exposure_is_at_most_1_0() -> None:
    need_tool("systemd-analyze")
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(UNIT)], capture_output=True, text=True, timeout=60
    )
    match = re.search(r"Overall exposure level for doge-companion\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout[-500:] + result.stderr
    assert float(match[1]) <= 1.0


NETWORK_UNIT = ROOT / "systemd" / "doge-companion-network.service"


def test_the_network_units_exposure_is_at_most_4_5() -> None:
    """It runs as root and parses a file a person wrote on the card: as narrow as its work allows."""
    need_tool("systemd-analyze")
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(NETWORK_UNIT)], capture_output=True, text=True, timeout=60
    )
    match = re.search(r"Overall exposure level for doge-companion-network\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout[-500:] + result.stderr
    assert float(match[1]) <= 4.5


def test_the_network_unit_verifies_and_may_write_what_it_writes(tmp_path: Path) -> None:
    """Read-only everywhere but where system/network.py writes: the keyfiles, the country's modprobe.d file, the
    kept password and the state file, which outlives the run for the companion to read."""
    need_tool("systemd-analyze")
    from companion.system.hotspot import HOTSPOT_FILE
    from companion.system.keyfiles import CONNECTIONS
    from companion.system.network import COUNTRY_FILE, KEPT

    program = shutil.which("doge-companion") or str(Path(sys.executable).with_name("doge-companion"))
    copy = tmp_path / NETWORK_UNIT.name
    copy.write_text(NETWORK_UNIT.read_text().replace("/opt/doge-companion/.venv/bin/doge-companion", program))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert [line for line in result.stderr.splitlines() if "doge-companion-network" in line] == [], result.stderr
    unit: dict[str, list[str]] = {}
    for line in NETWORK_UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            unit.setdefault(key, []).append(value)
    assert unit["ProtectSystem"] == ["strict"]
    writable = {path.lstrip("-") for path in unit["ReadWritePaths"][0].split()}
    assert writable == {"/" + str(CONNECTIONS), "/" + str(COUNTRY_FILE.parent)}
    assert unit["StateDirectory"] == [KEPT.parent.name] and "/var/lib/" + KEPT.parent.name == "/" + str(KEPT.parent)
    assert unit["RuntimeDirectory"] == [HOTSPOT_FILE.parent.name] and unit["RuntimeDirectoryPreserve"] == ["yes"]
    assert str(HOTSPOT_FILE.parent) == "/run/" + HOTSPOT_FILE.parent.name
    assert set(unit["CapabilityBoundingSet"][0].split()) == {"CAP_CHOWN", "CAP_NET_ADMIN"}


def test_the_unit_still_reaches_gpio_spi_and_serial_and_is_sandboxed() -> None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string(UNIT.read_text())
    settings = unit_settings()
    assert settings["Type"] == ["notify"] and settings["Restart"] == ["on-failure"]
    assert settings["RestartPreventExitStatus"] == [str(EXIT_CONFIG)], "a bad config is not restarted in vain"
    assert int(settings["WatchdogSec"][0]) > 0 and settings["StateDirectory"] == ["doge-companion"]
    assert settings["User"] == ["doge"], "an unprivileged user"
    assert set(settings["SupplementaryGroups"][0].split()) == {"gpio", "spi", "dialout", "audio"}
    allowed = " ".join(settings["DeviceAllow"])
    for device in ("char-gpiochip", "char-spi", "char-ttyACM", "char-ttyUSB", "char-alsa"):
        assert device in allowed
    for line in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert settings[line] == ["yes"]
    assert settings["ProtectSystem"] == ["strict"]
    assert "--config /etc/doge-companion/config.toml" in settings["ExecStart"][0]
    assert parser.get("Install", "WantedBy") == "multi-user.target"


def test_notifier_outside_systemd_does_nothing_and_knows_abstract_sockets() -> None:
    quiet = Notifier({})
    quiet.ready()
    quiet.watchdog()
    assert quiet.socket is None and quiet.watchdog_interval is None
    abstract = Notifier({"NOTIFY_SOCKET": "@doge-test", "WATCHDOG_USEC": "4000000"})
    assert abstract.address == "\0doge-test" and abstract.watchdog_interval == 2.0
    abstract.close()
    other = Notifier({"NOTIFY_SOCKET": "/nowhere", "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"})
    assert other.watchdog_interval is None, "the watchdog is for another process"
    other.ready()  # a socket nobody listens on: no exception
    other.close()


def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f'[game]\nstate_dir = "{tmp_path / "state"}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'
    )
    return path


def test_ready_watchdog_and_stopping_are_sent_and_sigterm_exits_0(tmp_path: Path) -> None:
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(120)  # a hang guard
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config_file(tmp_path)), "--hardware", "mock"],
        cwd=ROOT,
        env={**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "300000"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        messages = [listener.recv(1024).decode()]
        assert messages[0].startswith("READY=1")
        while len(messages) < 5:
            messages.append(listener.recv(1024).decode())
        assert messages[1:5] == ["WATCHDOG=1"] * 4, "pinged from the idle loop"
        # At half the 0.3 s timeout: checked on the interval itself, not on how fast this machine is (no verdict depends
        # on the machine's speed).
        interval = Notifier({"WATCHDOG_USEC": "300000"}).watchdog_interval
        assert interval == 0.15
        process.send_signal(signal.SIGTERM)
        while messages[-1] != "STOPPING=1":
            messages.append(listener.recv(1024).decode())
        _, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr


def test_sigterm_mid_game_leaves_everything_saved_and_resumable(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(path), "--hardware", "mock",
         "--autoplay", "3", "--acks", "--resume"],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    acks = []
    while len(acks) < 40:
        line = process.stdout.readline().decode()
        assert line, "the companion stopped early"
        if line.startswith("ack "):
            acks.append(line.split())
    process.send_signal(signal.SIGTERM)
    # Read on through the same buffered reader: communicate() reads the pipe itself and would miss what readline()
    # had already buffered (under load an ack or two, as a loaded machine showed).
    rest = process.stdout.read()
    process.wait(timeout=600)
    acks += [line.split() for line in rest.decode().splitlines() if line.startswith("ack ")]
    assert process.returncode == 0
    store = Store(tmp_path / "state")
    try:
        game = int(acks[-1][1])
        assert len(store.lines(game)) == max(int(ack[2]) for ack in acks if int(ack[1]) == game)
        assert store.unfinished() == game
    finally:
        store.close()


def test_a_long_press_of_back_means_power_on_real_buttons() -> None:
    settings = config.load(search=False).data
    settings["buttons"]["hold_ms"] = 100
    settings["buttons"]["shutdown_hold_s"] = 1
    factory = MockFactory(pin_class=MockPWMPin)
    events = EventQueue()
    try:
        with GpioButtons(settings, events, factory):
            factory.pin(19).drive_low()
            found = next_events(events, 2)
            factory.pin(19).drive_high()
        assert found == [InputEvent("host", "back", "hold"), InputEvent("host", "power", "hold")]
    finally:
        factory.reset()


def test_power_switches_the_pi_off_after_saying_so(tmp_path: Path) -> None:
    calls: list[str] = []
    data = config.load(config_file(tmp_path)).data
    app = App(config.Settings(data, None), power_off=lambda: calls.append("poweroff"))
    try:
        app.mock = False  # as on the Pi (the hardware itself stays simulated)
        app.step(InputEvent("host", "power", "hold"))
        assert calls == ["poweroff"] and app.stopping
        assert app.screen is not None and "shutdown" in app.screen.tags and "saved" in app.screen.text()
    finally:
        app.close()


def test_on_simulated_hardware_power_only_stops_the_companion(tmp_path: Path) -> None:
    calls: list[str] = []
    app = App(config.load(config_file(tmp_path)), power_off=lambda: calls.append("poweroff"))
    try:
        app.step(InputEvent("host", "power", "hold"))
        assert calls == [] and app.stopping
    finally:
        app.close()
