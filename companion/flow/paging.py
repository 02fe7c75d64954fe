"""Which part of a long screen the table sees: a notice, a board-check page or the standings can be too long for a
small display (160x128, above all in German), and are then shown in parts (``display/pages.py``).

The App tells the size (``size``); the host's ok on a notice, or right and left on the board check and the standings,
turn the parts before they go on to what follows. With no size (the tests' controllers, computer players) nothing is
cut, so what a test reads is the whole screen. A new screen always starts at its first part.
"""

from __future__ import annotations

from dataclasses import replace

from display.pages import paginate
from display.screen import Screen


class Parts:
    def __init__(self) -> None:
        self.size: tuple[int, int] | None = None  # the display's, set by the App
        self.text_size = "normal"  # the [display] text_size setting, set by the App
        self.index = 0
        self.count = 1  # the parts of the screen last shown
        self._of: Screen | None = None

    def show(self, screen: Screen, keep: bool = False) -> Screen:
        """The part of ``screen`` to show now: the first, if the screen is not the one shown before, unless ``keep``
        and the screen before was of the same kind (setup changed in place: a setting changed on its second part)."""
        if self.size is None:
            return screen
        if replace(screen, keys=()) != self._of:  # the same screen with other keys (its last part's) goes on
            if not (keep and self._of is not None and self._of.tags == screen.tags):
                self.index = 0
            self._of = replace(screen, keys=())
        parts = paginate(screen, self.size, self.text_size)
        self.count = len(parts)
        self.index = min(self.index, self.count - 1)
        return parts[self.index]

    def next(self) -> bool:
        """On to the next part of the screen shown; False if it was the last (the key then does what it does)."""
        if self.index + 1 < self.count:
            self.index += 1
            return True
        return False

    def back(self) -> bool:
        if self.index > 0:
            self.index -= 1
            return True
        return False

    def first(self) -> None:
        self.index = 0
