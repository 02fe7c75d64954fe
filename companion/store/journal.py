"""The second copy of every acknowledged event: an append-only text file beside the SQLite store.

One entry a line, the same bytes as SQLite's ``entries`` row of it (entries.py: an order number, a CRC-32). The
journal is the commit point: a press is acknowledged once its entries are written and fsynced (the one fsync of a
press; SQLite commits right after it with ``synchronous=NORMAL``, unsynced). Which copy holds what when they differ,
and how each is repaired, is :mod:`.reconcile`'s.

The file ends in a tail of zeros written (and synced) ahead of the entries, :data:`ROOM` at a time: an entry is
written over zeros already on the card, so the file's size and its blocks do not change and the press's
``fdatasync`` writes the entry's own block, not ext4's journal as well (tests/test_store_journal.py). The entries end
where the zeros begin; a write torn by a power cut leaves part of an entry before zeros, which reads as an entry cut
short, as at the end of a file.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from .entries import Entry, decode

NAME = "games.journal"
MAX_JOURNAL = 512 * 1024 * 1024  # a journal longer than any evening's could write is read no further
ROOM = 64 * 1024  # zeros written ahead at a time: some 300 presses' entries, one sync of 16 blocks to make


@dataclass
class Copy:
    """What the journal holds: each entry that reads whole, by order number, and where it does not."""

    entries: dict[int, Entry] = field(default_factory=dict)
    raw: dict[int, bytes] = field(default_factory=dict)  # each entry's line, as written
    damaged: list[tuple[int, int]] = field(default_factory=list)  # (after, before): order numbers around bad bytes
    torn: bool = False  # the last entry is cut short (a write the power cut: never acknowledged, or a lost tail)
    legacy: bool = False  # entries of the journal from before order numbers (a store of the previous version)
    size: int = 0
    lines: list[bytes] = field(default_factory=list)  # every entry's line, for a journal of the previous version

    def damaged_at(self, order: int) -> bool:
        """Whether ORDER lies where bytes of the journal did not read (between the good entries around them)."""
        return any(after < order < before for after, before in self.damaged)


def read(path: Path) -> Copy | None:
    """The journal at PATH read without trusting it (None if there is none): every entry that reads, in any order;
    past a bad one the reader goes on at the next newline (each entry ends in one), so damage costs only the entries
    it touched, and their order numbers are known from the good ones around them."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_JOURNAL + 1)
    except OSError:  # none, or not ours to read (a read-only disk's other user): SQLite alone is read
        return None
    copy = Copy(size=len(data))
    data = data[:MAX_JOURNAL].rstrip(b"\0")  # the tail written ahead: no entry ends in a zero byte
    last, bad = 0, False
    chunks = data.split(b"\n")
    for number, raw in enumerate(chunks, 1):
        if not raw.strip(b"\0"):
            continue
        value = decode(raw)
        if value is None and raw.startswith(b"\0"):  # a zeroed block that ended where an entry begins
            value = decode(raw.lstrip(b"\0"))
            bad = bad or value is not None
        if value is None:
            if number == len(chunks):
                copy.torn = True
            elif _legacy(raw):
                copy.legacy = True
                copy.lines.append(raw)
            else:
                bad = True
            continue
        order = value["o"]
        if bad:
            copy.damaged.append((last, order))
            bad = False
        if order not in copy.entries:  # a stale block written again repeats entries already read
            copy.entries[order] = value
            copy.raw[order] = raw + b"\n"
        last = max(last, order)
    if bad:
        copy.damaged.append((last, 1 << 62))
    return copy


def _legacy(raw: bytes) -> bool:
    try:
        return int(raw[:8], 16) == zlib.crc32(raw[9:]) and b'"o":' not in raw[9:]
    except ValueError:
        return False


class Journal:
    """The journal open for appending; each :meth:`write` is on disk (fsynced) when it returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            self._size = os.fstat(self._fd).st_size
            self._end = _entries_end(self._fd, self._size)
        except OSError:
            self.close()
            raise
        with suppress(OSError):  # a full disk: the entries are written as they come, or their write says so
            self.make_room()

    def make_room(self) -> None:
        """Zeros written and synced ahead of the entries when fewer than half of :data:`ROOM` are left: at open and
        when the game is idle (:meth:`Store.idle`), so that a press finds them there. Raises OSError."""
        if self._size - self._end < ROOM // 2:
            self._grow(self._end + ROOM)
            os.fsync(self._fd)

    def _grow(self, size: int) -> None:
        """Zeros from the file's end to SIZE, rounded up to a block (written, not fallocated: an extent fallocate
        leaves unwritten is converted on its first write, a change of metadata that ext4's journal commits)."""
        size = -(-size // 4096) * 4096
        _write_at(self._fd, bytes(size - self._size), self._size)
        self._size = size

    def write(self, data: bytes) -> int:
        """Writes DATA after the last entry and syncs it; returns where it began, to :meth:`cut` back to. Raises
        OSError. Past the zeros written ahead (no idle moment made room), the file grows by :data:`ROOM` in the
        same sync."""
        before = self._end
        self._end = before + len(data)  # what a failed write may have left there, for cut to zero
        try:
            if self._end > self._size:
                self._grow(self._end + ROOM)
            _write_at(self._fd, data, before)
            os.fdatasync(self._fd)
        except OSError:
            self.cut(before)
            raise
        return before

    def cut(self, end: int) -> None:
        """Back to END: SQLite refused what was just written, so it was never acknowledged: zeros over it."""
        try:
            _write_at(self._fd, bytes(max(0, min(self._end, self._size) - end)), end)
            os.fdatasync(self._fd)
        except OSError:
            pass  # the next start finds the journal longer than SQLite and says so
        self._end = end

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _entries_end(fd: int, size: int) -> int:
    """Where the zeros at the end of the file begin (the file's size when there are none)."""
    end = size
    while end > 0:
        start = max(0, end - ROOM)
        kept = os.pread(fd, end - start, start).rstrip(b"\0")
        if kept:
            return start + len(kept)
        end = start
    return 0


def _write_at(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        written = os.pwrite(fd, view, offset)
        view, offset = view[written:], offset + written


def rewrite(path: Path, entries: Iterable[bytes]) -> None:
    """The journal made anew from ENTRIES (the reconciled union): written beside, synced, then renamed over it."""
    fresh = path.with_name(path.name + ".new")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(b"".join(entries))
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(fresh, path)
    directory = os.open(path.parent, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
