"""Debouncing in software, because gpiozero's ``MockPin`` ignores ``bounce_time`` (STACK-NOTES): doing it here makes
the behaviour the tests see the behaviour the Pi has."""

from __future__ import annotations

from collections.abc import Callable


class Debouncer:
    """Accepts an edge only if the previous accepted edge of the same button is at least ``interval`` seconds old.

    A mechanical contact chatters for a few milliseconds after it closes and opens; the first edge is the real one,
    so it is let through at once (no added latency) and the chatter after it is dropped.
    """

    def __init__(self, interval: float, clock: Callable[[], float]) -> None:
        self.interval = interval
        self._clock = clock
        self._last = float("-inf")
        self.dropped = 0

    def accept(self) -> bool:
        now = self._clock()
        if now - self._last < self.interval:
            self.dropped += 1
            return False
        self._last = now
        return True
