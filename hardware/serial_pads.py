"""USB-serial keypads, host side (docs/pad-protocol.md).

Each pad has a reader thread that opens its port, reads lines, turns key lines into events on the queue and
reopens the port after an unplug. Nothing a pad sends is ever logged verbatim: a key line, even a garbled one, can
name the area a player is choosing in secret (rules.md 11). A pad's own `E` report is logged sanitized and short, and
a pad that sends garbage gets at most one warning a minute, with a count: a broken pad must not fill the disk.

What goes to a pad (acknowledgements, LEDs, beeps) is queued and written by the link's own writer thread, with a
write timeout and outside any lock: a pad that stops reading fills its port's buffer, its next write times out, and
it is dropped as if unplugged (and opened again later). Neither the reader thread nor the game thread ever waits
for a pad (tests/hardware/test_serial_pads.py).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from .events import EventQueue, InputEvent, PadStatus, is_key

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
LINE_LIMIT = 64
READ_TIMEOUT = 0.25  # how long a read waits before the thread checks whether it should stop
WRITE_TIMEOUT = 0.5  # a write that cannot finish in this: the pad stopped reading, and is dropped as unplugged
OUTBOX_LIMIT = 256  # commands waiting for the writer; more than this means the pad stopped reading
WARN_EVERY_S = 60.0  # at most one warning per pad in this time; the ones held back are counted in the next
REPORT_LIMIT = 48  # characters of a pad's own E report that reach the log
_HELLO = re.compile(r"HELLO doge-pad 1 ([0-9a-f]{1,32}) (keypad|3button) ([0-9]{1,5})\Z")
_KEY = re.compile(r"K ([0-9]{1,3}) (hold:)?(\S+)\Z")

Opener = Callable[[str], Any]


def open_serial(port: str) -> Any:
    import serial

    return serial.serial_for_url(port, baudrate=115200, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT)


class PadRegistry:
    """What all links share: which pad number each pad id has, and the last event each pad delivered."""

    def __init__(self, numbers: Iterable[str]) -> None:
        self._free = list(numbers)
        self._numbers: dict[str, str] = {}
        self.last_seq: dict[tuple[str, int], int] = {}
        self.leds: dict[str, dict[str, str]] = {}  # per pad number, restored when the pad comes back
        self.lock = threading.Lock()

    def number(self, pad_id: str) -> str | None:
        """The pad number (source) of a pad: the same for the whole session, across unplugging."""
        with self.lock:
            if pad_id not in self._numbers:
                if not self._free:
                    return None
                self._numbers[pad_id] = self._free.pop(0)
            return self._numbers[pad_id]


class PadLink:
    """One serial port with (perhaps) a Doge keypad on it."""

    def __init__(
        self,
        port: str,
        events: EventQueue,
        registry: PadRegistry,
        opener: Opener = open_serial,
        retry: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port_name = port
        self.source: str | None = None
        self.pad_id: str | None = None
        self.boot: int | None = None
        self.layout: str | None = None
        self.connected = False
        self.malformed = 0
        self.repeats = 0
        self.lost = 0
        self._events = events
        self._registry = registry
        self._opener = opener
        self._retry = retry
        self._clock = clock
        self._warned_at: float | None = None
        self._held_back = 0
        self.dropped = 0  # times the pad stopped reading and was dropped
        self._port: Any = None
        self._stuck: Any = None  # the port found not reading: the reader thread lets go of it
        self._write_lock = threading.Lock()  # guards _port and _stuck only; never held while writing
        self._outbox: queue.Queue[tuple[Any, bytes]] = queue.Queue(OUTBOX_LIMIT)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"pad {port}", daemon=True)
        self._writer = threading.Thread(target=self._write_forever, name=f"pad {port} writer", daemon=True)

    def start(self) -> PadLink:
        self._thread.start()
        self._writer.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._writer.join(timeout=5)

    # ------------------------------------------------------------------ commands (any thread)

    def led(self, target: str, state: str) -> None:
        """Never logged: an LED may echo the player's secret choice on their own pad."""
        self._send(f"L {target} {state}")

    def beep(self, ms: int) -> None:
        self._send(f"B {max(1, min(2000, ms))}")

    def _send(self, text: str) -> None:
        """Queued for the writer thread: returns at once, whatever the pad does."""
        with self._write_lock:
            port = self._port
            if port is None or port is self._stuck:
                return
        try:
            self._outbox.put_nowait((port, text.encode() + b"\n"))
        except queue.Full:
            self._drop(port)

    # ------------------------------------------------------------------ writer thread

    def _write_forever(self) -> None:
        from serial import SerialTimeoutException

        while not self._stop.is_set():
            try:
                port, data = self._outbox.get(timeout=READ_TIMEOUT)
            except queue.Empty:
                continue
            with self._write_lock:
                if port is not self._port or port is self._stuck:
                    continue  # queued for a port since lost
            try:
                port.write(data)  # bounded by the port's write timeout
            except SerialTimeoutException:
                self._drop(port)
            except Exception:  # unplugged: the reader thread sees it and reports it
                continue

    def _drop(self, port: Any) -> None:
        """The pad stopped reading: the reader thread lets go of the port as if it had been unplugged."""
        with self._write_lock:
            if port is not self._port or port is self._stuck:
                return
            self._stuck = port
        self.dropped += 1
        self._warn("stopped reading what is sent to it; treated as unplugged")

    # ------------------------------------------------------------------ reader thread

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = self._opener(self.port_name)
            except Exception:  # a missing or busy port: try again later
                self._stop.wait(self._retry)
                continue
            with self._write_lock:
                self._port = port
                self._stuck = None
            try:
                self._send("?")
                self._read(port)
            except Exception as error:  # unplugging raises SerialException or OSError
                log.info("pad %s: link lost (%s)", self.source or self.port_name, type(error).__name__)
            finally:
                with self._write_lock:
                    self._port = None
                with contextlib.suppress(queue.Empty):  # what was queued for the lost port is not for the next one
                    while True:
                        self._outbox.get_nowait()
                try:
                    port.close()
                except Exception:
                    log.debug("pad %s: closing a lost port failed", self.port_name)
                if self.connected:
                    self.connected = False
                    if self.source is not None:
                        self._events.put(PadStatus(self.source, False))
            self._stop.wait(self._retry)

    def _read(self, port: Any) -> None:
        buffer = b""
        skipping = False  # after an over-long line: everything up to its newline belongs to it
        while not self._stop.is_set():
            if port is self._stuck:
                raise ConnectionError("the pad stopped reading")
            data = port.read(max(1, port.in_waiting))
            if not data:
                continue
            buffer += data
            if skipping:
                if b"\n" not in buffer:
                    buffer = b""
                    continue
                buffer = buffer.split(b"\n", 1)[1]
                skipping = False
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self._handle(line.rstrip(b"\r"))
            if len(buffer) > LINE_LIMIT:
                buffer = b""
                skipping = True
                self._malformed(LINE_LIMIT + 1)

    def _warn(self, message: str, *args: Any) -> None:
        """A warning about this pad, at most one per WARN_EVERY_S; the next one says how many were held back."""
        now = self._clock()
        if self._warned_at is not None and now - self._warned_at < WARN_EVERY_S:
            self._held_back += 1
            return
        if self._held_back:
            message += " (and %d more warnings in the last minute)"
            args = (*args, self._held_back)
        self._warned_at = now
        self._held_back = 0
        log.warning("pad %s: " + message, self.source or self.port_name, *args)

    def _malformed(self, length: int) -> None:
        self.malformed += 1
        self._warn("ignored a malformed line of %d bytes", length)

    def _handle(self, raw: bytes) -> None:
        if len(raw) > LINE_LIMIT or not raw.isascii():
            self._malformed(len(raw))
            return
        text = raw.decode("ascii")
        if text.startswith("K "):
            self._key(text, len(raw))
        elif text.startswith("HELLO "):
            self._hello(text, len(raw))
        elif text.startswith("E "):
            report = "".join(c if " " <= c <= "~" else "?" for c in text[2:].strip())[:REPORT_LIMIT]
            self._warn("reports a problem: %s", report)
        else:
            self._malformed(len(raw))

    def _hello(self, text: str, length: int) -> None:
        match = _HELLO.match(text)
        if match is None or int(match[3]) > 65535:
            self._malformed(length)
            return
        self.pad_id, self.layout, self.boot = match[1], match[2], int(match[3])
        self.source = self._registry.number(self.pad_id)
        if self.source is None:
            log.warning("a fifth pad (%s) was plugged in: only 4 are used", self.pad_id)
            return
        if not self.connected:
            self.connected = True
            self._events.put(PadStatus(self.source, True))
            log.info("pad %s connected (%s, %s)", self.source, self.layout, self.port_name)
        with self._registry.lock:
            restore = list(self._registry.leds.get(self.source, {}).items())
        for target, state in restore:
            self._send(f"L {target} {state}")

    def _key(self, text: str, length: int) -> None:
        match = _KEY.match(text)
        if match is None or int(match[1]) > 255 or not is_key(match[3]):
            self._malformed(length)
            return
        if self.source is None or self.pad_id is None or self.boot is None:
            self._send("?")  # keys before HELLO: the pad resends them after its HELLO, unacknowledged
            return
        seq = int(match[1])
        self._send(f"A {seq}")
        key = (self.pad_id, self.boot)
        with self._registry.lock:
            last = self._registry.last_seq.get(key)
            ahead = 1 if last is None else (seq - last) % 256
            if not 1 <= ahead <= 127:
                self.repeats += 1
                return
            self._registry.last_seq[key] = seq
        if ahead > 1:
            self.lost += ahead - 1
            self._warn("dropped %d key presses (more than it could keep)", ahead - 1)
        self._events.put(InputEvent(self.source, match[3], "hold" if match[2] else "press"))


