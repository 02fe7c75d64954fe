"""The game thread between events on the device: it blocks on the queue (no busy loop), and three clocks wake it.
The page timer turns the parts of a long screen (``hardware/page_timer.py``); two seconds with no event give the
store its slow work (a checkpoint, the journal's zeros: ``Store.idle``), which no press should wait for; systemd's
watchdog is told the loop is alive."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from hardware.page_timer import start_page_timer

from .first_boot import watch_network

if TYPE_CHECKING:
    from .app import App

IDLE_S = 2.0  # no event for this long: the store does what no press should wait for (Store.idle)


def serve(app: App, stop: threading.Event) -> None:
    """Until ``stop`` is set or the App stops (the power key)."""
    interval = app.notifier.watchdog_interval
    seconds = app.settings["display"]["page_seconds"]
    if seconds:
        start_page_timer(app.events, stop, seconds)
    last_ping = time.monotonic()
    while not stop.is_set() and not app.stopping:
        event = app.events.get(timeout=IDLE_S if interval is None else min(interval, IDLE_S))
        if event is not None:
            app.step(event)
        else:
            app.store.idle()  # the disk's slow work, while no press waits for it
        watch_network(app)  # until the network unit has said what came of it
        if interval is not None and time.monotonic() - last_ping >= interval:
            app.notifier.watchdog()  # the loop is alive: it came back from waiting or from an event
            last_ping = time.monotonic()
