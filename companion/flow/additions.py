"""What the App adds to the device's screens for what the game flow knows nothing of (the phones: their join code,
a seat open on two devices, the board check's phones page). Added before a screen is cut into parts for a small
display, so what is added is paged with the rest and never cut off."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from display.screen import Screen

if TYPE_CHECKING:
    from .context import Context
    from .modes.base import Mode


@dataclass(frozen=True)
class DeviceNotes:
    """What the device says of itself at setup (modes/setup.py): why the card file was left out, one line; the
    Wi-Fi network the Pi opened at boot, its name and the rows of its QR code (the password is in nothing else)."""

    card_problem: str | None = None
    hardware: tuple[str, ...] = ()  # what the hardware check found missing (app/hardware_check.py), a line each
    looking: bool = False  # the network unit still looks for Wi-Fi: no address to join by yet
    wifi_name: str | None = None
    wifi_qr: tuple[str, ...] | None = None


class Additions:
    """Adds nothing by default; the App gives the controller its own (app/phones.py)."""

    def __init__(self) -> None:
        self.pages: list[Callable[[Context], Screen]] = []  # board-check pages after the board's own
        self.device = DeviceNotes()  # what setup says of the device (the App sets it)

    def add(self, ctx: Context, top: Mode, screen: Screen) -> Screen:
        """``screen``, the view of ``top`` (the mode or overlay on top), with what the App adds to it."""
        return screen
