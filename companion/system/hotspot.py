"""The Pi's own Wi-Fi network, as ``doge-companion network`` leaves word of it for the companion: a small JSON file
in /run (gone at the next boot), readable by root and the companion's group only, since it holds the password the
LCD's Wi-Fi QR code gives to phones. Nothing else shows that password: not a log line, not a screen's text."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

HOTSPOT_FILE = Path("/run/doge-companion-network/hotspot.json")
HOTSPOT_ENV = "DOGE_HOTSPOT_FILE"  # another path (tests); empty: the companion looks for none
ADDRESS = "10.42.0.1"  # the Pi on its own network (NetworkManager's "shared" range, fixed in the keyfile)
MOST = 4096  # bytes: the state file is a few dozen
STATE_NAME = "state"  # beside the hotspot file: what `network` is doing, for the companion's first screens
LOOKING = "looking"  # still waiting for a Wi-Fi device or a network
DONE = ("connected", "hotspot", "offline", "no-wifi", "failed")  # joined one; its own; neither; no radio; an error


@dataclass(frozen=True)
class Hotspot:
    ssid: str
    password: str = field(repr=False)
    address: str = ADDRESS

    @property
    def qr_text(self) -> str:
        return wifi_qr_text(self.ssid, self.password)


def wifi_qr_text(ssid: str, password: str) -> str:
    """What a Wi-Fi QR code says (the ``WIFI:`` scheme phones' cameras join by): backslash, semicolon, comma, colon
    and double quote escaped with a backslash in the name and the password."""
    return f"WIFI:T:WPA;S:{_escaped(ssid)};P:{_escaped(password)};;"


def _escaped(text: str) -> str:
    return "".join("\\" + char if char in '\\;,:"' else char for char in text)


def hotspot_path(environ: Mapping[str, str] | None = None) -> Path | None:
    environ = os.environ if environ is None else environ
    if HOTSPOT_ENV in environ:
        return Path(environ[HOTSPOT_ENV]) if environ[HOTSPOT_ENV] else None
    return HOTSPOT_FILE


def read_hotspot(path: Path | None) -> Hotspot | None:
    """The network the Pi opened at this boot, or None (none opened, or a file that is not what `network` writes)."""
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            data = json.loads(handle.read(MOST + 1)[:MOST])
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    ssid, password, address = data.get("ssid"), data.get("password"), data.get("address", ADDRESS)
    if not all(type(value) is str and value and value.isprintable() for value in (ssid, password, address)):
        return None
    return Hotspot(str(ssid), str(password), str(address))


def write_hotspot(path: Path, hotspot: Hotspot, group: int | None) -> None:
    """The state file, mode 0640 in a folder of mode 0750, both of ``group`` (the companion's) when given; written
    whole or not at all."""
    fields = {"ssid": hotspot.ssid, "password": hotspot.password, "address": hotspot.address}
    _write_whole(path, json.dumps(fields), group)


def remove_hotspot(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def state_path(hotspot: Path | None) -> Path | None:
    return hotspot.with_name(STATE_NAME) if hotspot is not None else None


def write_state(path: Path, state: str, group: int | None) -> None:
    """One word (LOOKING or one of DONE), mode 0640 in the folder the hotspot file shares, written whole: the
    companion starts before the network is known and reads it to say what it waits for."""
    _write_whole(path, state + "\n", group)


def _write_whole(path: Path, text: str, group: int | None) -> None:
    """TEXT in PATH, mode 0640 whatever the umask, in a folder of mode 0750, both of GROUP when given: a reader
    sees the old file or the new one, never part of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o750)
    partial = path.with_name(path.name + ".new")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o640)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.chmod(partial, 0o640)
    if group is not None:
        os.chown(path.parent, -1, group)
        os.chown(partial, -1, group)
    os.replace(partial, path)


def read_state(path: Path | None) -> str | None:
    """What `network` last wrote at this boot, or None (not started yet, not installed, or not a word it writes)."""
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            word = handle.read(64).decode("ascii", "replace").strip()
    except OSError:
        return None
    return word if word == LOOKING or word in DONE else None
