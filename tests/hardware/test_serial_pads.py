"""Serial keypads over pyserial's own test doubles: pseudo-terminal pads and loop:// ports."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial
from serial.tools.list_ports_common import ListPortInfo

from hardware.events import EventQueue, InputEvent, PadStatus
from hardware.pty_pad import PtyPad
from hardware.serial_pads import (
    PICO_VID,
    READ_TIMEOUT,
    WRITE_TIMEOUT,
    PadLink,
    PadRegistry,
    SerialPads,
    open_serial,
)


def wait_for(condition: Callable[[], Any], timeout: float = 60.0) -> Any:
    """Until ``condition`` holds; ``timeout`` is a hang guard only, never part of a verdict (the suite's verdicts never
    depend on the machine's speed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out")


def next_events(events: EventQueue, count: int, timeout: float = 60.0) -> list[Any]:
    """The next ``count`` events; ``timeout`` is a hang guard (a short one only where nothing more may come)."""
    found = []
    deadline = time.monotonic() + timeout
    while len(found) < count and time.monotonic() < deadline:
        event = events.get(timeout=0.05)
        if event is not None:
            found.append(event)
    return found


@pytest.fixture
def pad(tmp_path: Path) -> Iterator[PtyPad]:
    pad = PtyPad(tmp_path / "pad1", boot=7)
    yield pad
    pad.close()


@pytest.fixture
def link(pad: PtyPad) -> Iterator[tuple[PadLink, EventQueue]]:
    events = EventQueue()
    link = PadLink(str(pad.path), events, PadRegistry(["2", "3"]), retry=0.05).start()
    assert next_events(events, 1) == [PadStatus("2", True)]
    yield link, events
    link.close()


def test_hello_gives_the_pad_a_number_and_says_it_is_connected(link: tuple[PadLink, EventQueue]) -> None:
    pad_link, _ = link
    assert (pad_link.source, pad_link.layout, pad_link.pad_id, pad_link.boot) == ("2", "keypad", "d06e0001", 7)


def test_keys_become_events_and_are_acknowledged(pad: PtyPad, link: tuple[PadLink, EventQueue]) -> None:
    _, events = link
    for key in ("area:san_marco", "marker:3", "marker:1", "ok", "hold:back"):
        pad.press(key)
    assert next_events(events, 5) == [
        InputEvent("2", "area:san_marco"),
        InputEvent("2", "marker:3"),
        InputEvent("2", "marker:1"),
        InputEvent("2", "ok"),
        InputEvent("2", "back", "hold"),
    ]
    wait_for(lambda: not pad.core.pending)


def test_led_and_beep_commands_reach_the_pad(pad: PtyPad, link: tuple[PadLink, EventQueue]) -> None:
    pad_link, _ = link
    pad_link.led("area:castello", "on")
    pad_link.led("turn", "blink")
    pad_link.beep(80)
    wait_for(lambda: pad.core.leds == {"area:castello": "on", "turn": "blink"})


def test_a_repeated_event_is_delivered_once(pad: PtyPad, link: tuple[PadLink, EventQueue]) -> None:
    pad_link, events = link
    pad.press("ok")
    assert next_events(events, 1) == [InputEvent("2", "ok")]
    pad.send_raw(b"K 0 ok\n")  # as if the acknowledgement had been lost and the pad sent it again
    pad.press("left")
    assert next_events(events, 2, timeout=1) == [InputEvent("2", "left")]
    assert pad_link.repeats == 1


def test_unplug_is_reported_and_replug_reconnects_without_lost_or_doubled_presses(
    pad: PtyPad, link: tuple[PadLink, EventQueue]
) -> None:
    pad_link, events = link
    pad.press("area:dorsoduro")
    assert next_events(events, 1) == [InputEvent("2", "area:dorsoduro")]
    wait_for(lambda: not pad.core.pending)
    pad.unplug()
    assert next_events(events, 1) == [PadStatus("2", False)]
    pad.core.pending.append((0, "area:dorsoduro"))  # an old, already delivered event the pad sends again
    pad.press("marker:2")  # pressed while the link is down: kept by the pad until acknowledged
    pad.press("marker:0")
    pad.plug()
    assert next_events(events, 3) == [
        PadStatus("2", True),
        InputEvent("2", "marker:2"),
        InputEvent("2", "marker:0"),
    ]
    assert next_events(events, 1, timeout=0.8) == [], "nothing doubled, even after the pad's resend interval"
    wait_for(lambda: not pad.core.pending)
    assert pad_link.source == "2"


def test_leds_are_restored_after_a_replug(tmp_path: Path) -> None:
    pad = PtyPad(tmp_path / "pad", boot=1)
    events = EventQueue()
    pads = SerialPads([str(pad.path)], events, ["1"], retry=0.05)
    try:
        assert next_events(events, 1) == [PadStatus("1", True)]
        pads.led("1", "turn", "on")
        wait_for(lambda: pad.core.leds.get("turn") == "on")
        pad.unplug()
        assert next_events(events, 1) == [PadStatus("1", False)]
        pad.core.leds.clear()  # a pad that lost power forgets its LEDs
        pad.plug()
        assert next_events(events, 1) == [PadStatus("1", True)]
        wait_for(lambda: pad.core.leds.get("turn") == "on")
    finally:
        pads.close()
        pad.close()


def test_ports_are_opened_with_a_write_timeout() -> None:
    port = open_serial("loop://")
    try:
        assert port.write_timeout == WRITE_TIMEOUT and port.timeout == READ_TIMEOUT
    finally:
        port.close()


def test_a_pad_that_stops_reading_is_dropped_as_unplugged_and_blocks_no_thread() -> None:
    """Regression: a pad that sends keys but never reads fills its port's buffer with acknowledgements; the reader
    thread then blocked in a write for good (holding the pad's lock), and an LED from the game thread with it."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    events = EventQueue()
    link = PadLink(os.ttyname(slave), events, PadRegistry(["2"]), retry=0.05).start()
    stop = threading.Event()

    def talking_pad() -> None:  # HELLO until heard (opening the port flushes its input), then keys; it never reads
        number = 0
        while not stop.is_set():
            line = b"HELLO doge-pad 1 abc keypad 5\n" if not link.connected else f"K {number % 256} ok\n".encode()
            number += link.connected
            with contextlib.suppress(OSError):
                os.write(master, line * (1 if not link.connected else 50))
            stop.wait(0.002)

    def game_thread() -> None:
        while not stop.is_set():
            link.led("ok", "on")

    threading.Thread(target=talking_pad, daemon=True).start()
    try:
        assert next_events(events, 1) == [PadStatus("2", True)]
        game = threading.Thread(target=game_thread, daemon=True)
        game.start()
        found = []
        while PadStatus("2", False) not in found and (event := next_events(events, 1)):
            found += event
        assert PadStatus("2", False) in found, "dropped as unplugged"
        assert link.dropped >= 1
        stop.set()
        game.join(timeout=60)  # a hang guard: the game thread's LED calls return whatever the pad does
        assert not game.is_alive()
    finally:
        stop.set()
        link.close()
        os.close(master)
        os.close(slave)


def test_garbage_is_counted_never_crashes_and_never_logged_verbatim(
    pad: PtyPad, link: tuple[PadLink, EventQueue], caplog: pytest.LogCaptureFixture
) -> None:
    pad_link, events = link
    caplog.set_level(logging.DEBUG, logger="hardware.serial_pads")
    for junk in (
        b"K 3 area:castel\n",
        b"K 999 ok\n",
        b"HELLO doge-pad 9 x keypad 1\n",
        b"\xff\xfe area:san_polo\n",
        b"x" * 500,
        b"\n",
        b"K 1\n",
    ):
        pad.send_raw(junk)
    pad.send_raw(b"\n")
    pad.press("right")
    assert next_events(events, 1) == [InputEvent("2", "right")]
    assert pad_link.malformed >= 7
    assert "castel" not in caplog.text and "san_polo" not in caplog.text and "area" not in caplog.text


def test_a_pad_whose_keys_come_before_its_hello_is_asked_to_introduce_itself(tmp_path: Path) -> None:
    pad = PtyPad(tmp_path / "pad", boot=3)
    pad.press("ok")  # before the host opens the port: the pad keeps it
    events = EventQueue()
    pad_link = PadLink(str(pad.path), events, PadRegistry(["1"]), retry=0.05).start()
    try:
        assert next_events(events, 2) == [PadStatus("1", True), InputEvent("1", "ok")]
    finally:
        pad_link.close()
        pad.close()


def test_a_new_boot_starts_the_sequence_afresh(tmp_path: Path) -> None:
    registry = PadRegistry(["1"])
    events = EventQueue()
    pad = PtyPad(tmp_path / "pad", boot=10)
    pad_link = PadLink(str(pad.path), events, registry, retry=0.05).start()
    try:
        pad.press("ok")
        assert next_events(events, 2) == [PadStatus("1", True), InputEvent("1", "ok")]
        pad.unplug()
        pad.core = type(pad.core)("d06e0001", "keypad", 11, pad.core._write, pad.core._now)  # powered off and on
        pad.plug()
        pad.press("ok")  # seq 0 again, but a new boot: delivered
        assert next_events(events, 3) == [PadStatus("1", False), PadStatus("1", True), InputEvent("1", "ok")]
    finally:
        pad_link.close()
        pad.close()


def test_loop_url_reads_what_it_is_given_and_counts_its_own_echo(tmp_path: Path) -> None:
    """pyserial's loop:// echoes every write: the host's own commands come back as malformed pad lines."""
    port = serial.serial_for_url("loop://", timeout=0.05)
    events = EventQueue()
    pad_link = PadLink("loop://", events, PadRegistry(["4"]), opener=lambda _: port, retry=0.05).start()
    try:
        wait_for(lambda: pad_link.malformed >= 1)  # its own "?" came back
        port.write(b"HELLO doge-pad 1 abc 3button 5\nK 0 left\nK 1 hold:ok\n")
        assert next_events(events, 3) == [PadStatus("4", True), InputEvent("4", "left"), InputEvent("4", "ok", "hold")]
    finally:
        pad_link.close()


def test_auto_finds_picos_and_follows_a_pad_to_a_new_port(tmp_path: Path) -> None:
    pad = PtyPad(tmp_path / "ttyACM0", pad_id="feed01", boot=2)
    ports = [_pico(str(pad.path)), _other(str(tmp_path / "ttyUSB0"))]
    events = EventQueue()
    pads = SerialPads("auto", events, ["3", "4"], comports=lambda: ports, rescan=0.05, retry=0.05)
    try:
        assert next_events(events, 1) == [PadStatus("3", True)]
        assert set(pads.links) == {str(pad.path)}, "only Picos are opened"
        pad.unplug()
        ports[0] = _pico(str(tmp_path / "ttyACM1"))  # replugged, it comes back under another name
        pad.path = tmp_path / "ttyACM1"
        pad.plug()
        pad.press("ok")
        found = next_events(events, 3)
        assert PadStatus("3", True) in found and InputEvent("3", "ok") in found, "same pad, same number"
        wait_for(lambda: set(pads.links) == {str(tmp_path / "ttyACM1")})
    finally:
        pads.close()
        pad.close()


def _pico(device: str) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = PICO_VID, 0x0005
    return info


def _other(device: str) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = 0x0403, 0x6001
    return info


class ChunkPort:
    """A port that delivers the given reads one by one, then stops its link: no thread, no timing."""

    def __init__(self, link: PadLink, chunks: list[bytes]) -> None:
        self.link = link
        self.chunks = list(chunks)
        self.written: list[bytes] = []

    @property
    def in_waiting(self) -> int:
        return len(self.chunks[0]) if self.chunks else 0

    def read(self, size: int) -> bytes:
        if not self.chunks:
            self.link._stop.set()
            return b""
        return self.chunks.pop(0)

    def write(self, data: bytes) -> None:
        self.written.append(data)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def read_chunks(chunks: list[bytes], clock: FakeClock | None = None) -> tuple[PadLink, list[Any]]:
    events = EventQueue()
    link = PadLink("fake", events, PadRegistry(["2"]), clock=clock or FakeClock())
    port = ChunkPort(link, [b"HELLO doge-pad 1 abc keypad 5\n", *chunks])
    link._port = port
    link._read(port)
    delivered = []
    while (event := events.get(timeout=0)) is not None:
        delivered.append(event)
    return link, delivered


def test_the_tail_of_an_over_long_line_is_never_taken_for_a_key() -> None:
    link, delivered = read_chunks([b"x" * 70, b"K 0 marker:3\nK 1 ok\n"])
    assert delivered == [PadStatus("2", True), InputEvent("2", "ok")], "only the next whole line counts"
    assert link.malformed == 1
    _, split = read_chunks([b"y" * 70, b"zzz", b"zz K 0 marker:3", b"\nK 1 ok\n"])
    assert split == [PadStatus("2", True), InputEvent("2", "ok")]


def test_a_pads_own_reports_are_logged_sanitized_and_short(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hardware.serial_pads")
    read_chunks([b"E bad \x1b[2J\x07 thing " + b"z" * 40 + b"\n"])
    (record,) = caplog.records
    message = record.getMessage()
    assert "\x1b" not in message and "\x07" not in message and "bad ?[2J? thing" in message
    assert "z" * 40 not in message and len(message) < 100


def test_at_most_one_warning_per_pad_per_minute_with_a_count(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hardware.serial_pads")
    clock = FakeClock()
    events = EventQueue()
    link = PadLink("fake", events, PadRegistry(["2"]), clock=clock)
    for _minute in range(3):
        port = ChunkPort(link, [b"HELLO doge-pad 1 abc keypad 5\n", b"garbage\n" * 1000, b"q" * (1 << 20)])
        link._stop.clear()
        link._read(port)
        clock.now += 61
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 3, messages
    assert "(and 1000 more warnings in the last minute)" in messages[1]
    assert link.malformed == 3 * 1001
