"""Put a controller into one mode, so each mode's test drives only that mode's keys and reads its view."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from hardware.events import InputEvent


def press(controller: Controller, source: str, key: str, kind: str = "press") -> None:
    controller.handle(InputEvent(source, key, kind))  # type: ignore[arg-type]


def table(entry: str = "private", seed: int = 1, players: int = 3) -> Table:
    controller = Controller(random.Random(seed), entry=entry)
    at = Table(controller, random.Random(seed), [str(n) for n in range(1, players + 1)], entry == "keypads")
    at.setup()
    return at


def play_until(at: Table, done: Callable[[], bool]) -> None:
    for _ in range(20_000):
        if done():
            return
        at.turn()
    raise AssertionError("never got there")


def read_notices(controller: Controller) -> None:
    while controller.notices:
        press(controller, "host", "ok")
