"""A keypad on a pseudo-terminal, running the firmware's own :class:`PadCore`.

For tests, benchmarks and trying the protocol without a Pico. "Unplugging" closes the terminal, so the host sees what
it sees when a USB cable is pulled (a ``SerialException`` on its next read); "plugging in" makes a new terminal and
points the same path at it, as udev would.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from pathlib import Path

from .firmware.padcore import PadCore


class PtyPad:
    def __init__(self, path: Path, pad_id: str = "d06e0001", layout: str = "keypad", boot: int | None = None) -> None:
        self.path = path
        self.core = PadCore(
            pad_id,
            layout,
            random.randrange(65536) if boot is None else boot,
            self._write,
            lambda: int(time.monotonic() * 1000),
        )
        self._master = -1
        self._slave = -1
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        with self._lock:
            self._master, self._slave = master, slave
        link = self.path.with_suffix(".new")
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(slave))
        link.replace(self.path)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(master, self._stop), daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1

    def press(self, key: str) -> None:
        with self._lock:
            self.core.key(key)

    def send_raw(self, data: bytes) -> None:
        self._write(data)

    def _write(self, data: bytes) -> None:
        with self._lock:
            if self._master >= 0:
                # With nobody at the other end the write fails; the pad keeps the event until acknowledged.
                with contextlib.suppress(OSError):
                    os.write(self._master, data)

    def _serve(self, master: int, stop: threading.Event) -> None:
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            with self._lock:
                if ready:
                    try:
                        data = os.read(master, 1024)
                    except OSError:
                        data = b""
                    if data:
                        self.core.feed(data)
                self.core.tick()

    def close(self) -> None:
        self.unplug()
        self.path.unlink(missing_ok=True)
