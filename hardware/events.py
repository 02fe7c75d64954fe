"""Logical input events: what any button, pad or script means, whatever produced it."""

from __future__ import annotations

import queue
import re
from typing import Literal, NamedTuple

from companion.engine.areas import AREAS
from companion.engine.decisions import Decision

Kind = Literal["press", "hold"]
HOST = "host"
NAV_KEYS = ("left", "right", "ok", "back")
AREA_KEYS = tuple(f"area:{area}" for area in AREAS)
MARKER_KEYS = tuple(f"marker:{value}" for value in range(4))
KEYPAD_KEYS = NAV_KEYS + AREA_KEYS + MARKER_KEYS
POWER = "power"  # the host's back button held for buttons.shutdown_hold_s: switch the Pi off
# A phone pad shows a menu's options as buttons: "pick:2" picks the third option at once (companion/web).
PICK_KEYS = tuple(f"pick:{index}" for index in range(32))
_KEY_SET = frozenset((*KEYPAD_KEYS, *PICK_KEYS, POWER))


class InputEvent(NamedTuple):
    """``source`` is ``"host"`` (the device's own buttons) or a pad number ``"1"``..``"4"``."""

    source: str
    key: str
    kind: Kind = "press"

    def __str__(self) -> str:
        """The scripted-input spelling: ``2 area:san_marco``, ``host hold:back``."""
        return f"{self.source} {self.key}" if self.kind == "press" else f"{self.source} hold:{self.key}"


class PadStatus(NamedTuple):
    """A pad was plugged in (and said hello) or unplugged: the screen tells the players."""

    source: str
    connected: bool


class PageTick(NamedTuple):
    """A few seconds passed (``hardware/page_timer.py``): a notice the players are reading in parts shows its
    next part by itself, as their "done" on their pads never turns one (tests/web/test_pad_done.py). Spelled
    ``wait`` in a script."""

    def __str__(self) -> str:
        return "wait"


class BotMove(NamedTuple):
    """A computer player's answer, computed off the game thread; ``token`` says which moment it answers."""

    seat: int
    decision: Decision
    token: int


class WebPress(NamedTuple):
    """A key pressed on a phone pad (companion/web): ``view`` is the version of the view it was pressed on."""

    phone: str  # the phone: the SHA-256 of its seat token (hex), never the token
    key: str
    view: int


class WebHello(NamedTuple):
    """A phone's page connected: it is sent its view, and at setup it sits down (once)."""

    phone: str


class SeatRequest(NamedTuple):
    """A phone asks for ``colour``'s seat; only the host can give it, on the device."""

    phone: str
    colour: str


class WebDevices(NamedTuple):
    """How many browsers have a page open on one phone's seat token now, and have had in this run: more than one
    means the seat's cookie was copied (or moved), which the seat's phones and the device show."""

    phone: str
    open: int
    seen: int


WebEvent = WebPress | WebHello | SeatRequest | WebDevices
Event = InputEvent | PadStatus | PageTick | BotMove | WebEvent
"""Everything the game thread is handed: keys, pads plugged in or out, computer players' answers, phones."""

_EVENT_TEXT = re.compile(r"(host|[1-4])\s+(hold:)?(\S+)\Z")


def parse_event(text: str) -> InputEvent:
    """Read an event in its scripted spelling; ``ValueError`` names what is wrong."""
    match = _EVENT_TEXT.match(text.strip())
    if match is None:
        raise ValueError(f"expected '<source> <key>' with source host or 1-4, e.g. '2 ok', not {text.strip()!r}")
    source, hold, key = match.groups()
    if key not in _KEY_SET:
        raise ValueError(f"unknown key {key!r}; keys are {', '.join(NAV_KEYS)}, area:<area>, marker:<0-3>")
    return InputEvent(source, key, "hold" if hold else "press")


def is_key(key: str) -> bool:
    return key in _KEY_SET


class EventQueue:
    """The one queue all adapters feed; safe to call from any thread (hardware callbacks run on their own)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event | None] = queue.SimpleQueue()

    def put(self, event: Event) -> None:
        self._queue.put(event)

    def wake(self) -> None:
        """Make a waiting :meth:`get` return None at once (to stop, or to look at something else)."""
        self._queue.put(None)

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, waiting up to ``timeout`` seconds (blocking, no busy loop); None on time-out or wake."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[Event]:
        events: list[Event] = []
        while True:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                return events
            if event is not None:
                events.append(event)
