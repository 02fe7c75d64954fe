"""``doge-companion network`` (docs/card-file.md), on a desktop: a root folder for the files it writes and a
stand-in nmcli on PATH (tests/fake_nmcli/nmcli: the few commands it gives, in nmcli's terse form). The Wi-Fi
passwords go into root-only keyfiles and the hotspot's state file, never onto a command line or into its output."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.command import main
from companion.system.hotspot import read_hotspot, read_state, wifi_qr_text
from companion.system.keyfiles import keyfile_value, ssid_value
from companion.system.network import Nmcli, _wait_connected, hotspot_name, split_terse

ROOT = Path(__file__).resolve().parents[1]
STAND_IN = ROOT / "tests" / "fake_nmcli" / "nmcli.py"
SECRET = "correct horse battery"
CARD = f"""[wifi]
country = "de"
ssid = "Casa"
password = "{SECRET}"

[[wifi.networks]]
ssid = "Club: 2nd floor"
password = "another {SECRET}"
hidden = true
"""
WIFI = ["wlan0", "wifi", "disconnected"]
LOOPBACK = ["lo", "loopback", "connected (externally)"]
CONNECTIONS = "etc/NetworkManager/system-connections"
STATE = "run/doge-companion-network/hotspot.json"
WORD = "run/doge-companion-network/state"  # what it is doing, for the companion's first screens


@pytest.fixture
def network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> Callable[..., tuple[Path, dict[str, Any], str]]:
    monkeypatch.delenv("DOGE_CARD_FILE", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nmcli").write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -S "{STAND_IN}" "$@"\n')
    (bin_dir / "nmcli").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_NMCLI", str(tmp_path / "nmcli.json"))
    monkeypatch.setenv("FAKE_NMCLI_ROOT", str(tmp_path / "root"))
    return lambda *args, **kwargs: run_network(tmp_path, capfd, *args, **kwargs)


def run_network(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], devices: list[list[str]], card: str = CARD, **fake: object
) -> tuple[Path, dict[str, Any], str]:
    """Runs the command as the unit does, in a root folder; returns the root, the stand-in's state and every line
    printed. The calls nmcli got are in the state's "calls"."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True, exist_ok=True)
    (root / "etc/machine-id").write_text("4f2d9a0c1b7e4e3f9a1c2b3d4e5f6a7b\n")
    (root / "boot/firmware").mkdir(parents=True, exist_ok=True)
    (root / "boot/firmware/doge-companion.toml").write_text(card)
    state = tmp_path / "nmcli.json"
    state.write_text(json.dumps({"devices": devices, **fake}))
    status = main(["network", "--root", str(root), "--wait", "0"])
    out, err = capfd.readouterr()
    assert status == 0, err
    calls = Path(f"{state}.log").read_text() if Path(f"{state}.log").exists() else ""
    output = out + err
    assert SECRET not in output + calls, "a password in the output or on nmcli's command line"
    return root, {**json.loads(state.read_text()), "calls": calls}, output


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_no_known_network_in_reach_opens_the_pis_own_with_a_state_file_for_the_companion(
    network: Callable[..., Any],
) -> None:
    root, fake, output = network([WIFI, LOOPBACK])
    keyfiles = sorted((root / CONNECTIONS).glob("*.nmconnection"))
    assert [path.name.split("-")[:2] for path in keyfiles] == [["doge", "hotspot.nmconnection"], ["doge", "wifi"],
                                                               ["doge", "wifi"]]  # fmt: skip
    assert all(mode(path) == 0o600 for path in keyfiles), "NetworkManager reads only root's 0600 keyfiles"
    casa = next(path.read_text() for path in keyfiles if "Casa" in path.name)
    assert "ssid=Casa\n" in casa and f"psk={SECRET}\n" in casa and "key-mgmt=wpa-psk" in casa
    club = next(path.read_text() for path in keyfiles if "Club" in path.name)
    assert "hidden=true" in club and "autoconnect-priority=1" in club and "autoconnect-priority=2" in casa
    assert (root / "etc/modprobe.d/doge-companion-wifi-country.conf").read_text().strip().endswith("regdom=DE")
    assert fake["up"] == ["doge-hotspot"] and fake["devices"][0] == ["wlan0", "wifi", "connected"]
    hotspot = read_hotspot(root / STATE)
    assert hotspot is not None and hotspot.ssid == hotspot_name(root) and hotspot.ssid.startswith("Doge-")
    assert len(hotspot.ssid) == 9 and hotspot.address == "10.42.0.1"
    assert mode(root / STATE) == 0o640 and mode((root / STATE).parent) == 0o750
    assert f"opened the Pi's own Wi-Fi {hotspot.ssid} on wlan0" in output
    assert read_state(root / WORD) == "hotspot" and mode(root / WORD) == 0o640
    ap = (root / CONNECTIONS / "doge-hotspot.nmconnection").read_text()
    assert "mode=ap" in ap and "method=shared" in ap and "proto=rsn" in ap and f"psk={hotspot.password}" in ap
    assert hotspot.password not in output + fake["calls"]
    again = read_hotspot(network([WIFI])[0] / STATE)
    assert again is not None and again.password == hotspot.password, "made up once and kept"


