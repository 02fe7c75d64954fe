"""NetworkManager keyfiles (/etc/NetworkManager/system-connections/*.nmconnection) for the card's Wi-Fi networks
and the Pi's own access point. NetworkManager reads a keyfile only if root owns it with mode 0600; the files hold
the passwords, so they are made with that mode from the start (never written first and narrowed after).

Written as files rather than with ``nmcli connection add``: a password on a command line is seen by every process
on the machine (/proc/PID/cmdline)."""

from __future__ import annotations

import contextlib
import os
import re
import uuid
from pathlib import Path

from .card import Network
from .hotspot import ADDRESS

CONNECTIONS = Path("etc/NetworkManager/system-connections")  # under the root given
PREFIX = "doge-wifi-"  # the card's networks; others' files are never touched
HOTSPOT_ID = "doge-hotspot"
NAMESPACE = uuid.UUID("5b0f0c39-3d38-4a55-9b0e-1d0f6b1c2e8a")  # a network's connection keeps its id across boots
BYTE_LIST = re.compile(r"[0-9;]*")  # an SSID NetworkManager would read as a list of byte values


def keyfile_value(text: str) -> str:
    """A value as GLib's key files read it back: backslash, line breaks, tabs and a leading space escaped."""
    escaped = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return "\\s" + escaped[1:] if escaped.startswith(" ") else escaped


def ssid_value(ssid: str) -> str:
    """An SSID as a keyfile holds it: as text, or, if NetworkManager would read that text as byte values ("12;34"),
    as the byte values themselves."""
    if BYTE_LIST.fullmatch(ssid):
        return "".join(f"{byte};" for byte in ssid.encode())
    return keyfile_value(ssid)


def network_keyfile(network: Network, priority: int) -> str:
    lines = [
        "[connection]",
        f"id={PREFIX}{keyfile_value(network.ssid)}",
        f"uuid={uuid.uuid5(NAMESPACE, network.ssid)}",
        "type=wifi",
        "autoconnect=true",
        f"autoconnect-priority={priority}",
        "",
        "[wifi]",
        "mode=infrastructure",
        f"ssid={ssid_value(network.ssid)}",
        *(["hidden=true"] if network.hidden else []),
        "",
    ]
    if network.password:
        lines += ["[wifi-security]", "key-mgmt=wpa-psk", f"psk={keyfile_value(network.password)}", ""]
    return "\n".join([*lines, "[ipv4]", "method=auto", "", "[ipv6]", "method=auto", ""])


def hotspot_keyfile(ssid: str, password: str) -> str:
    """The access point as ``nmcli device wifi hotspot`` makes it (WPA2 with CCMP, IPv4 shared: NetworkManager
    hands out addresses and routes on), at a fixed address so the join code can name it, and brought up only by
    ``network`` (autoconnect off: a known network is tried first at every boot)."""
    return "\n".join(
        [
            "[connection]",
            f"id={HOTSPOT_ID}",
            f"uuid={uuid.uuid5(NAMESPACE, HOTSPOT_ID)}",
            "type=wifi",
            "autoconnect=false",
            "",
            "[wifi]",
            "mode=ap",
            "band=bg",
            f"ssid={ssid_value(ssid)}",
            "",
            "[wifi-security]",
            "key-mgmt=wpa-psk",
            "proto=rsn",
            "pairwise=ccmp",
            "group=ccmp",
            f"psk={keyfile_value(password)}",
            "",
            "[ipv4]",
            "method=shared",
            f"address1={ADDRESS}/24",
            "",
            "[ipv6]",
            "method=ignore",
            "",
        ]
    )


def file_name(ssid: str) -> str:
    """A file name for a network: its name's letters and digits, and a hash that keeps two names apart."""
    plain = re.sub(r"[^A-Za-z0-9_-]", "_", ssid)[:24]
    return f"{PREFIX}{plain}-{uuid.uuid5(NAMESPACE, ssid).hex[:8]}.nmconnection"


def write_private(path: Path, text: str) -> None:
    """``text`` into ``path``, mode 0600 from its creation, replacing any file there whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.new")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.chmod(partial, 0o600)
    os.replace(partial, path)


def write_networks(root: Path, networks: tuple[Network, ...]) -> list[Path]:
    """A keyfile per network (the first on the card tried first), and the card's networks no longer on it gone."""
    folder = root / CONNECTIONS
    written = []
    for index, network in enumerate(networks):
        path = folder / file_name(network.ssid)
        write_private(path, network_keyfile(network, len(networks) - index))
        written.append(path)
    if folder.is_dir():
        for stale in folder.glob(f"{PREFIX}*.nmconnection"):
            if stale not in written:
                stale.unlink()
    return written


def write_hotspot_keyfile(root: Path, ssid: str, password: str) -> Path:
    path = root / CONNECTIONS / f"{HOTSPOT_ID}.nmconnection"
    write_private(path, hotspot_keyfile(ssid, password))
    return path
