"""The card file: ``doge-companion.toml`` on the card's FAT partition (/boot/firmware), the settings a person writes
with any computer before the first boot (docs/card-file.md). It takes config.toml's own keys and tables, two short
forms for what a table changes most (``language = "de"``, ``display = "st7735"``), and a ``[wifi]`` section that
only ``doge-companion network`` uses: the networks to join, the country, the Pi's own access point.

Pure: the data in, the config layer, the Wi-Fi and the problems out (config.py reads the file). A problem line
never repeats a password: a Wi-Fi password reaches only NetworkManager's keyfiles and the hotspot's QR code.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _
from .schema import SCHEMA, _quote, validate

CARD_NAME = "doge-companion.toml"
CARD_PATH = Path("/boot/firmware") / CARD_NAME  # the FAT partition, on Debian's image and on Raspberry Pi OS alike
CARD_ENV = "DOGE_CARD_FILE"  # another path (tests, a card mounted elsewhere); empty: no card file at all
MAX_CARD = 64 * 1024  # bytes: every key with comments is far under this; a longer file is not a card file
WAIT_S = 30  # how long `network` waits for a known network before it opens the access point
PSK = re.compile(r"[ -~]{8,63}|[0-9A-Fa-f]{64}")  # WPA2-Personal: 8 to 63 printable ASCII, or 64 hex digits
COUNTRY = re.compile(r"[A-Z]{2}|00")  # ISO 3166-1 alpha-2, as the kernel's regulatory database names them


def card_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """Where the card file is looked for: $DOGE_CARD_FILE if set (empty: none), else /boot/firmware."""
    environ = os.environ if environ is None else environ
    if CARD_ENV in environ:
        return Path(environ[CARD_ENV]) if environ[CARD_ENV] else None
    return CARD_PATH


def is_card_file(path: Path) -> bool:
    """A file checked as a card file: by its name, wherever it is (a card in a laptop's reader)."""
    return path.name == CARD_NAME


@dataclass(frozen=True)
class Network:
    """A Wi-Fi network to join; the password is left out of ``repr`` so that no log line can show it."""

    ssid: str
    password: str = field(default="", repr=False)
    hidden: bool = False


@dataclass(frozen=True)
class Wifi:
    country: str | None = None
    networks: tuple[Network, ...] = ()
    hotspot: bool = True  # with no known network in reach, the Pi opens its own
    hotspot_password: str | None = field(default=None, repr=False)  # None: one is made up once and kept
    wait_seconds: int = WAIT_S


@dataclass(frozen=True)
class Card:
    """A card file that can be used: its config layer (config.toml's keys, the short forms mapped) and its Wi-Fi."""

    layer: dict[str, Any]
    wifi: Wifi


def parse_card(data: Mapping[str, Any]) -> tuple[Card, list[str]]:
    """The card's layer and Wi-Fi, and every problem (one line each, without the file's name)."""
    layer = {key: value for key, value in data.items() if key not in ("wifi", "language")}
    short: dict[str, str] = {}  # a problem's key -> the short form the file gave it by
    if "language" in data and isinstance(layer.get("game", {}), dict):
        game = layer.get("game", {})
        layer["game"] = {"language": data["language"], **game}
        if "language" not in game:
            short["game.language"] = "language"
    if "display" in data and not isinstance(data["display"], dict):  # TOML has no "display" that is both
        layer["display"] = {"driver": data["display"]}
        short["display.driver"] = "display"
    found: list[str] = []
    validate(layer, SCHEMA, "", found)
    problems = []
    for line in found:
        key = line.split(":", 1)[0]
        problems.append(short[key] + line[len(key) :] if key in short else line)
    wifi = _wifi(data.get("wifi", {}), problems)
    return Card(layer, wifi), problems


WIFI_KEYS = ("country", "ssid", "password", "hidden", "networks", "hotspot", "hotspot_password", "wait_seconds")
NETWORK_KEYS = ("ssid", "password", "hidden")


def _wifi(section: Any, problems: list[str]) -> Wifi:
    if not isinstance(section, dict):
        problems.append(_("wifi: must be a table [wifi], not a value"))
        return Wifi()
    for key in section:
        if key not in WIFI_KEYS:
            problems.append(
                _("{path}: unknown key (known here: {known})").format(
                    path=f"wifi.{_name(key)}", known=", ".join(WIFI_KEYS)
                )
            )
    networks: list[Network] = []
    if "ssid" in section or "password" in section:
        networks += _networks([{k: section[k] for k in NETWORK_KEYS if k in section}], "wifi.", problems)
    listed = section.get("networks", [])
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        problems.append(_("wifi.networks: must be a list of tables [[wifi.networks]]"))
    else:
        networks += _networks(listed, "wifi.networks[{index}].", problems)
    networks = _distinct(networks, problems)
    country = section.get("country")
    if country is not None and not (type(country) is str and country.isascii() and COUNTRY.fullmatch(country.upper())):
        problems.append(_('wifi.country: must be a two-letter country code such as "DE" or "IT"'))
        country = None
    hotspot = section.get("hotspot", True)
    if type(hotspot) is not bool:
        problems.append(_("wifi.hotspot: must be true or false"))
        hotspot = True
    hotspot_password = section.get("hotspot_password")
    if hotspot_password is not None and not _psk(hotspot_password):
        problems.append(_psk_problem("wifi.hotspot_password", hotspot_password))
        hotspot_password = None
    wait = section.get("wait_seconds", WAIT_S)
    if type(wait) is not int or not 0 <= wait <= 600:
        problems.append(_("wifi.wait_seconds: must be a whole number from 0 to 600"))
        wait = WAIT_S
    return Wifi(country.upper() if country else None, tuple(networks), hotspot, hotspot_password, wait)


def _networks(items: list[dict[str, Any]], prefix: str, problems: list[str]) -> list[Network]:
    networks = []
    for index, item in enumerate(items):
        where = prefix.format(index=index)
        for key in item:
            if key not in NETWORK_KEYS:
                problems.append(
                    _("{path}: unknown key (known here: {known})").format(
                        path=f"{where}{_name(key)}", known=", ".join(NETWORK_KEYS)
                    )
                )
        ssid, password, hidden = item.get("ssid"), item.get("password", ""), item.get("hidden", False)
        if type(ssid) is not str or not 1 <= len(ssid.encode()) <= 32 or not ssid.isprintable():
            problems.append(_("{path}ssid: the network's name, in quotes, 1 to 32 bytes").format(path=where))
            continue
        if password != "" and not _psk(password):
            problems.append(_psk_problem(f"{where}password", password))
            continue
        if type(hidden) is not bool:
            problems.append(_("{path}hidden: must be true or false").format(path=where))
            continue
        networks.append(Network(ssid, password, hidden))
    return networks


def _distinct(networks: list[Network], problems: list[str]) -> list[Network]:
    """One network a name: NetworkManager's keyfile is named and identified by the SSID (keyfiles.py), so a second
    entry would overwrite the first's password and the Pi could join with either; the card is refused instead."""
    seen: set[str] = set()
    for network in networks:
        if network.ssid in seen:
            problems.append(
                _('wifi: the network "{ssid}" is given twice: keep one of them').format(ssid=_name(network.ssid))
            )
        seen.add(network.ssid)
    return list({network.ssid: network for network in networks}.values())


def _psk(value: Any) -> bool:
    return type(value) is str and PSK.fullmatch(value) is not None


def _psk_problem(path: str, value: Any) -> str:
    """What is wrong with a password, never the password itself: its length at most."""
    if type(value) is not str:
        return _("{path}: must be text in quotes").format(path=path)
    if not value.isascii() or not value.isprintable():
        return _("{path}: a WPA2 password has only letters, digits, spaces and ASCII signs").format(path=path)
    return _("{path}: a WPA2 password has 8 to 63 characters, not {count}").format(path=path, count=len(value))


def _name(key: str) -> str:
    """A key as a problem line names it: control characters escaped, cut short."""
    return _quote(key)[1:-1]


def one_line(problems: list[str]) -> str:
    """The card's problems as the LCD says them at setup: the first, how many more, and how to fix it."""
    more = len(problems) - 1
    line = problems[0]
    if more:
        line += " " + _("(and {count} more)").format(count=more)
    return line + " " + _("The card file is left out: fix it on the card and restart.")
