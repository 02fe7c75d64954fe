"""What the App adds to the device's screens for what the game flow knows nothing of (the phones: their join code,
a seat open on two devices, the board check's phones page). Added before a screen is cut into parts for a small
display, so what is added is paged with the rest and never cut off."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from display.screen import Screen

if TYPE_CHECKING:
    from .context import Context
    from .modes.base import Mode


class Additions:
    """Adds nothing by default; the App gives the controller its own (app/phones.py)."""

    def __init__(self) -> None:
        self.pages: list[Callable[[Context], Screen]] = []  # board-check pages after the board's own

    def add(self, ctx: Context, top: Mode, screen: Screen) -> Screen:
        """``screen``, the view of ``top`` (the mode or overlay on top), with what the App adds to it."""
        return screen
