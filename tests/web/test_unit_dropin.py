"""The web pads' systemd drop-in opens the network only as far as a table's Wi-Fi needs, and keeps the rest of the
unit's sandbox (systemd/web-pads.conf)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.web.hub import Limits

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "doge-companion.service"
DROP_IN = ROOT / "systemd" / "web-pads.conf"
NETWORK = {"PrivateNetwork", "PrivateMounts", "IPAddressDeny", "IPAddressAllow", "RestrictAddressFamilies"}


def settings(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))


def with_drop_in() -> str:
    """The unit as systemd reads it with the drop-in (each of its settings replaces the unit's)."""
    extra = settings(DROP_IN.read_text())
    lines = [line for line in UNIT.read_text().splitlines() if line.split("=", 1)[0] not in extra]
    at = lines.index("[Install]")
    return "\n".join([*lines[:at], *(f"{key}={value}" for key, value in extra.items()), "", *lines[at:]]) + "\n"


def test_the_drop_in_touches_only_the_network() -> None:
    assert set(settings(DROP_IN.read_text())) == NETWORK
    allowed = settings(DROP_IN.read_text())["IPAddressAllow"].split()
    assert "any" not in allowed and all(not re.fullmatch(r"0\.0\.0\.0/0|::/0", item) for item in allowed)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not on this machine")
def test_with_the_drop_in_the_exposure_stays_low(tmp_path: Path) -> None:
    unit = tmp_path / "doge-companion.service"
    unit.write_text(with_drop_in())
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit)], capture_output=True, text=True, timeout=60
    )
    match = re.search(r"Overall exposure level for doge-companion\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout[-500:] + result.stderr
    assert float(match[1]) <= 1.5  # 0.8 without a network; listening on the Wi-Fi costs 0.6


def test_the_file_limit_fits_the_web_pads_caps() -> None:
    """The unit's LimitNOFILE leaves the rest of the companion (its store, log, keypads, sound: a few
    dozen) 256 descriptors beyond every socket the web pads' limits allow, so no guest can use them all up; and
    the drop-in keeps it."""
    limit = int(settings(with_drop_in())["LimitNOFILE"])
    assert Limits().descriptors() + 256 <= limit
    assert limit <= 4096  # a guest's flood meets the server's caps, not the whole machine's
