"""Light from the first seconds: the companion starts beside the network unit, not after it. Setup says it looks
for Wi-Fi (and shows no join code, whose address is not known yet) until the unit's state word says what came of it;
then the Pi's own network's code, or the join code at the address the Pi now has."""

from __future__ import annotations

import json
from pathlib import Path

from companion.app import App
from companion.app.first_boot import NETWORK_WAIT_S, NetworkWatch, watch_network
from companion.flow.context import DeviceNotes
from companion.store import Store
from companion.system.hotspot import write_state
from hardware.events import InputEvent
from tests.helpers import app_settings
from tests.web.memory import Pages


def test_the_watch_says_looking_until_the_unit_has_said_what_came_of_it(tmp_path: Path) -> None:
    hotspot = tmp_path / "hotspot.json"
    now = [0.0]
    watch = NetworkWatch(hotspot, expected=True, clock=lambda: now[0])
    assert watch.looking and not watch.poll(), "before the unit has started: looking, nothing new"
    write_state(tmp_path / "state", "looking", None)
    assert watch.poll() and watch.looking
    write_state(tmp_path / "state", "connected", None)
    assert watch.poll() and not watch.looking and watch.state == "connected"
    write_state(tmp_path / "state", "looking", None)
    assert not watch.poll(), "once known, nothing is read again"
    assert not NetworkWatch(tmp_path / "no-unit" / "hotspot.json", expected=False).looking, "no unit: no waiting"
    late = NetworkWatch(tmp_path / "none" / "hotspot.json", expected=True, clock=lambda: now[0])
    now[0] = NETWORK_WAIT_S + 1
    assert late.poll() and not late.looking, "a unit that never ran is not waited for past its own timeout"


def test_setup_looks_for_wifi_then_shows_the_pis_own_network(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    app = App(app_settings(tmp_path), seed=3, store=Store(None, memory=True))
    try:
        app.network = NetworkWatch(run / "hotspot.json", expected=True)
        Pages(app, ["a"])
        app.controller.additions.device = DeviceNotes(looking=True)
        app.show(app.controller.screen())
        assert app.screen is not None
        assert app.screen.lines[0].text == "Looking for Wi-Fi ..." and app.screen.qr is None, "no code to scan yet"
        watch_network(app)
        assert app.screen.lines[0].text == "Looking for Wi-Fi ...", "nothing new: the same screen"
        (run / "hotspot.json").write_text(json.dumps({"ssid": "Doge-AB12", "password": "secret-words"}))
        write_state(run / "state", "hotspot", None)
        watch_network(app)
        assert app.screen.title == "Wi-Fi" and app.screen.qr, "the Pi's own network's code comes first"
        assert app.screen.lines[0].text == "Join the Wi-Fi Doge-AB12"
        app.step(InputEvent("host", "ok"))  # the next part at once
        assert "Looking for Wi-Fi ..." not in [line.text for line in app.screen.lines]
        assert app.screen.qr and app.screen.lines[-1].text == "Phones: scan the code to join", "then the join code"
    finally:
        app.close()


def test_the_wifi_chips_line_waits_until_the_network_unit_is_done(tmp_path: Path) -> None:
    """At the companion's start brcmfmac may still be loading: a Zero 2 W's missing firmware is said once the unit
    has given up finding a Wi-Fi device, not before."""
    from companion.app.first_boot import wifi_notes
    from tests.test_check_hardware import zero_2_w_without_log

    root = zero_2_w_without_log(tmp_path)
    notes = wifi_notes(DeviceNotes(hardware=("before",)), root)
    assert notes.hardware == (
        "before",
        "This board's Wi-Fi chip has no firmware in Debian 12: use Raspberry Pi OS and install.sh",
    )
    (root / "sys" / "class" / "net" / "wlan0" / "wireless").mkdir(parents=True)
    assert wifi_notes(DeviceNotes(), root).hardware == ()


def test_the_clock_is_not_on_the_lcd(tmp_path: Path) -> None:
    from companion.app.hardware_check import Finding, screen_lines

    assert screen_lines([Finding("clock", "missing", "2023-02-05, before this version's release")]) == ()


class Glass:
    size = (160, 128)

    def __init__(self) -> None:
        self.shown: list[object] = []

    def show(self, image: object) -> None:
        self.shown.append(image)


def test_a_pis_lcd_shows_starting_before_anything_else_and_a_capture_does_not(tmp_path: Path) -> None:
    from companion.app.first_boot import show_starting

    settings = app_settings(tmp_path)
    pi = {**settings.data, "hardware": "pi", "display": {**settings.data["display"], "driver": "st7735"}}
    glass = Glass()
    show_starting(pi, glass)
    assert len(glass.shown) == 1 and glass.shown[0].size == (160, 128)  # type: ignore[attr-defined]
    capture = Glass()
    show_starting(settings.data, capture)
    assert capture.shown == [], "a capture's frames are the game's (tests, screenshots)"
