"""``doge-companion network``: at boot, as root, before the companion (systemd/doge-companion-network.service).

The card's Wi-Fi networks become NetworkManager keyfiles and its country the regulatory domain; then a bounded wait
for a connection. With none and a Wi-Fi device present, the Pi opens its own network (WPA2, "Doge-XXXX" from the
machine id, a password made up once and kept) and leaves word of it in /run for the companion, whose LCD then shows
its Wi-Fi QR code before the join code. Without a Wi-Fi device (QEMU, a desktop) it does nothing and says so.

Every line it prints names networks, never a password. ``root`` is "/" on a device; tests give a folder, and put a
stand-in nmcli on PATH.
"""

from __future__ import annotations

import contextlib
import grp
import hashlib
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .card import Wifi
from .hotspot import ADDRESS, HOTSPOT_FILE, LOOKING, STATE_NAME, Hotspot, remove_hotspot, write_hotspot, write_state
from .keyfiles import HOTSPOT_ID, write_hotspot_keyfile, write_networks, write_private

KEPT = Path("var/lib/doge-companion-network/hotspot-password")  # under the root: the password made up once
COUNTRY_FILE = Path("etc/modprobe.d/doge-companion-wifi-country.conf")
ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: a password someone may have to type from a QR app
DEVICE_WAIT_S = 10  # a Wi-Fi device may register with NetworkManager a few seconds after it starts
NMCLI_TIMEOUT_S = 60


class NetworkError(Exception):
    """nmcli failed: one line, what and why."""


