"""One game and its record: every line is saved before it counts, and undo and resume come from the record.

The controller asks this for everything that changes the game (a decision, a shuffle, an undo) and gets back what
happened (the engine's board changes and counts) or :class:`NotSaved`, in which case nothing changed at all: the
state, the record and the undo history stay as they were, so what the screen shows is always what is stored.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..engine import Count, Decision, DecisionLine, Event, Phase, Replay, ShuffleLine, State, dump_line, parse_header
from ..engine.determinize import draw_order
from ..engine.undo import Revealed, UndoneLine, revealed_items, undo_line


class Saver:
    """Where the game's lines go before they count. This one keeps nothing: a game that is not saved."""

    def begin(self, header: str) -> None:
        """A new game starts with this header line."""

    def save(self, lines: list[str], summary: dict[str, Any], screen: dict[str, Any] | None = None) -> None:
        """Commit ``lines`` durably, or raise an exception whose message is for the screen; with ``screen``, the
        screen step they lead to (their notices) in the same commit: a power cut never keeps one without the
        other."""

    def rewind(self, keep: int, summary: dict[str, Any]) -> None:
        """Undo: keep only the first ``keep`` lines."""

    def screen(self, state: dict[str, Any]) -> None:
        """The screen step to resume at (pending notices); best effort."""

    def abandon(self) -> None:
        """The game is given up: kept, marked abandoned (raise with a message for the screen if that fails)."""


class NotSaved(Exception):
    """The store refused a line (its message says why, for the screen); nothing changed."""


@dataclass(eq=False)
class Step:
    """One applied decision in the undo history: the state before it, where the record stood (``length``: the
    line's index), the decision itself, what it made public (rules.md 11.4.1: it may be taken back until some of
    that has been shown, which the notices know: ``shown.py``) and the counts it held (the year so far)."""

    before: State
    length: int
    line: str
    seat: int
    decision: Decision
    events: tuple[Event, ...]  # what the rules did for it, in order: the trial's, or the replay's on resume
    reveals: tuple[Revealed, ...]
    counts: tuple[Count, ...]

    @cached_property
    def undone(self) -> UndoneLine:
        """The line seen for undoing it (worked out once: the screen asks on every press)."""
        return undo_line(self.before, self.seat, self.decision)


@dataclass(frozen=True)
class Trial:
    """A decision worked out on a copy of the state and not saved yet: what the controller narrates, so the line is
    saved together with the screen it leads to (``Game.commit``)."""

    seat: int
    decision: Decision
    before: State
    after: State
    events: tuple[Event, ...]
    line: str


@dataclass(frozen=True)
class Chance:
    """A shuffle the rules call for now (2.2, 5.3), drawn and worked out on a copy of the state and not saved yet:
    narrated first, like a :class:`Trial`, so its line is saved together with the screen it leads to."""

    before: State
    after: State
    events: tuple[Event, ...]
    line: str


def _step(before: State, length: int, line: str, seat: int, decision: Decision, events: Sequence[Event]) -> Step:
    counts = tuple(e for e in events if isinstance(e, Count))
    return Step(before, length, line, seat, decision, tuple(events), revealed_items(events, before.round), counts)


def _summary(state: State) -> dict[str, Any]:
    """What the store lists about a game (``doge-companion games``)."""
    return {
        "status": "over" if state.is_over else "playing",
        "year": state.year,
        "winners": [state.players[s] for s in state.winners],
    }


def palaces_now(state: State) -> dict[str, int]:
    return {p: state.palaces_of(i) for i, p in enumerate(state.players)}


