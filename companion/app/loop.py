"""The game thread between events on the device: it blocks on the queue (no busy loop), and three clocks wake it.
The page timer turns the parts of a long screen once the part shown has been up its time (``hardware/page_timer.py``:
it counts from the moment the part appeared); two seconds with no event give the store its slow work (a checkpoint,
the journal's zeros: ``Store.idle``), which no press should wait for; systemd's watchdog is told the loop is alive."""

from __future__ import annotations

import random
import sys
import threading
import time
from typing import TYPE_CHECKING

from ..i18n import _
from .first_boot import watch_network

if TYPE_CHECKING:
    from .app import App

IDLE_S = 2.0  # no event for this long: the store does what no press should wait for (Store.idle)


def serve(app: App, stop: threading.Event) -> None:
    """Until ``stop`` is set or the App stops (the power key)."""
    interval = app.notifier.watchdog_interval
    last_ping = time.monotonic()
    while not stop.is_set() and not app.stopping:
        page = app.page_timer.due_in()
        waits = (IDLE_S, *(() if interval is None else (interval,)), *(() if page is None else (page,)))
        event = app.events.get(timeout=min(waits))
        if event is not None:
            app.step(event)
            app.turn_page_if_due()  # a stream of events does not hold a part up past its time
        elif not app.turn_page_if_due():
            app.store.idle()  # the disk's slow work, while no press waits for it
        watch_network(app)  # until the network unit has said what came of it
        if interval is not None and time.monotonic() - last_ping >= interval:
            app.notifier.watchdog()  # the loop is alive: it came back from waiting or from an event
            last_ping = time.monotonic()


def autoplay_table(app: App, stop: threading.Event, seed: int) -> int:
    """A simulated table plays (demos, the crash harness) until the game is over: the game thread's other way."""
    from ..flow.autoplay import Table

    rng = random.Random(seed)
    controller = app.controller
    pads: list[str] = [source for source, _colour in controller.seats.joined]
    pads = pads or [str(n) for n in range(1, rng.choice((3, 4)) + 1)]
    keypads = controller.seats.entry == "keypads" if controller.seats.joined else rng.random() < 0.5
    table = Table(controller, rng, pads, keypads, handle=app.step)
    if controller.stage == "setup":
        table.setup()
    while not stop.is_set() and (controller.stage != "over" or controller.notices):
        table.turn()
        app.notifier.watchdog()
        if app.controller.not_saved_shown:  # a line could not be saved: a simulated table cannot make room
            print(
                _("doge-companion: autoplay stopped: {problem}").format(problem=app.store.failure),
                file=sys.stderr,
                flush=True,
            )
            return 1
    return 0
