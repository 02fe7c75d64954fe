"""Drive the engine through real record lines, the way every other part of the companion will."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.app import App
from companion.engine import (
    AREAS,
    Count,
    LineError,
    Replay,
    State,
    change_record,
    dump_header,
    parse_header,
    set_up,
    snapshot,
)
from companion.engine.determinize import draw_order
from companion.engine.record import DecisionLine, ShuffleLine, dump_line
from companion.engine.state import FIELDS
from companion.flow.notice import Notice
from companion.system import config
from tests.twin import TableTwin

RGB = ("red", "blue", "green")
RGBY = ("red", "blue", "green", "yellow")
BOARD_ORDER = list(AREAS)
REVERSED = list(reversed(AREAS))


def order_starting(*first: str) -> list[str]:
    """A voting order that starts with the given areas, then the rest in board order."""
    return list(first) + [a for a in AREAS if a not in first]


class Table:
    """A game in progress, fed line by line; every line goes through the record parser."""

    def __init__(
        self,
        players: Sequence[str] = RGB,
        this_year: Sequence[str] = BOARD_ORDER,
        next_year: Sequence[str] = REVERSED,
    ) -> None:
        self.replay = Replay()
        self.lines: list[str] = []
        self.changes: list[list[dict[str, Any]]] = []  # record-format.md 4, per line
        self.twin = TableTwin(players)
        self.feed(dump_header(players))
        if this_year is not None:
            self.do({"shuffle": list(this_year)})
        if next_year is not None:
            self.do({"shuffle": list(next_year)})

    @classmethod
    def from_header(cls, header: str) -> Table:
        """A table for a record's header line, before any shuffle."""
        return cls(parse_header(header).players, None, None)  # type: ignore[arg-type]

    @property
    def state(self) -> State:
        assert self.replay.state is not None
        return self.replay.state

    @property
    def snap(self) -> dict[str, Any]:
        return snapshot(self.state)

    def seat(self, player: str) -> int:
        return self.state.players.index(player)

    def feed(self, text: str) -> None:
        """Every line's board changes are carried out on a table twin, which must then match the snapshot."""
        if self.replay.state is not None:
            before = snapshot(self.replay.state)
            if self.twin.differences(before):  # a position set up by place(): the table is set up the same way
                self.twin = TableTwin.from_snapshot(before)
        events = self.replay.feed_with_changes(text)
        self.lines.append(text)
        state = self.state
        if len(self.lines) == 1:
            self.twin = TableTwin(state.players)
        self.changes.append([change_record(e, state.players) for e in events if not isinstance(e, Count)])
        self.twin.follow(self.changes[-1])
        assert self.twin.differences(snapshot(state)) == [], (text, self.changes[-1])

    def do(self, line: Mapping[str, Any]) -> None:
        self.feed(json.dumps(line))

    def decide(self, player: str, kind: str, value: Any) -> None:
        self.do({"player": player, kind: value})

    def ballot(self, player: str, area: str, *markers: int) -> None:
        self.decide(player, "ballot", {"area": area, "markers": list(markers)})

    def ballots(self, rounds: Mapping[str, Sequence[tuple[str, Sequence[int]]]]) -> None:
        """Play whole rounds: ``{"red": [("castello", [3, 3]), ...], ...}``, one entry per round per player."""
        for round_index in range(max(len(plan) for plan in rounds.values())):
            for player, plan in rounds.items():
                if round_index < len(plan):
                    area, markers = plan[round_index]
                    self.ballot(player, area, *markers)

    def rejects(self, line: Mapping[str, Any] | str, *fragments: str) -> str:
        """The line is refused with a message containing every fragment, and nothing changes."""
        text = line if isinstance(line, str) else json.dumps(line)
        before = snapshot(self.state)
        before_state = _fields(self.state)
        with pytest.raises(LineError) as caught:
            self.replay.feed(text)
        message = str(caught.value)
        assert message.startswith(f"line {len(self.lines) + 1}: "), message
        for fragment in fragments:
            assert fragment in message, message
        assert snapshot(self.state) == before
        assert _fields(self.state) == before_state
        return message

    def awaiting(self) -> list[tuple[str, str]]:
        return [(item["player"], item["decision"]) for item in self.snap["awaiting"] if "player" in item]


