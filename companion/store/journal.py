"""The second copy of every acknowledged line (issue 42): an append-only text file beside the SQLite store.

One entry a line, ``<crc32> <json>``: the checksum is of the JSON's bytes, so a flipped bit, a torn end or a line
cut short shows. An entry is one record line (``{"g": game, "n": number, "text": line}``; the last of a press may
carry the game's summary, ``"s"``), or an undo (``{"g": game, "keep": lines}``), or a change of status alone. The
journal is the commit point: a press is acknowledged once its entries are written and fsynced (the one fsync of a
press; SQLite commits right after it with ``synchronous=NORMAL``, unsynced). Which copy wins when they differ, and
how each is repaired, is :mod:`.reconcile`'s.

The file ends in a tail of zeros written (and synced) ahead of the entries, :data:`ROOM` at a time: an entry is
written over zeros already on the card, so the file's size and its blocks do not change and the press's
``fdatasync`` writes the entry's own block, not ext4's journal as well (issue 44). The entries end where the zeros
begin; a write torn by a power cut leaves part of an entry before zeros, which reads as an entry cut short, as at
the end of a file.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAME = "games.journal"
MAX_ENTRY = 256 * 1024  # a record line is under a kilobyte; an entry longer than this is damage
MAX_JOURNAL = 512 * 1024 * 1024  # a journal longer than any evening's could write is read no further
ROOM = 64 * 1024  # zeros written ahead at a time: some 300 presses' entries, one sync of 16 blocks to make


def entry(game: int, **fields: Any) -> bytes:
    body = json.dumps({"g": game, **fields}, separators=(",", ":"), ensure_ascii=False).encode()
    return b"%08x %s\n" % (zlib.crc32(body), body)


def line_entries(game: int, first: int, lines: list[str], summary: Mapping[str, Any] | None) -> bytes:
    """Record lines FIRST, FIRST + 1... of GAME; the last carries the summary (status, year, winners)."""
    parts = []
    for i, text in enumerate(lines):
        extra = {"s": dict(summary)} if summary and i == len(lines) - 1 else {}
        parts.append(entry(game, n=first + i, text=text, **extra))
    return b"".join(parts)


@dataclass
class History:
    """What the journal says: each game's lines and summary, and whether all of it could be read."""

    lines: dict[int, list[str]] = field(default_factory=dict)
    summaries: dict[int, dict[str, Any]] = field(default_factory=dict)
    damage: str | None = None  # why it cannot be trusted whole (the first bad entry), None if every entry read
    size: int = 0

    def _apply(self, value: Any) -> bool:
        if type(value) is not dict or type(value.get("g")) is not int or value["g"] < 1:
            return False
        game = value["g"]
        lines = self.lines.setdefault(game, [])
        if "n" in value:
            number, text = value["n"], value.get("text")
            if type(number) is not int or type(text) is not str or not 1 <= number <= len(lines) + 1:
                return False
            del lines[number - 1 :]
            lines.append(text)
        elif "keep" in value:
            keep = value["keep"]
            if type(keep) is not int or not 0 <= keep <= len(lines):
                return False
            del lines[keep:]
        summary = value.get("s")
        if summary is not None:
            if type(summary) is not dict:
                return False
            self.summaries.setdefault(game, {}).update(summary)
        return True


def read(path: Path) -> History | None:
    """The journal at PATH read without trusting it (None if there is none): every entry up to the end, a bad one
    skipped and remembered in ``damage`` (the entries after it are still read: a flipped bit costs one line)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_JOURNAL + 1)
    except OSError:  # none, or not ours to read (a read-only disk's other user): SQLite alone is read
        return None
    history = History(size=len(data))
    if len(data) > MAX_JOURNAL:
        history.damage = "longer than any journal"
        data = data[:MAX_JOURNAL]
    data = data.rstrip(b"\0")  # the tail written ahead: no entry ends in a zero byte (each ends in a newline)
    number = 0
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw:
            continue
        if not _good(raw, history):
            history.damage = history.damage or f"entry {number} cannot be read"
    if data and not data.endswith(b"\n"):
        history.damage = history.damage or f"entry {number} is cut short"
    return history


def _good(raw: bytes, history: History) -> bool:
    if len(raw) > MAX_ENTRY or len(raw) < 10 or raw[8:9] != b" ":
        return False
    body = raw[9:]
    try:
        if int(raw[:8], 16) != zlib.crc32(body):
            return False
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False
    return history._apply(value)


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


def rewrite(path: Path, lines: Mapping[int, list[str]], summaries: Mapping[int, Mapping[str, Any]]) -> None:
    """The journal made anew from LINES (the reconciled history): written beside, synced, then renamed over it."""
    fresh = path.with_name(path.name + ".new")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        for game in sorted(lines):
            data = line_entries(game, 1, lines[game], summaries.get(game))
            view = memoryview(data)
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