class SerialPads:
    """Every serial pad: the ports listed in the config, or every Pico found (rescanned while running)."""

    def __init__(
        self,
        setting: str | list[str],
        events: EventQueue,
        numbers: Iterable[str],
        opener: Opener = open_serial,
        comports: Callable[[], Iterable[Any]] | None = None,
        rescan: float = 2.0,
        retry: float = 1.0,
    ) -> None:
        self.registry = PadRegistry(numbers)
        self.links: dict[str, PadLink] = {}
        self._events = events
        self._opener = opener
        self._retry = retry
        self._stop = threading.Event()
        self._scanner: threading.Thread | None = None
        if isinstance(setting, list):
            for port in setting:
                self._link(port)
        elif setting == "auto":
            if comports is None:
                from serial.tools import list_ports

                comports = list_ports.comports
            self._comports = comports
            self._rescan = rescan
            self.scan()
            self._scanner = threading.Thread(target=self._scan_forever, name="pad scanner", daemon=True)
            self._scanner.start()

    def _link(self, port: str) -> None:
        self.links[port] = PadLink(port, self._events, self.registry, self._opener, self._retry).start()

    def scan(self) -> None:
        """Open every Pico not yet open; let go of ports that disappeared (a replugged pad comes back elsewhere)."""
        present = {info.device for info in self._comports() if getattr(info, "vid", None) == PICO_VID}
        for port in present - set(self.links):
            self._link(port)
        for port in set(self.links) - present:
            self.links.pop(port).close()

    def _scan_forever(self) -> None:
        while not self._stop.wait(self._rescan):
            try:
                self.scan()
            except Exception:  # listing ports can fail while USB re-enumerates
                log.debug("pad scan failed; trying again", exc_info=True)

    def by_source(self, source: str) -> PadLink | None:
        return next((link for link in self.links.values() if link.source == source and link.connected), None)

    def led(self, source: str, target: str, state: str) -> None:
        """Set an LED on a pad; remembered, and set again when the pad comes back after an unplug."""
        with self.registry.lock:
            leds = self.registry.leds.setdefault(source, {})
            if target == "all":
                leds.update(dict.fromkeys(leds, state))
            else:
                leds[target] = state
        link = self.by_source(source)
        if link is not None:
            link.led(target, state)

    def beep(self, source: str, ms: int = 80) -> None:
        link = self.by_source(source)
        if link is not None:
            link.beep(ms)

    def close(self) -> None:
        self._stop.set()
        if self._scanner is not None:
            self._scanner.join(timeout=5)
        for link in self.links.values():
            link.close()
        self.links.clear()