def test_a_known_network_in_reach_is_joined_and_no_hotspot_is_opened(network: Callable[..., Any]) -> None:
    root, fake, output = network([WIFI], reachable=["Casa"])
    assert "connected (wlan0)" in output and "up" not in fake
    assert not (root / STATE).exists() and not (root / CONNECTIONS / "doge-hotspot.nmconnection").exists()
    assert read_state(root / WORD) == "connected"


def test_no_wifi_device_does_nothing_and_says_so(network: Callable[..., Any]) -> None:
    root, fake, output = network([["eth0", "ethernet", "connected"], LOOPBACK])
    assert output.strip() == "doge-companion network: no Wi-Fi device: nothing to do"
    assert not (root / "etc/NetworkManager").exists()
    assert sorted(str(path.relative_to(root)) for path in (root / "run").rglob("*")) == [str(Path(WORD).parent), WORD]
    assert read_state(root / WORD) == "no-wifi", "the companion stops saying it looks for Wi-Fi"
    assert fake["calls"].count("\n") == 1, "it only asked which devices there are"


def test_a_network_gone_from_the_card_is_gone_from_networkmanager(network: Callable[..., Any]) -> None:
    root = network([WIFI])[0]
    network([WIFI], card=f'[wifi]\nssid = "Casa"\npassword = "{SECRET}"\n')
    names = sorted(path.name for path in (root / CONNECTIONS).glob("doge-wifi-*"))
    assert len(names) == 1 and "Casa" in names[0]


def test_a_card_that_cannot_be_used_or_is_gone_keeps_the_networks_the_last_good_card_saved(
    network: Callable[..., Any],
) -> None:
    root = network([WIFI])[0]
    saved = sorted((root / CONNECTIONS).glob("doge-wifi-*"))
    assert len(saved) == 2
    output = network([WIFI], card='language = "dee"\n')[2]
    assert "the networks saved before are kept" in output
    assert sorted((root / CONNECTIONS).glob("doge-wifi-*")) == saved, "a typo on the card loses no network"
    (root / "boot/firmware/doge-companion.toml").unlink()
    main(["network", "--root", str(root), "--wait", "0"])
    assert sorted((root / CONNECTIONS).glob("doge-wifi-*")) == saved, "nor does a card file taken off"


def test_a_bad_card_still_opens_the_pis_own_network_and_says_why_in_one_line(network: Callable[..., Any]) -> None:
    root, _fake, output = network([WIFI], card=f'[wifi]\nssid = "Casa"\npassword = "{SECRET[:5]}"\n')
    assert "wifi.password: a WPA2 password has 8 to 63 characters, not 5" in output
    assert read_hotspot(root / STATE) is not None and SECRET[:5] not in output


def test_a_card_with_the_same_network_twice_is_refused_and_no_keyfile_takes_either_password(
    network: Callable[..., Any],
) -> None:
    """Both entries would be one keyfile (named by the SSID): whichever password won, the Pi could join with it."""
    root = network([WIFI])[0]
    saved = {path.name: path.read_text() for path in (root / CONNECTIONS).glob("doge-wifi-*")}
    twice = f'[wifi]\nssid = "Casa"\npassword = "{SECRET}"\n[[wifi.networks]]\nssid = "Casa"\npassword = "12345678"\n'
    output = network([WIFI], card=twice)[2]
    assert 'wifi: the network "Casa" is given twice' in output and "the networks saved before are kept" in output
    assert {path.name: path.read_text() for path in (root / CONNECTIONS).glob("doge-wifi-*")} == saved
    assert "12345678" not in output


def test_a_wifi_qr_code_escapes_what_the_scheme_reserves() -> None:
    assert wifi_qr_text("Doge-1A2B", "abc") == "WIFI:T:WPA;S:Doge-1A2B;P:abc;;"
    assert wifi_qr_text('a;b,c:d\\e"', "p;w") == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\\\e\\";P:p\\;w;;'


@pytest.mark.parametrize(
    ("line", "fields"),
    [
        ("wlan0:wifi:connected", ["wlan0", "wifi", "connected"]),
        ("My\\:Net:802-11-wireless", ["My:Net", "802-11-wireless"]),
        ("a\\\\:b", ["a\\", "b"]),
    ],
)
def test_nmcli_terse_lines_are_split_at_unescaped_colons(line: str, fields: list[str]) -> None:
    assert split_terse(line) == fields


