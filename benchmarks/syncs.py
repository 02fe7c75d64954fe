"""Every sync SQLite asks of the disk, counted where it asks (``bench pi``'s SD card share): not assumed from the
commits one expects.

SQLite reaches the disk only through its VFS (sqlite.org/vfs.html). :func:`install` registers, as the process's
default VFS, a copy of the default one ("unix") whose files keep their own methods except two: ``xWrite``, which
notes the 4 KiB blocks each write touches, and ``xSync``, which counts the sync and takes those blocks as what it
makes the card write (plus ext4's journal when the file grew: its size is metadata). Everything else is the unix
VFS's own code, so the syncs counted are the ones the store's connections really make, however many commits a
press has and whoever commits them. Python's ``os.fsync`` (the voice's WAV files) and ``os.fdatasync`` (the store's
journal, the commit point of a press: companion/store/journal.py, with the blocks its ``os.pwrite`` calls touched)
are counted too.

Through ctypes into the libsqlite3 Python's ``sqlite3`` module is linked to (Debian's and Raspberry Pi OS's Python
are): where SQLite is built into the module instead, :func:`install` says so and nothing is counted.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sqlite3
from dataclasses import dataclass, field
from functools import cache
from typing import Any

BLOCK = 4096
JOURNAL_BLOCKS = 3  # ext4's journal commit when a synced file grew (descriptor, inode block, commit block)


class _Vfs(ctypes.Structure):
    """sqlite3_vfs, version 3 (sqlite3.h): six fields, then sixteen function pointers kept as plain addresses."""

    _fields_ = [
        ("iVersion", ctypes.c_int),
        ("szOsFile", ctypes.c_int),
        ("mxPathname", ctypes.c_int),
        ("pNext", ctypes.c_void_p),
        ("zName", ctypes.c_char_p),
        ("pAppData", ctypes.c_void_p),
        ("xOpen", ctypes.c_void_p),
        *((f"x{n}", ctypes.c_void_p) for n in range(15)),
    ]


class _Methods(ctypes.Structure):
    """sqlite3_io_methods (sqlite3.h): iVersion, then xClose, xRead, xWrite, xTruncate, xSync and 13 more."""

    _fields_ = [
        ("iVersion", ctypes.c_int),
        ("xClose", ctypes.c_void_p),
        ("xRead", ctypes.c_void_p),
        ("xWrite", ctypes.c_void_p),
        ("xTruncate", ctypes.c_void_p),
        ("xSync", ctypes.c_void_p),
        *((f"x{n}", ctypes.c_void_p) for n in range(13)),
    ]


_OPEN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
_WRITE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64)
_SYNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int)


@dataclass
class _File:
    name: str
    size: int
    blocks: set[int] = field(default_factory=set)
    end: int = 0


@dataclass
class Counter:
    """Syncs since :meth:`reset`, each as (file kind, card blocks it writes)."""

    syncs: list[tuple[str, int]] = field(default_factory=list)

    def reset(self) -> None:
        self.syncs = []

    @property
    def blocks(self) -> int:
        return sum(blocks for _kind, blocks in self.syncs)


COUNTER = Counter()
_files: dict[int, _File] = {}
_keep: list[Any] = []  # the callbacks and structures SQLite holds pointers to, alive for the process


def _kind(name: str) -> str:
    return "wal" if name.endswith("-wal") else "journal" if name.endswith("-journal") else "db"


@cache
def install() -> str | None:
    """Count from now on (once per process); None, or why syncs cannot be counted here."""
    path = ctypes.util.find_library("sqlite3")
    if path is None:
        return "no libsqlite3 to register a counting VFS with (SQLite built into Python's sqlite3 module)"
    lib = ctypes.CDLL(path)
    lib.sqlite3_libversion.restype = ctypes.c_char_p
    if lib.sqlite3_libversion().decode() != sqlite3.sqlite_version:
        return f"{path} is SQLite {lib.sqlite3_libversion().decode()}, Python's is {sqlite3.sqlite_version}"
    lib.sqlite3_vfs_find.restype = ctypes.POINTER(_Vfs)
    lib.sqlite3_vfs_find.argtypes = [ctypes.c_char_p]
    base = lib.sqlite3_vfs_find(None)
    if not base or base.contents.iVersion < 3:
        return "no version 3 default VFS"
    counting = _Vfs.from_buffer_copy(base.contents)
    counting.zName = b"counting"
    counting.pNext = None
    base_open = _OPEN(base.contents.xOpen)
    wrapped: dict[int, _Methods] = {}
    originals: dict[int, tuple[Any, Any]] = {}

    @_WRITE
    def write(file: int, data: int, amount: int, offset: int) -> int:
        code: int = originals[file][0](file, data, amount, offset)
        record = _files.get(file)
        if record is not None and code == 0 and amount > 0:
            record.blocks.update(range(offset // BLOCK, (offset + amount - 1) // BLOCK + 1))
            record.end = max(record.end, offset + amount)
        return code

    @_SYNC
    def sync(file: int, flags: int) -> int:
        code: int = originals[file][1](file, flags)
        record = _files.get(file)
        if record is not None:
            grew = record.end > record.size
            COUNTER.syncs.append((_kind(record.name), len(record.blocks) + (JOURNAL_BLOCKS if grew else 0)))
            record.blocks = set()
            record.size = max(record.size, record.end)
        return code

    @_OPEN
    def open_(vfs: int, name: int | None, file: int, flags: int, out: int | None) -> int:
        code: int = base_open(ctypes.addressof(base.contents), name, file, flags, out)
        methods = ctypes.c_void_p.from_address(file).value
        if code != 0 or not methods:
            return code
        if methods not in wrapped:
            copy = _Methods.from_buffer_copy(_Methods.from_address(methods))
            copy.xWrite = ctypes.cast(write, ctypes.c_void_p).value
            copy.xSync = ctypes.cast(sync, ctypes.c_void_p).value
            wrapped[methods] = copy
            original = _Methods.from_address(methods)
            originals[ctypes.addressof(copy)] = (_WRITE(original.xWrite), _SYNC(original.xSync))
        copy = wrapped[methods]
        ctypes.c_void_p.from_address(file).value = ctypes.addressof(copy)
        originals[file] = originals[ctypes.addressof(copy)]
        text = ctypes.string_at(name).decode(errors="replace") if name else ""
        try:
            size = os.path.getsize(text) if text else 0
        except OSError:
            size = 0
        _files[file] = _File(text, size)
        return code

    counting.xOpen = ctypes.cast(open_, ctypes.c_void_p).value
    _keep.extend([lib, counting, write, sync, open_, base_open, wrapped])
    lib.sqlite3_vfs_register.argtypes = [ctypes.POINTER(_Vfs), ctypes.c_int]
    if lib.sqlite3_vfs_register(ctypes.byref(counting), 1) != 0:
        return "sqlite3_vfs_register refused the counting VFS"
    fsync, fdatasync, pwrite = os.fsync, os.fdatasync, os.pwrite
    synced: dict[int, int] = {}  # each descriptor's size at its last sync
    written: dict[int, set[int]] = {}  # the blocks each descriptor's pwrites touched since its last sync

    def counted_pwrite(fd: int, data: Any, offset: int) -> int:
        count: int = pwrite(fd, data, offset)
        if count > 0:
            synced.setdefault(fd, os.fstat(fd).st_size)
            written.setdefault(fd, set()).update(range(offset // BLOCK, (offset + count - 1) // BLOCK + 1))
        return count

    def counted_fsync(fd: Any) -> None:
        fsync(fd)
        COUNTER.syncs.append(("file", 1))
        if isinstance(fd, int):  # all of it on the card: what the descriptor (or a later one of its number) syncs next
            written.pop(fd, None)
            synced.pop(fd, None)

    def counted_fdatasync(fd: Any) -> None:
        """The store's journal (companion/store/journal.py): written, then synced once a press. Its blocks are the
        ones its pwrites touched since the descriptor's last sync (or, for a file appended to, the ones the appended
        bytes touch), plus ext4's journal when the file grew (its size is metadata; a write over blocks already
        written and synced changes none)."""
        fdatasync(fd)
        size = os.fstat(fd).st_size
        before = synced.get(fd, size)
        synced[fd] = size
        touched = len(written.pop(fd, ())) or max(size - 1, before) // BLOCK - before // BLOCK + 1
        COUNTER.syncs.append(("journal", touched + (JOURNAL_BLOCKS if size > before else 0)))

    os.fsync = counted_fsync
    os.fdatasync = counted_fdatasync
    os.pwrite = counted_pwrite
    return None
