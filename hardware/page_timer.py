"""The clock that turns a notice's parts while the players read it: at 160x128 a count or a year's end comes in
parts, and a player's ok on their pad always means "done", never "more", so the parts must come up by themselves.
The game flow never reads a clock: the App's loop says that a part has been up its time (``PageTick``), and the flow
decides whether anything turns (``routing.turn_by_itself``). A script or autoplay has no clock: its table turns
parts with ``PageTick`` events of its own.

The timer counts from the moment a part appears, not on a fixed beat: on a fixed beat a new screen's first part was
up for whatever was left of the beat (down to 0.02 s in tests/flow/test_part_times.py's evening)."""

from __future__ import annotations

import time
from collections.abc import Callable

PAGE_SECONDS = 6.0
"""How long a part stays up: long enough to read three lines at the table, short enough that the last of seven
parts comes round within 40 s."""


class PageTimer:
    """When the part shown is due to turn: ``restart`` whenever a part appears (a new screen or another part of it)
    and after each tick. ``clock``: seconds, monotonic (a test gives its own, so no test sleeps)."""

    def __init__(self, seconds: float = PAGE_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds  # 0: no timer, only keys turn parts
        self.clock = clock
        self._since = clock()

    def restart(self) -> None:
        self._since = self.clock()

    def due_in(self) -> float | None:
        """Seconds until the part shown has been up its time (0: it has), None without a timer."""
        if not self.seconds:
            return None
        return max(0.0, self._since + self.seconds - self.clock())