@dataclass
class Nmcli:
    """nmcli, as found on PATH, its terse output parsed (``-t``: fields split at ':', which values escape as
    '\\:')."""

    program: str = "nmcli"

    def run(self, *args: str, timeout: float = NMCLI_TIMEOUT_S) -> str:
        try:
            done = subprocess.run(
                [self.program, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            raise NetworkError(f"nmcli {args[0]} did not answer in {timeout:g} s") from None
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or [f"status {done.returncode}"])[-1]
            raise NetworkError(f"nmcli {' '.join(args[:3])}: {reason}")
        return done.stdout

    def table(self, fields: str, *args: str) -> list[list[str]]:
        return [split_terse(line) for line in self.run("-t", "-f", fields, *args).splitlines() if line]

    def devices(self) -> list[tuple[str, str, str]]:
        """(device, type, state) of each: ("wlan0", "wifi", "disconnected")."""
        return [(row[0], row[1], row[2]) for row in self.table("DEVICE,TYPE,STATE", "device") if len(row) >= 3]

    def wifi_profiles(self) -> list[str]:
        rows = self.table("NAME,TYPE", "connection", "show")
        return [row[0] for row in rows if len(row) >= 2 and row[1] == "802-11-wireless" and row[0] != HOTSPOT_ID]


def split_terse(line: str) -> list[str]:
    fields, current, escaped = [], [], False
    for char in line:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    return [*fields, "".join(current)]


def hotspot_name(root: Path) -> str:
    """ "Doge-" and four hex digits of a hash of the machine id (the id itself is not to be shown: machine-id(5))."""
    try:
        machine = (root / "etc/machine-id").read_text().strip()
    except OSError:
        machine = ""
    return "Doge-" + hashlib.sha256(f"doge-companion hotspot {machine}".encode()).hexdigest()[:4].upper()


def kept_password(root: Path) -> str:
    path = root / KEPT
    try:
        password = path.read_text().strip()
        if 8 <= len(password) <= 63:
            return password
    except OSError:
        pass
    password = "".join(secrets.choice(ALPHABET) for _ in range(12))
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_private(path, password + "\n")
    return password


def set_country(root: Path, country: str, say: Callable[[str], None]) -> None:
    """The regulatory domain: for every boot (cfg80211's module option) and now (``iw reg set``, if iw is here)."""
    write_private(root / COUNTRY_FILE, f"options cfg80211 ieee80211_regdom={country}\n")
    os.chmod(root / COUNTRY_FILE, 0o644)
    iw = shutil.which("iw")
    if iw is not None and root == Path("/"):
        with contextlib.suppress(subprocess.TimeoutExpired):  # the file above holds it from the next boot
            subprocess.run([iw, "reg", "set", country], capture_output=True, timeout=10, check=False)
    say(f"doge-companion network: Wi-Fi country {country}")


def companion_group(name: str) -> int | None:
    """The group the companion runs as, which may read the state file (None: no such group here, or not root)."""
    if os.geteuid() != 0:
        return None
    try:
        return grp.getgrnam(name).gr_gid
    except KeyError:
        return None


def configure(
    root: Path,
    wifi: Wifi,
    say: Callable[[str], None],
    *,
    group: str = "doge",
    state: Path | None = None,
    nmcli: Nmcli | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    from_card: bool = True,
) -> int:
    """WIFI's networks saved (unless not FROM_CARD: no card file, or one that cannot be used, leaves the networks the
    last good card saved as they are), then a connection, else the Pi's own network."""
    nmcli = nmcli or Nmcli()
    state = state if state is not None else root / HOTSPOT_FILE.relative_to("/")
    found = _configure(root, wifi, say, group, state, nmcli, sleep, clock, from_card)
    with contextlib.suppress(OSError):  # the companion then says only "looking for Wi-Fi" no longer
        write_state(state.with_name(STATE_NAME), found, companion_group(group))
    return 1 if found == "failed" else 0


def _configure(
    root: Path,
    wifi: Wifi,
    say: Callable[[str], None],
    group: str,
    state: Path,
    nmcli: Nmcli,
    sleep: Callable[[float], None],
    clock: Callable[[], float],
    from_card: bool,
) -> str:
    """``configure``'s work; what it came to, as the state file says it (hotspot.py's DONE, or "failed")."""
    if shutil.which(nmcli.program) is None:
        say("doge-companion network: NetworkManager's nmcli is not installed: nothing to do")
        return "no-wifi"
    try:
        remove_hotspot(state)  # word of an earlier boot's network is never taken for this one's
        write_state(state.with_name(STATE_NAME), LOOKING, companion_group(group))
        radio = _kernel_has_wifi(root)
        devices = _wifi_devices(nmcli, min(DEVICE_WAIT_S, wifi.wait_seconds) if radio else 0, sleep, clock)
        if not devices:
            say("doge-companion network: no Wi-Fi device: nothing to do")
            return "no-wifi"
        if wifi.country:
            set_country(root, wifi.country, say)
        written = write_networks(root, wifi.networks) if from_card else []
        nmcli.run("connection", "reload")
        nmcli.run("radio", "wifi", "on")
        if written:
            say(f"doge-companion network: {len(written)} Wi-Fi network(s) from the card: "
                + ", ".join(network.ssid for network in wifi.networks))  # fmt: skip
        connected = _wait_connected(nmcli, wifi.wait_seconds, bool(nmcli.wifi_profiles()), sleep, clock)
        if connected:
            say(f"doge-companion network: connected ({connected})")
            return "connected"
        if not wifi.hotspot:
            say("doge-companion network: no known network in reach, and the card turns the Pi's own network off")
            return "offline"
        _open_hotspot(root, wifi, devices[0], state, group, nmcli, say)
        return "hotspot"
    except (NetworkError, OSError) as error:
        say(f"doge-companion network: {error}")
        return "failed"


def _kernel_has_wifi(root: Path) -> bool:
    """Whether the kernel has a Wi-Fi radio (/sys/class/ieee80211): then NetworkManager will show it, if not yet.
    Without one (QEMU, a desktop) nothing is waited for. Another root than "/" (tests): as NetworkManager says."""
    if root != Path("/"):
        return True
    radios = Path("/sys/class/ieee80211")
    return radios.is_dir() and any(radios.iterdir())


def _wifi_devices(nmcli: Nmcli, wait: float, sleep: Callable[[float], None], clock: Callable[[], float]) -> list[str]:
    end = clock() + wait
    while True:
        found = [device for device, kind, _state in nmcli.devices() if kind == "wifi"]
        if found or clock() >= end:
            return found
        sleep(1)


def _wait_connected(
    nmcli: Nmcli, wait: float, known: bool, sleep: Callable[[float], None], clock: Callable[[], float]
) -> str | None:
    """The first device connected to a network (Wi-Fi or a cable), within ``wait`` seconds. With no KNOWN Wi-Fi
    network it waits only while a device is still connecting (a cable getting its address from a slow router)."""
    end = clock() + wait
    while True:
        devices = [(device, status) for device, kind, status in nmcli.devices() if kind in ("wifi", "ethernet")]
        for device, status in devices:
            if status == "connected":
                return device
        connecting = any(status.startswith("connecting") for _device, status in devices)
        if clock() >= end or not (known or connecting):
            return None
        sleep(1)


def _open_hotspot(
    root: Path, wifi: Wifi, device: str, state: Path, group: str, nmcli: Nmcli, say: Callable[[str], None]
) -> int:
    ssid = hotspot_name(root)
    password = wifi.hotspot_password or kept_password(root)
    write_hotspot_keyfile(root, ssid, password)
    nmcli.run("connection", "reload")
    nmcli.run("--wait", "30", "connection", "up", HOTSPOT_ID, "ifname", device)
    write_hotspot(state, Hotspot(ssid, password, ADDRESS), companion_group(group))
    say(f"doge-companion network: no known network in reach: opened the Pi's own Wi-Fi {ssid} on {device}")
    return 0