def _fields(state: State) -> dict[str, Any]:
    return {name: getattr(state, name) for name in FIELDS}


place = set_up
"""Set up a position as if earlier years had built it: the engine's position builder (like a FEN in chess tests)."""


def anyone_locked_in(state: State | None) -> bool:
    """Whether a ballot of the round in progress is locked in (public; the ballot itself is not, rules.md 11.1)."""
    return state is not None and any(state.locked_in(seat) for seat in range(state.player_count))


def random_step(state: State, rng: random.Random) -> None:
    """Apply one uniformly random step: a shuffle when chance is awaited, else a legal decision of an awaited player."""
    if state.chance_awaited():
        state.shuffle(draw_order(rng))
    else:
        player = rng.choice(state.awaiting()).player
        state.apply(player, rng.choice(state.legal(player)))


def random_game(
    seed: int, players: Sequence[str] = RGB, max_years: int = 1000
) -> tuple[list[str], list[dict[str, Any]], State]:
    """Play a game choosing uniformly among the engine's legal choices; return record lines, snapshots, state."""
    rng = random.Random(seed)
    state = State(players)
    lines = [dump_header(players)]
    snaps = [snapshot(state)]
    while not state.is_over and state.year <= max_years:
        if state.chance_awaited():
            order = draw_order(rng)
            state.shuffle(order)
            lines.append(dump_line(ShuffleLine(order)))
        else:
            awaited = state.awaiting()
            player = rng.choice(awaited).player
            decision = rng.choice(state.legal(player))
            state.apply(player, decision)
            lines.append(dump_line(DecisionLine(players[player], decision)))
        snaps.append(snapshot(state))
    return lines, snaps, state


PASSIVE = {"advisor": ("abstain", None), "houses": ("houses", 0), "build": ("build", False), "move": ("move", None)}


def settle(table: Table, phase: str = "election") -> None:
    """Answer every awaited election decision passively (abstain, no houses, no build, no move) while in ``phase``."""
    while table.snap["phase"] == phase:
        awaited = table.snap["awaiting"][0]
        kind, value = PASSIVE[awaited["decision"]]
        table.decide(awaited["player"], kind, value)


TWO_ROUNDS = {
    # Every player empties their supply in two rounds, so the elections start after round 2 (rules.md 4.5).
    "red": [("castello", [3, 3, 2, 2]), ("dorsoduro", [1, 1, 0])],
    "blue": [("castello", [3, 2, 1, 1]), ("dorsoduro", [3, 2, 0])],
    "green": [("castello", [1]), ("san_polo", [3, 3, 2, 2]), ("san_marco", [1, 0])],
}


def without_stamps(lines: Sequence[str]) -> list[dict[str, Any]]:
    """Record lines as data, with the optional "t" time stamps taken out (they never affect the rules)."""
    parsed = [json.loads(line) for line in lines]
    for line in parsed[1:]:
        line.pop("t", None)
    return parsed


@contextmanager
def game_thread(app: App) -> Iterator[App]:
    """The app's game thread running in the background; stopped and the app closed afterwards, and whatever the
    thread raised raised here (not lost with the thread)."""
    stop = threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            app.run(stop)
        except BaseException as error:
            failures.append(error)
            raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield app
    finally:
        stop.set()
        app.events.wake()
        thread.join(timeout=10)
        app.close()
        if failures:
            raise failures[0]


def app_settings(state_dir: Path) -> config.Settings:
    """The default settings on simulated hardware, capturing frames, with games kept in ``state_dir``."""
    data = config.load(search=False).data
    data["display"]["driver"] = "capture"
    data["display"]["page_seconds"] = 0  # no clock in a test: a part turns only on a key or a PageTick it gives
    data["pads"]["serial"] = "off"
    data["game"]["state_dir"] = str(state_dir)
    return config.Settings(data, None)


def same_notice(a: Notice | None, b: Notice | None) -> bool:
    """Whether two notices are one notice at two moments (its ticks, parts or joined lines apart): a notice is a
    value, so a confirmation makes a new one in its place that keeps its ``entry``."""
    return a is not None and b is not None and a.entry == b.entry


def still_queued(notice: Notice, notices: Sequence[Notice]) -> bool:
    """Whether ``notice``, in whatever state it has reached, still waits among ``notices``."""
    return any(same_notice(notice, n) for n in notices)
