"""The game record (record-format.md 1): writing its lines, and replaying them through the rules (reading one
line is :mod:`.parse`'s). :class:`Replay` reports a line's problem with the line number (record-format.md 3).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..i18n import _
from .areas import AREAS
from .decisions import (
    Abstain,
    Advisor,
    Ballot,
    Build,
    Decision,
    HouseMove,
    Houses,
    Move,
)
from .errors import IllegalDecisionError, MalformedLineError, RecordError
from .lines import DecisionLine, Header, Line, Read, ShuffleLine
from .parse import FORMAT_VERSION, parse_header, parse_line
from .state import Event, State, revealed_by
from .tasks import Revealed

# ---------------------------------------------------------------------- writing


def _move_json(move: HouseMove | None) -> dict[str, str] | None:
    return None if move is None else {"from": AREAS[move.source], "to": AREAS[move.target]}


def decision_json(decision: Decision) -> tuple[str, Any]:
    """The KIND and VALUE of a decision line (record-format.md 1.3)."""
    if type(decision) is Ballot:
        return "ballot", {"area": AREAS[decision.area], "markers": list(decision.markers)}
    if type(decision) is Advisor:
        return "advisor", AREAS[decision.area]
    if type(decision) is Abstain:
        return "abstain", _move_json(decision.move)
    if type(decision) is Houses:
        return "houses", decision.number
    if type(decision) is Build:
        return "build", decision.build
    if type(decision) is Move:
        return "move", _move_json(decision.move)
    raise TypeError(f"not a decision: {decision!r}")


def dump_header(players: Sequence[str], **extra: Any) -> str:
    return json.dumps({"doge": FORMAT_VERSION, "players": list(players), **extra}, ensure_ascii=False)


def dump_line(line: Line) -> str:
    if type(line) is ShuffleLine:
        obj: dict[str, Any] = {"shuffle": [AREAS[a] for a in line.order]}
    else:
        kind, value = decision_json(line.decision)  # type: ignore[union-attr]
        obj = {"player": line.player, kind: value}  # type: ignore[union-attr]
    if line.t is not None:
        obj["t"] = line.t
    return json.dumps(obj)


# ---------------------------------------------------------------------- replaying


class LineError(Exception):
    """A record problem at a given 1-based line: ``str()`` is exactly what record-format.md 3 prints."""

    def __init__(self, number: int, error: RecordError) -> None:
        self.number = number
        self.error = error
        super().__init__(f"line {number}: {error}")


class Replay:
    """A record being read line by line into a :class:`State` (the header first)."""

    def __init__(self) -> None:
        self.state: State | None = None
        self.header: Header | None = None
        self.lines = 0
        self._index: dict[str, int] = {}

    def feed(self, text: str) -> None:
        """Read one line (without its line ending); raise :class:`LineError` and change nothing if it is bad."""
        state = self.state
        try:
            if state is None:
                self.header = parse_header(text)
                self.state = State(self.header.players)
                self._index = {player: seat for seat, player in enumerate(self.header.players)}
            else:
                self._feed(state, text)
                return
        except RecordError as error:
            raise LineError(self.lines + 1, error) from None
        self.lines += 1

    def _feed(self, state: State, text: str) -> Line:
        try:
            line = parse_line(text, state.players)
            if type(line) is DecisionLine:
                state.apply(self._index[line.player], line.decision)
            else:
                state.shuffle(line.order)  # type: ignore[union-attr]
        except RecordError as error:
            raise LineError(self.lines + 1, error) from None
        self.lines += 1
        return line

    def read(self, text: str) -> Read:
        """:meth:`feed`, returning the line as read and what it did: its board changes and counts, and what it made
        public. Every reader of records (resume, export, ``replay --changes``) goes through here."""
        state = self.state
        if state is None:
            self.feed(text)
            assert self.header is not None
            return Read(self.lines, self.header, [], Revealed())
        events = state.begin_changes()
        try:
            line = self._feed(state, text)
        finally:
            state.end_changes()
        return Read(self.lines, line, events, revealed_by(events, shuffle=type(line) is ShuffleLine))

    def feed_with_changes(self, text: str) -> list[Event]:
        """:meth:`feed`, reporting the line's board changes and counts (record-format.md 4); none for the header."""
        state = self.state
        if state is None:
            self.feed(text)
            return []
        changes = state.begin_changes()
        try:
            self.feed(text)
        finally:
            state.end_changes()
        return changes


def split_lines(raw: Iterable[bytes]) -> Iterator[str]:
    """record-format.md 1: decode raw lines (as a binary file iterates them, LF kept); a CR before LF is tolerated.

    Raises :class:`LineError` for a byte-order mark, text that is not UTF-8, a blank line, or an empty record.
    Works on a stream, so a replay can report each line as it arrives.
    """
    number = 0
    for number, chunk in enumerate(raw, 1):
        if number == 1 and chunk.startswith(b"\xef\xbb\xbf"):
            raise LineError(
                1, MalformedLineError(_("the record starts with a byte-order mark; save it as UTF-8 without BOM"))
            )
        if chunk.endswith(b"\n"):
            chunk = chunk[:-1]
        if chunk.endswith(b"\r"):
            chunk = chunk[:-1]
        if not chunk:
            raise LineError(number, MalformedLineError(_("blank lines are not allowed in a record")))
        try:
            yield chunk.decode("utf-8")
        except UnicodeDecodeError:
            raise LineError(number, MalformedLineError(_("the line is not UTF-8 text"))) from None
    if number == 0:
        raise LineError(1, MalformedLineError(_("the record is empty: it must start with a header line")))


def replay_text(lines: Iterable[str]) -> State:
    """Replay record lines (header first) and return the final state; :class:`LineError` on the first bad one."""
    replay = Replay()
    for text in lines:
        replay.feed(text)
    if replay.state is None:
        raise LineError(1, MalformedLineError(_("the record is empty: it must start with a header line")))
    return replay.state


__all__ = [
    "DecisionLine",
    "Header",
    "IllegalDecisionError",
    "LineError",
    "Replay",
    "ShuffleLine",
    "decision_json",
    "dump_header",
    "dump_line",
    "parse_header",
    "parse_line",
    "replay_text",
    "split_lines",
]
