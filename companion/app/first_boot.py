"""What setup says of the device at a card image's first boot (flow/modes/setup.py draws it): a card file left out,
in the table's language; the Wi-Fi network the Pi opened (system/hotspot.py), as its QR code."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from ..flow.additions import DeviceNotes
from ..system.hotspot import Hotspot, hotspot_path, read_hotspot
from ..web.join import qr_rows

log = logging.getLogger(__package__)


def device_notes(settings: Any, pi: bool = False) -> DeviceNotes:
    """Once the table's language is set: the card file's problem, said in it; on a Pi (``pi``), what the hardware
    check finds missing (app/hardware_check.py), each said in one line, and logged in full."""
    hardware: tuple[str, ...] = ()
    if pi:
        from .hardware_check import check_hardware, screen_lines

        findings = check_hardware(settings.data)
        for finding in findings:
            if finding.state == "missing":
                log.warning("hardware: %s", finding.line())
        hardware = screen_lines(findings)
    return DeviceNotes(card_problem=settings.card_line(), hardware=hardware)


def open_network() -> Hotspot | None:
    """The Pi's own network, if `doge-companion network` opened one at this boot."""
    hotspot = read_hotspot(hotspot_path())
    if hotspot is not None:
        log.info("the Pi's own Wi-Fi %s is open: its QR code comes first at setup", hotspot.ssid)
    return hotspot


def with_hotspot(notes: DeviceNotes, hotspot: Hotspot) -> DeviceNotes:
    return replace(notes, wifi_name=hotspot.ssid, wifi_qr=qr_rows(hotspot.qr_text))
