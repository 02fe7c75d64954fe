"""Tables to test with, shared by the flow's tests: press a key, seat a table, and reach a moment of a game.

A moment is reached through the record where it can be: :func:`resumed_at` reads a stored game (tests/records/)
up to the first line after which the state is the one asked for, and resumes a controller there, as the device does
after a power cut (``Controller.resume``), instead of playing thousands of simulated presses to get there. A test
that needs the table's own path to a moment (notices read, menus wandered) plays it with :func:`play_until`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

from companion.engine import Replay, State, dump_header, parse_header
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.game import Saver
from companion.flow.modes import BoardCheck
from hardware.events import InputEvent

RECORDS = Path(__file__).resolve().parent.parent / "records"


def press(controller: Controller, source: str, key: str, kind: str = "press") -> None:
    controller.handle(InputEvent(source, key, kind))  # type: ignore[arg-type]


def table(entry: str = "private", seed: int = 1, players: int = 3, saver: Saver | None = None) -> Table:
    """A table of ``players`` keypads (pads "1".."n") that has joined and started a game, at its first notice."""
    controller = Controller(random.Random(seed), entry=entry, saver=saver)
    at = Table(controller, random.Random(seed), [str(n) for n in range(1, players + 1)], entry == "keypads")
    at.setup()
    return at


def started(entry: str = "private", seed: int = 1, players: int = 3) -> tuple[Controller, Table]:
    at = table(entry, seed, players)
    return at.controller, at


def read_notices(controller: Controller) -> None:
    """The host reads every notice on the table away."""
    while controller.notices:
        press(controller, "host", "ok")


def play_until(at: Table, done: Callable[[], bool], most: int = 20_000) -> None:
    """The simulated table plays until ``done``: for a moment that only the table's own presses lead to."""
    for _ in range(most):
        if done():
            return
        at.turn()
    raise AssertionError("never got there")


@cache
def stored(name: str) -> tuple[str, ...]:
    """A whole game from tests/records/ (the corpus the engine's tests replay), line by line."""
    return tuple((RECORDS / f"{name}.jsonl").read_text().splitlines())


def resumed_at(
    done: Callable[[State], bool], name: str = "uniform-3p-seed1", entry: str = "private", seed: int = 1
) -> Controller:
    """A controller at the first moment of the stored game ``name`` where ``done(state)`` holds, resumed from its
    record with no notices pending (the table has read them), ballots entered ``entry``'s way."""
    lines = stored(name)
    replay = Replay()
    replay.feed(lines[0])
    for length in range(2, len(lines) + 1):
        replay.read(lines[length - 1])
        state = replay.state
        assert state is not None
        if done(state):
            break
    else:
        raise AssertionError(f"{name} never gets there")
    header = parse_header(lines[0])
    pads = [str(n) for n in range(1, len(header.players) + 1)]
    head = dump_header(header.players, app="doge-companion", entry=entry, language="en", pads=pads, bots={})
    controller = Controller(random.Random(seed), entry=entry)
    controller.resume([head, *lines[1:length]], {})
    return controller


def board_page(controller: Controller) -> int | None:
    """The board check's page, if it is open."""
    return next((o.page for o in reversed(controller.between.overlays) if type(o) is BoardCheck), None)