def test_keyfile_values_read_back_as_written() -> None:
    assert keyfile_value(" lead\\tab\t") == "\\slead\\\\tab\\t"
    assert ssid_value("1234") == "49;50;51;52;", "digits alone would be read as byte values"


def read_wifi_qr(text: str) -> dict[str, str]:
    """The fields of a WIFI: code as a phone reads them: ';' ends a field unless a backslash escapes it."""
    assert text.startswith("WIFI:") and text.endswith(";;")
    fields, current, escaped = {}, "", False
    for char in text[len("WIFI:") : -1]:
        if escaped:
            current, escaped = current + char, False
        elif char == "\\":
            escaped = True
        elif char == ";":
            key, _colon, value = current.partition(":")
            fields[key], current = value, ""
        else:
            current += char
    return fields


def read_keyfile_value(text: str) -> str:
    """GLib's g_key_file_get_string unescaping."""
    plain = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
    out, escaped = "", False
    for char in text:
        if escaped:
            out, escaped = out + plain[char], False
        elif char == "\\":
            escaped = True
        else:
            out += char
    return out


@given(st.text(st.characters(codec="ascii"), min_size=1, max_size=32), st.text(min_size=8, max_size=63))
def test_any_name_and_password_read_back_from_the_code_and_the_keyfile(ssid: str, password: str) -> None:
    assert read_wifi_qr(wifi_qr_text(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}
    for value in (ssid, password):
        written = keyfile_value(value)
        assert "\n" not in written and read_keyfile_value(written) == value


def test_the_unit_runs_it_once_after_networkmanager_and_beside_the_companion() -> None:
    unit: dict[str, list[str]] = {}
    for line in (ROOT / "systemd" / "doge-companion-network.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            unit.setdefault(key, []).append(value)
    assert unit["Type"] == ["oneshot"] and unit["RemainAfterExit"] == ["yes"]
    assert "Before" not in unit, "the companion's first frame does not wait for the Wi-Fi (docs/card-file.md)"
    assert unit["Wants"] == ["NetworkManager.service"]
    assert "NetworkManager.service" in unit["After"][0].split()
    assert unit["ExecStart"] == ["/opt/doge-companion/.venv/bin/doge-companion network"]
    service = (ROOT / "systemd" / "doge-companion.service").read_text()
    ordering = [line for line in service.splitlines() if line.startswith(("After=", "Requires=", "Wants=", "BindsTo="))]
    assert not any("doge-companion-network" in line for line in ordering), ordering
    assert unit["ExecStart"][0].split()[0] == service.split("ExecStart=", 1)[1].split()[0], "the same install"


class Devices(Nmcli):
    """NetworkManager's device table as it changes second by second: one list of (device, type, state) a call."""

    def __init__(self, *tables: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.tables, self.asked = list(tables), 0

    def devices(self) -> list[tuple[str, str, str]]:
        self.asked += 1
        return self.tables[min(self.asked, len(self.tables)) - 1]


def test_with_no_known_network_it_waits_only_while_a_cable_is_still_connecting() -> None:
    """A router slower than the Pi: the cable is getting its address, so the Pi's own network must not open yet."""
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    cable = ("eth0", "ethernet", "connecting (getting IP configuration)")
    slow = Devices([cable], [cable], [("eth0", "ethernet", "connected")])
    assert _wait_connected(slow, 30, False, sleep, lambda: now[0]) == "eth0" and now[0] == 2
    now[0] = 0.0
    nothing = Devices([("wlan0", "wifi", "disconnected")])
    assert _wait_connected(nothing, 30, False, sleep, lambda: now[0]) is None and now[0] == 0, "no wait for nothing"
    known = Devices([("wlan0", "wifi", "disconnected")])
    assert _wait_connected(known, 30, True, sleep, lambda: now[0]) is None and now[0] == 30, "a known network: waited"


def test_while_it_waits_the_state_says_looking_and_after_it_what_came_of_it(tmp_path: Path) -> None:
    """The companion starts before this ends (its LCD lights first): the state file tells it what to say."""
    from companion.system.card import Wifi
    from companion.system.network import configure

    now, seen = [0.0], []
    word = tmp_path / WORD

    def sleep(seconds: float) -> None:
        seen.append(read_state(word))
        now[0] += seconds

    nmcli = Devices([LOOPBACK])
    nmcli.program = sys.executable  # found on PATH: only its device table is asked for
    status = configure(tmp_path, Wifi(wait_seconds=5), lambda line: None, state=tmp_path / STATE, nmcli=nmcli,
                       sleep=sleep, clock=lambda: now[0], group="no-such-group-here")  # fmt: skip
    assert status == 0 and seen and set(seen) == {"looking"}
    assert read_state(word) == "no-wifi"
