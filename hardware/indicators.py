"""What lights and sounds for a player, whatever the pad: one protocol for GPIO LEDs and buzzer and USB keypads.

The game flow's cues (``companion.flow.cues``) become ``led``/``beep`` calls on the pad that ``source`` names; each
kind of pad does what it can with them (a GPIO pad has one LED, the turn light; a keypad has one per key) and
ignores the rest, so the App never asks which kind of pad a seat uses.
"""

from __future__ import annotations

from typing import Literal, Protocol

LedState = Literal["on", "off", "blink"]


class Indicators(Protocol):
    def led(self, source: str, target: str, state: str) -> None:
        """Set LED ``target`` (``turn``, ``all``, or a keypad key) of the pad ``source`` to on, off or blink."""

    def beep(self, source: str, ms: int = 80) -> None:
        """A short beep where the pad ``source`` can make one."""

    def close(self) -> None: ...
