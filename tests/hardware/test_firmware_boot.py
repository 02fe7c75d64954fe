"""The keypad firmware's own main.py, run as on the Pico, against the host over a pseudo-terminal.

CPython stands in for MicroPython with ``tests/hardware/pico`` (``machine`` and ``micropython`` stand-ins, and
``time.ticks_*`` plus an unbuffered stdin, as on the Pico). main.py and padcore.py run unchanged, their stdin and
stdout the far end of a pseudo-terminal whose near end the host's real :class:`PadLink` opens, as it opens
/dev/ttyACM0. Keys are pressed by rewriting the pin levels the ``machine`` stand-in reads.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import EventQueue, InputEvent, PadStatus
from hardware.serial_pads import PadLink, PadRegistry
from tests.hardware.test_serial_pads import next_events

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
STUBS = Path(__file__).with_name("pico")


class Pico:
    def __init__(self, folder: Path, levels: dict[int, int]) -> None:
        self.pins = folder / "pins.json"
        self.set(levels)
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        env = {**os.environ, "PYTHONPATH": f"{STUBS}{os.pathsep}{FIRMWARE}", "PICO_PINS": str(self.pins)}
        self.process = subprocess.Popen(
            [sys.executable, "-u", str(FIRMWARE / "main.py")], stdin=self.master, stdout=self.master,
            stderr=subprocess.PIPE, env=env, cwd=folder,
        )  # fmt: skip

    def set(self, levels: dict[int, int]) -> None:
        partial = self.pins.with_suffix(".new")
        partial.write_text(json.dumps(levels))
        partial.replace(self.pins)

    def send(self, data: bytes) -> None:
        """Bytes from the host, as mpremote would send them."""
        os.write(self.slave, data)

    def output_until_exit(self, timeout: float = 10) -> bytes:
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.slave], [], [], 0.05)
            if ready:
                data += os.read(self.slave, 1024)
            elif self.process.poll() is not None:
                break
        return data

    def close(self) -> str:
        if self.master < 0:
            return ""
        self.process.kill()
        _, stderr = self.process.communicate(timeout=10)
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = -1
        return stderr.decode()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Pico]:
    pico = Pico(tmp_path, {})
    yield pico
    pico.close()


def test_a_key_press_reaches_the_host_and_ctrl_c_cannot_stop_a_running_pad(running: Pico) -> None:
    events = EventQueue()
    link = PadLink(running.path, events, PadRegistry(["2", "3"]), retry=0.05).start()
    try:
        assert next_events(events, 1, timeout=10) == [PadStatus("2", True)], "HELLO after the boot window"
        running.set({2: 0})  # GP2: Cannaregio
        assert next_events(events, 1) == [InputEvent("2", "area:cannaregio")]
        running.set({})
        time.sleep(0.1)
        running.send(b"\r\x03\r\x03")  # mpremote's interrupt, after the boot window: ignored
        running.set({13: 0})  # ok
        assert next_events(events, 1) == [InputEvent("2", "ok")]
        assert running.process.poll() is None
    finally:
        link.close()
    assert "kbd_intr -1" in running.close()


def test_back_held_at_power_up_leaves_the_repl_free(tmp_path: Path) -> None:
    pico = Pico(tmp_path, {14: 0})
    output = pico.output_until_exit()
    assert pico.process.wait(timeout=10) == 0, "main.py ends: MicroPython's REPL takes over"
    stderr = pico.close()
    assert output == b"E maintenance: key held at power-up; firmware stopped, REPL free\n"
    assert "kbd_intr -1" not in stderr and "pin LED 1" in stderr, "Ctrl-C still works; the LED says so"


def test_ctrl_c_within_the_boot_window_leaves_the_repl_free(tmp_path: Path) -> None:
    pico = Pico(tmp_path, {})
    pico.send(b"?\n\r\x03")  # the host's hello request, then mpremote's Ctrl-C
    output = pico.output_until_exit()
    assert pico.process.wait(timeout=10) == 0
    stderr = pico.close()
    assert output == b"E maintenance: Ctrl-C at power-up; firmware stopped, REPL free\n"
    assert "kbd_intr -1" not in stderr
