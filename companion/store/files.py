"""The store's files: where they live, who may read them, and the one-line forms of paths and SQLite's reports.

The state directory is 0700 and the store 0600: it holds ballots not yet revealed (rules.md 11).
"""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

_NO_ROOM_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_ROOM_NEEDED = 256 * 1024  # less free than this: an I/O error at opening is the full disk's (the -shm needs 32 KiB)


def default_directory(configured: str = "", environ: Mapping[str, str] | None = None) -> Path:
    """The config's state_dir, else $STATE_DIRECTORY (systemd's StateDirectory=), else the XDG state directory."""
    environ = os.environ if environ is None else environ
    if configured:
        return Path(configured).expanduser()
    if environ.get("STATE_DIRECTORY"):
        return Path(environ["STATE_DIRECTORY"].split(":")[0])
    base = environ.get("XDG_STATE_HOME") or os.path.join(environ.get("HOME", "~"), ".local", "state")
    return Path(base).expanduser() / "doge-companion"


def simulator_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where ``doge-companion sim`` keeps its games when the config names no state_dir: beside, not in, a real
    device's, so trying the simulator never resumes or lists a real game."""
    return default_directory("", environ).with_name("doge-companion-sim")


def no_room(directory: Path, error: BaseException | None) -> bool:
    if (
        getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_FULL
        or getattr(error, "errno", None) in _NO_ROOM_ERRNOS
    ):
        return True
    try:
        disk = os.statvfs(directory)
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < _ROOM_NEEDED or disk.f_favail == 0


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime())


def move_aside(path: Path) -> Path | None:
    """Renames the store and its -wal/-shm to the first name not taken (two starts in one second keep both), or
    None if they cannot be renamed. A symbolic link is renamed itself, never what it points at."""
    suffixes = ("", "-wal", "-shm")
    for number in itertools.count(1):
        tail = "" if number == 1 else f"-{number}"
        aside = path.with_name(f"{path.stem}.broken-{stamp()}{tail}{path.suffix}")
        if not any(os.path.lexists(f"{aside}{suffix}") for suffix in suffixes):
            break
    try:
        for suffix in suffixes:
            if os.path.lexists(f"{path}{suffix}"):
                os.rename(f"{path}{suffix}", f"{aside}{suffix}")
    except OSError:
        return None
    return aside


def private_directory(directory: Path) -> None:
    """The state directory, made if missing, readable by its owner only (it holds ballots not yet revealed,
    rules.md 11): one made earlier, or by systemd's StateDirectory= (0755 by default), is tightened too."""
    if not directory.is_dir():
        directory.mkdir(parents=True, exist_ok=True)
        os.chmod(directory, 0o700)
        return
    with suppress(OSError):  # a read-only disk, or not ours: nothing to tighten, and the store still reads it
        status = directory.stat()
        if status.st_mode & 0o077 and status.st_uid == os.geteuid():
            os.chmod(directory, stat.S_IMODE(status.st_mode) & 0o700)  # never adds a permission


def read_only(path: Path) -> bool:
    directory = path.parent
    return not os.access(directory, os.W_OK) or (path.exists() and not os.access(path, os.W_OK))


def open_read_only(path: Path) -> sqlite3.Connection:
    """Read-only. With no -wal file (a clean shutdown leaves none) ``immutable`` reads the main file as it is and
    touches nothing, not even a -shm file; after a crash read-only mode reads the committed lines from the -wal
    (a read-only disk then needs its -shm file, else the main file alone is read)."""
    uri = path.resolve().as_uri()
    if not Path(f"{path}-wal").exists():
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)


def cut_to_nothing(path: Path) -> str | None:
    """Why a database of 0 bytes beside a -wal that holds something is damage, not an empty store: what ext4 can
    leave after a power cut. SQLite would open it as empty and delete the -wal, the games in it
    (tests/test_sd_card.py)."""
    try:
        size, wal = path.stat().st_size, os.stat(f"{path}-wal").st_size
    except OSError:
        return None
    if size == 0 and wal > 0:
        return f"damaged (the file is 0 bytes beside a -wal of {wal} bytes)"
    return None


@contextmanager
def reading_copy(path: Path, tries: int = 3) -> Iterator[str]:
    """PATH and its -wal copied into a private temporary folder, for SQLite to open there: whatever it then does to
    a -wal or a -shm (delete, rewrite) happens to the copies. A copy taken while a companion commits is taken again.
    In memory (/dev/shm) where there is one: it works on a full disk, and the copy's secrets touch no other disk."""
    memory = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK) else None
    with tempfile.TemporaryDirectory(prefix="doge-companion-", dir=memory) as folder:
        target = Path(folder) / path.name
        for _try in range(tries):
            before = _stamps(path)
            for suffix in ("", "-wal"):
                with suppress(FileNotFoundError):
                    shutil.copyfile(f"{path}{suffix}", f"{target}{suffix}", follow_symlinks=False)
            if _stamps(path) == before:
                break
        yield str(target)


def _stamps(path: Path) -> list[tuple[int, int] | None]:
    found: list[tuple[int, int] | None] = []
    for suffix in ("", "-wal"):
        try:
            status = os.stat(f"{path}{suffix}")
            found.append((status.st_size, status.st_mtime_ns))
        except OSError:
            found.append(None)
    return found


def move_journal_aside(path: Path, why: str) -> Path | None:
    """A damaged journal (or a link where it belongs) is kept under a name no earlier one has, never deleted."""
    for number in itertools.count(1):
        aside = path.with_name(f"{path.name}.{why}-{stamp()}" + ("" if number == 1 else f"-{number}"))
        if not os.path.lexists(aside):
            break
    try:
        os.rename(path, aside)
    except OSError:
        return None
    return aside


def make_private(path: Path) -> None:
    """The store and its -wal/-shm files readable by their owner only (SQLite gives those the main file's mode).
    A new store is made here, never through a symbolic link (O_NOFOLLOW, O_EXCL: a link made meanwhile fails)."""
    if not os.path.lexists(path):
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
    for suffix in ("", "-wal", "-shm"):
        file = Path(str(path) + suffix)
        with suppress(OSError):
            if file.exists() and file.stat().st_mode & 0o077:
                os.chmod(file, 0o600)


def text(data: bytes) -> str | bytes:
    """SQLite's TEXT as str, or its bytes when they are not UTF-8 (a flipped bit): read as "not text", a damaged
    line, never an error halfway through a listing (a connection's ``text_factory``)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def clip(text: str, limit: int = 120) -> str:
    """One line, short: SQLite's own reports (quick_check's) span lines."""
    text = " ".join(text.split())
    return text if len(text) <= limit else f"{text[:limit]}..."


def short(path: Path, limit: int = 120) -> str:
    """A path short enough for one line on the screen and in the log."""
    text = str(path)
    return text if len(text) <= limit else f"{text[: limit // 2]}...{text[-limit // 2 :]}"
