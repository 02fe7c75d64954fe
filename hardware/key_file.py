"""Input events from a FIFO or a growing file, as they come (``run --keys FILE``, docs/scripted-input.md).

A script plays a whole file and stops; this feeds a running companion (its web pads on, its store its own) one line
at a time, so anyone can reproduce what happens between the host's keys and the phones: ``echo 'host ok' >FIFO``.
Lines are the script's (``<source> <key>``, ``#`` comments); a bad one is one warning naming its line, and skipped.
"""

from __future__ import annotations

import errno
import logging
import os
import selectors
import stat
import threading
from pathlib import Path

from .events import EventQueue, parse_event

log = logging.getLogger(__name__)

POLL_S = 0.2  # a regular file is looked at again this often for more lines (a FIFO wakes the reader itself)
MAX_LINE = 1024  # an event is a few words: a longer line is skipped whole, its start logged clipped
SHOWN = 60  # how much of a skipped line the log repeats


class KeyFile:
    def __init__(self, path: Path, events: EventQueue) -> None:
        """Opens ``path`` (a FIFO is made there if nothing is) and starts reading it; raises OSError."""
        if not path.exists():
            os.mkfifo(path, 0o600)
        self.path = path
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode)):  # a device or a socket would never give lines
            raise OSError(errno.EINVAL, "not a FIFO or a regular file", str(path))
        self.fifo = stat.S_ISFIFO(mode)
        # A FIFO opened for reading and writing never reads an end when a writer closes, and the open never blocks.
        self._fd = os.open(path, (os.O_RDWR if self.fifo else os.O_RDONLY) | os.O_NONBLOCK)
        self._stop_read, self._stop_write = os.pipe()
        self.events = events
        self.number = 0  # lines read so far
        self._waiting: list[bytes] = []  # the line read so far, its newline still to come
        self._held = 0
        self._too_long = False
        self._thread = threading.Thread(target=self._run, name="key file", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self._stop_read, selectors.EVENT_READ)
            if self.fifo:
                selector.register(self._fd, selectors.EVENT_READ)
            while True:
                ready = {key.fd for key, _mask in selector.select(None if self.fifo else POLL_S)}
                if self._stop_read in ready:
                    return
                while chunk := self._read():
                    self._take(chunk)

    def _take(self, chunk: bytes) -> None:
        """Each byte is looked at once (a 10 MB line once took 14 s, split again at every read): what waits
        for its newline is kept only up to MAX_LINE, beyond that only its start, to say it was skipped."""
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            self._add(chunk[start:end])
            line = b"".join(self._waiting)
            self._waiting, self._held = [], 0
            if self._too_long:
                self.number += 1
                log.warning("%s: line %d: longer than any event (%r...), skipped", self.path, self.number,
                            line[:SHOWN].decode("utf-8", "replace"))  # fmt: skip
                self._too_long = False
            else:
                self._line(line.decode("utf-8", "replace"))
            start = end + 1
        self._add(chunk[start:])

    def _add(self, part: bytes) -> None:
        if self._held + len(part) > MAX_LINE:
            self._too_long = True
            part = part[: max(0, SHOWN - self._held)]
        if part:
            self._waiting.append(part)
            self._held += len(part)

    def _read(self) -> bytes:
        try:
            return os.read(self._fd, 4096)
        except BlockingIOError:
            return b""

    def _line(self, line: str) -> None:
        self.number += 1
        content = line.split("#", 1)[0].strip()
        if not content:
            return
        try:
            event = parse_event(content)
        except ValueError as error:
            log.warning("%s: line %d: %s (skipped)", self.path, self.number, error)
            return
        self.events.put(event)

    def close(self) -> None:
        if self._fd < 0:
            return
        os.write(self._stop_write, b"x")
        self._thread.join(timeout=5)
        for descriptor in (self._fd, self._stop_read, self._stop_write):
            os.close(descriptor)
        self._fd = -1