class Game:
    def __init__(self, saver: Saver, rng: random.Random, clock: Callable[[], str] | None = None) -> None:
        self.saver = saver
        self.rng = rng  # the chance (shuffles): the OS's randomness in play, a seeded one for tests and demos
        self.clock = clock
        self.state: State | None = None
        self.record: list[str] = []
        self.history: list[Step] = []
        self.palaces_by_year: list[dict[str, int]] = []
        self.players: tuple[str, ...] = ()
        self._screen: dict[str, Any] | None = None  # the screen step saved last (its notices)

    def begin(self, header: str) -> None:
        players = parse_header(header).players
        try:
            self.saver.begin(header)
        except Exception as error:  # the store says why (e.g. the disk is full)
            raise NotSaved(str(error)) from error
        self.state = State(players)
        self.players = tuple(players)
        self.record = [header]
        self.history = []
        self.palaces_by_year = []

    def _commit(self, line: str, trial: State, screen: dict[str, Any] | None = None) -> None:
        try:
            self.saver.save([line], _summary(trial), screen)
        except Exception as error:  # the store says why (e.g. the disk is full)
            raise NotSaved(str(error)) from error
        if screen is not None:
            self._screen = screen

    def trial(self, seat: int, decision: Decision) -> Trial:
        """A decision on a copy of the state: nothing is saved and nothing changes until :meth:`commit`."""
        state = self.state
        assert state is not None
        after = state.copy()
        applied = after.apply_reporting(seat, decision)  # only legal choices are ever offered
        line = dump_line(DecisionLine(state.players[seat], decision, self.clock() if self.clock else None))
        return Trial(seat, decision, state, after, tuple(applied.events), line)

    def shuffle(self) -> Chance:
        """The chance line the rules call for now (2.2, 5.3), drawn on a copy: nothing is saved and nothing changes
        until :meth:`commit` (a shuffle that could not be saved was never shown)."""
        state = self.state
        assert state is not None and state.chance_awaited()
        order = draw_order(self.rng)
        after = state.copy()
        events = after.shuffle_with_changes(order)
        line = dump_line(ShuffleLine(order, self.clock() if self.clock else None))
        return Chance(state, after, tuple(events), line)

    def commit(self, trial: Trial | Chance, screen: dict[str, Any] | None = None) -> None:
        """The line saved (with ``screen``, the screen step it leads to, in the same commit), and only then does it
        count: a decision joins the undo history, a shuffle never does. Raises :class:`NotSaved` and changes
        nothing."""
        assert trial.before is self.state, "a trial of the state as it is"
        self._commit(trial.line, trial.after, screen)
        if isinstance(trial, Trial):
            step = _step(trial.before, len(self.record), trial.line, trial.seat, trial.decision, trial.events)
            self.history.append(step)
            self._note_year_end(trial.before.phase, trial.after)
        self.state = trial.after
        self.record.append(trial.line)

    def _note_year_end(self, phase_before: Phase, after: State) -> None:
        """The year's palaces, for the chart at the end: taken when a decision ends the year (9.1)."""
        if after.phase != phase_before and after.phase in ("year_end", "over"):
            self.palaces_by_year.append(palaces_now(after))

    def save_screen(self, screen: dict[str, Any]) -> None:
        """The screen step to resume at, saved when it changed (best effort: the saver says nothing if it fails)."""
        if screen != self._screen:
            self._screen = screen
            self.saver.screen(screen)

    # ------------------------------------------------------------------ undo

    def undo(self, target: Step) -> None:
        """Back to the state before ``target`` and every decision after it (the caller checked that 11.4 allows it:
        ``undo_chain.py``). Raises :class:`NotSaved` and changes nothing if the store cannot cut the record."""
        index = self.history.index(target)
        assert len(self.record) - target.length == len(self.history) - index, "an undo never crosses a shuffle"
        try:
            self.saver.rewind(target.length, _summary(target.before))
        except Exception as error:  # the store says why
            raise NotSaved(str(error)) from error
        del self.history[index:]
        self.state = target.before
        del self.record[target.length :]
        while len(self.palaces_by_year) > target.before.year - 1:  # the year's end was taken back
            self.palaces_by_year.pop()

    # ------------------------------------------------------------------ resume

    def resume(self, lines: list[str], screen: dict[str, Any] | None = None) -> None:
        """Replay a stored record: the same state, undo history and chart (what of it was shown comes with the
        notices the screen saved, ``screen``, which is not saved again)."""
        self._screen = screen
        replay = Replay()
        replay.feed(lines[0])
        self.players = parse_header(lines[0]).players
        self.record = [lines[0]]
        self.history = []
        self.palaces_by_year = []
        for text in lines[1:]:
            state = replay.state
            assert state is not None
            saved = state.copy()
            read = replay.read(text)
            line = read.line
            if type(line) is DecisionLine:
                seat = state.players.index(line.player)
                self.history.append(_step(saved, len(self.record), text, seat, line.decision, read.events))
                self._note_year_end(saved.phase, state)
            self.record.append(text)
        self.state = replay.state
