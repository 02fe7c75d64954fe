"""One companion per state directory (tests/test_one_process.py).

Two processes on one store would both go on with the same unfinished game and fight over its line numbers. The
lock is ``fcntl.flock`` on a file in the state directory: the operating system releases it when the process ends,
however it ends (a crash, SIGKILL, a power cut), so a stale lock never blocks the next start. The file holds the
holder's process id, only so that the second process can say who holds it.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from .files import stamp

LOCK_NAME = "companion.lock"
log = logging.getLogger(__package__)


class Locked(Exception):
    """Another process holds the state directory; ``pid`` is its process id (None if it could not be read)."""

    def __init__(self, directory: Path, pid: int | None) -> None:
        self.directory = directory
        self.pid = pid
        super().__init__(f"{directory} is in use by process {pid if pid is not None else '?'}")


class StateLock:
    """Held from :meth:`acquire` until :meth:`release` or the end of the process."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; raises :class:`Locked` if another process has it. Returns False when the directory cannot
        hold a lock file (a read-only disk: nothing is written there, so two readers cannot harm each other)."""
        if self.path.is_symlink():  # never written through: the file it names would be truncated to a process id
            aside = self.path.with_name(f"{LOCK_NAME}.link-{stamp()}")
            try:
                os.rename(self.path, aside)  # the link itself, kept
            except OSError:
                return False
            log.warning("%s was a symbolic link; the companion does not follow it: moved aside to %s", self.path, aside)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            try:
                fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise Locked(self.directory, pid) from None
        except OSError:  # a file system without locks: go on as before
            os.close(fd)
            return False
        self._fd = fd
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:  # opened read-only: the lock holds all the same
            pass
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
