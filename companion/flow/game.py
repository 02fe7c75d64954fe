"""One game and its record: every line is saved before it counts, and undo and resume come from the record.

The controller asks this for everything that changes the game (a decision, a shuffle, an undo) and gets back what
happened (the engine's board changes and counts) or :class:`NotSaved`, in which case nothing changed at all: the
state, the record and the undo history stay as they were, so what the screen shows is always what is stored.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from ..engine import Decision, DecisionLine, Event, Phase, Replay, ShuffleLine, State, dump_line, parse_header
from ..engine.determinize import draw_order
from ..engine.undo import UndoneLine, undo_line
from ..i18n import _
from .undo_text import refusal


class Saver:
    """Where the game's lines go before they count. This one keeps nothing: a game that is not saved."""

    def begin(self, header: str) -> None:
        """A new game starts with this header line."""

    def save(self, lines: list[str], summary: dict[str, Any]) -> None:
        """Commit ``lines`` durably, or raise an exception whose message is for the screen."""

    def rewind(self, keep: int, summary: dict[str, Any]) -> None:
        """Undo: keep only the first ``keep`` lines."""

    def screen(self, state: dict[str, Any]) -> None:
        """The screen step to resume at (pending notices); best effort."""

    def abandon(self) -> None:
        """The game is given up: kept, marked abandoned (raise with a message for the screen if that fails)."""


class NotSaved(Exception):
    """The store refused a line (its message says why, for the screen); nothing changed."""


class Step(NamedTuple):
    """One applied decision in the undo history: the state before it, where the record stood, whether undoing it
    is allowed (rules.md 11.4: not once it revealed anything, as the engine reports), and the decision itself."""

    before: State
    length: int
    undoable: bool
    line: str
    seat: int
    decision: Decision


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
        self._undone: tuple[Step, UndoneLine] | None = None
        self.players: tuple[str, ...] = ()

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

    def _commit(self, line: str, trial: State) -> None:
        try:
            self.saver.save([line], _summary(trial))
        except Exception as error:  # the store says why (e.g. the disk is full)
            raise NotSaved(str(error)) from error

    def apply(self, seat: int, decision: Decision) -> list[Event]:
        """A decision: saved first, and only then does it count. Raises :class:`NotSaved` and changes nothing."""
        state = self.state
        assert state is not None
        trial = state.copy()
        applied = trial.apply_reporting(seat, decision)  # only legal choices are ever offered
        line = dump_line(DecisionLine(state.players[seat], decision, self.clock() if self.clock else None))
        self._commit(line, trial)
        self.history.append(Step(state, len(self.record), not applied.revealed.anything, line, seat, decision))
        self.state = trial
        self.record.append(line)
        self._note_year_end(state.phase, trial)
        return applied.events

    def shuffle(self) -> list[Event]:
        """The chance line the rules call for now (2.2, 5.3); a shuffle that could not be saved was never shown."""
        state = self.state
        assert state is not None and state.chance_awaited()
        order = draw_order(self.rng)
        trial = state.copy()
        events = trial.shuffle_with_changes(order)
        line = dump_line(ShuffleLine(order, self.clock() if self.clock else None))
        self._commit(line, trial)
        self.state = trial
        self.record.append(line)
        return events

    def _note_year_end(self, phase_before: Phase, after: State) -> None:
        """The year's palaces, for the chart at the end: taken when a decision ends the year (9.1)."""
        if after.phase != phase_before and after.phase in ("year_end", "over"):
            self.palaces_by_year.append(palaces_now(after))

    # ------------------------------------------------------------------ undo

    def undo_blocker(self) -> str | None:
        if not self.history:
            return _("Nothing to undo.")
        if not self.history[-1].undoable:
            return refusal(self.last_decision(), self.players)
        return None

    def last_decision(self) -> UndoneLine:
        """The last decision line seen for undoing it: what it was, the changes that put the table back, what it
        made public (worked out once per line: the screen asks on every press)."""
        step = self.history[-1]
        if self._undone is None or self._undone[0] is not step:
            self._undone = (step, undo_line(step.before, step.seat, step.decision))
        return self._undone[1]

    def undo(self) -> UndoneLine:
        """Back to the state before the last decision (the caller checked :meth:`undo_blocker`); what was undone,
        with the changes that put the table back."""
        undone = self.last_decision()
        step = self.history[-1]
        try:
            self.saver.rewind(step.length, _summary(step.before))
        except Exception as error:  # the store says why
            raise NotSaved(str(error)) from error
        self.history.pop()
        self.state = step.before
        del self.record[step.length :]
        return undone

    # ------------------------------------------------------------------ resume

    def resume(self, lines: list[str]) -> None:
        """Replay a stored record: the same state, undo history (with the same undoable flags) and chart."""
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
                undoable = not read.revealed.anything
                self.history.append(Step(saved, len(self.record), undoable, text, seat, line.decision))
                self._note_year_end(saved.phase, state)
            self.record.append(text)
        self.state = replay.state
