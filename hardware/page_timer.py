"""The clock that turns a notice's parts while the players read it (issue 43): at 160x128 a count or a year's end
comes in parts, and a player's ok on their pad always means "done", never "more", so the parts must come up by
themselves. The game flow never reads a clock: this thread only says that some seconds passed (``PageTick``), and
the flow decides whether anything turns (``routing.turn_by_itself``). A script or autoplay has no clock: its table
turns parts with ``PageTick`` events of its own."""

from __future__ import annotations

import threading

from .events import EventQueue, PageTick

PAGE_SECONDS = 6.0
"""How long a part stays up: long enough to read three lines at the table, short enough that the last of seven
parts comes round within 40 s."""


def start_page_timer(events: EventQueue, stop: threading.Event, seconds: float = PAGE_SECONDS) -> threading.Thread:
    def tick() -> None:
        while not stop.wait(seconds):
            events.put(PageTick())

    thread = threading.Thread(target=tick, name="page timer", daemon=True)
    thread.start()
    return thread
