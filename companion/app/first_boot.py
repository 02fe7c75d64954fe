"""What setup says of the device at a card image's first boot (flow/modes/setup.py draws it): a card file left out,
in the table's language; the Wi-Fi network the Pi opened (system/hotspot.py), as its QR code; while the network unit
still looks for Wi-Fi, that it does (the companion starts beside it, not after it, so the LCD lights at once)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from display.render import render
from display.screen import Line, Screen

from ..flow.context import DeviceNotes
from ..i18n import _
from ..system.hotspot import LOOKING, Hotspot, hotspot_path, read_hotspot, read_state, state_path
from ..web.join import qr_rows

log = logging.getLogger(__package__)


def device_notes(settings: Any, pi: bool = False, wifi: bool = True) -> DeviceNotes:
    """Once the table's language is set: the card file's problem, said in it; on a Pi (``pi``), what the hardware
    check finds missing (app/hardware_check.py), each said in one line, and logged in full. The Wi-Fi chip is left
    out while the network unit still looks for it (not ``wifi``): brcmfmac may still be loading its firmware."""
    hardware: tuple[str, ...] = ()
    if pi:
        from .hardware_check import check_hardware, screen_lines

        findings = [f for f in check_hardware(settings.data) if wifi or f.part != "wifi"]
        for finding in findings:
            if finding.state == "missing":
                log.warning("hardware: %s", finding.line())
        hardware = screen_lines(findings)
    return DeviceNotes(card_problem=settings.card_line(), hardware=hardware)


def wifi_notes(notes: DeviceNotes, root: Path = Path("/")) -> DeviceNotes:
    """Once the network unit is done: the Wi-Fi chip's line, if its firmware is missing."""
    from .hardware_check import check_wifi, kernel_log, screen_lines

    finding = check_wifi(root, kernel_log(root))
    if finding.state != "missing":
        return notes
    log.warning("hardware: %s", finding.line())
    return replace(notes, hardware=(*notes.hardware, *screen_lines([finding])))


def on_lcd(settings: Any) -> bool:
    """A Pi with its LCD: the hardware check and the network unit's word matter there (a capture has neither)."""
    return bool(settings["hardware"] != "mock" and settings["display"]["driver"] != "capture")


def show_starting(settings: Any, display: Any) -> None:
    """The first frame, before the store is opened and the hardware checked: a Pi's LCD is never dark for long."""
    if on_lcd(settings):
        starting = Screen(_("Starting ..."), (Line("Doge Companion", "normal"),), tags=("starting",))
        display.show(render(starting, display.size, text_size=settings["display"]["text_size"]))


def first_notes(settings: Any) -> tuple[NetworkWatch, DeviceNotes]:
    """What setup says of the device at start, and the watch on the network unit (``watch_network``)."""
    lcd = on_lcd(settings)
    network = NetworkWatch(hotspot_path(), expected=lcd and network_expected())
    return network, replace(device_notes(settings, pi=lcd, wifi=not network.looking), looking=network.looking)


def watch_network(app: Any) -> None:
    """Between events on the game thread (loop.py), while the network unit looks for Wi-Fi: once it says what came
    of it, the Pi's own network's code or the address phones join at (the App's web pads), and the screen again."""
    watch: NetworkWatch = app.network
    if not watch.poll():
        return
    notes = replace(app.controller.additions.device, looking=watch.looking)
    if not watch.looking and on_lcd(app.settings):
        notes = wifi_notes(notes)
    hotspot = read_hotspot(watch.hotspot_file) if watch.state == "hotspot" else None
    if hotspot is not None:
        notes = with_hotspot(notes, hotspot)
    if app.web is not None:
        from ..web.server import lan_address

        app.web.address = hotspot.address if hotspot is not None else lan_address(app.web.bind)
        log.info("web pads: the network is known (%s): phones join at %s", watch.state, app.web.address)
        if app.web.unreachable:
            log.warning("web pads: no network but loopback once the network unit is done: phones cannot reach it")
    app.controller.tell_device(notes)
    app.show(app.controller.screen())


def open_network() -> Hotspot | None:
    """The Pi's own network, if `doge-companion network` opened one at this boot."""
    hotspot = read_hotspot(hotspot_path())
    if hotspot is not None:
        log.info("the Pi's own Wi-Fi %s is open: its QR code comes first at setup", hotspot.ssid)
    return hotspot


def with_hotspot(notes: DeviceNotes, hotspot: Hotspot) -> DeviceNotes:
    return replace(notes, wifi_name=hotspot.ssid, wifi_qr=qr_rows(hotspot.qr_text))


NETWORK_UNIT = Path("/etc/systemd/system/multi-user.target.wants/doge-companion-network.service")
NMCLI = Path("/usr/bin/nmcli")  # the unit's ConditionPathExists: without it the unit never runs
NETWORK_WAIT_S = 720.0  # the unit's TimeoutStartSec: after it, nothing more will come


def network_expected() -> bool:
    """Whether the network unit will run at this boot (enabled, with NetworkManager's nmcli to run)."""
    return NETWORK_UNIT.exists() and NMCLI.exists()


class NetworkWatch:
    """What the network unit is doing (system/hotspot.py's state word), read again while it still looks: ``looking``
    is True from before the unit has started (when it is ``expected``) until it says what came of it."""

    def __init__(self, hotspot: Path | None, expected: bool, clock: Callable[[], float] = time.monotonic) -> None:
        self.hotspot_file = hotspot
        self.path = state_path(hotspot)
        self.expected = expected and self.path is not None
        self.clock = clock
        self.until = clock() + NETWORK_WAIT_S
        self.state = read_state(self.path)

    @property
    def looking(self) -> bool:
        return self.state == LOOKING or (self.state is None and self.expected)

    def poll(self) -> bool:
        """Whether what it says changed since it was last asked; nothing is read once it is known."""
        if not self.looking:
            return False
        state = read_state(self.path)
        if state is None and self.clock() > self.until:
            self.expected = False  # the unit did not run after all: stop saying it looks
            return True
        changed, self.state = state != self.state, state
        return changed
