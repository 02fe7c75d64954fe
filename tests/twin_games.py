"""Random legal games followed by the table twin (shared by the property tests and ``python3 dev.py bench twin``).

Uniformly random play rarely ties, and ties are where instructions went wrong (rules.md 8.6), so the players here
copy each other's ballots (same area, same total) most of the time, place all the houses they may and nearly always
build: tied elections and simultaneous builds then come up in most games.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.engine import (
    Ballot,
    Build,
    Count,
    Decision,
    DecisionLine,
    Houses,
    State,
    change_record,
    snapshot,
)
from companion.engine.determinize import draw_order
from companion.engine.undo import first_reveal, undo_line, undo_record
from tests.twin import TableTwin


def tie_prone_decision(state: State, player: int, rng: random.Random) -> Decision:
    legal = state.legal(player)
    if state.phase == "ballot":
        # A test driver that cheats on purpose (copying others' locked-in ballots makes ties): it reads the engine's
        # private layout, which only tests may do.
        chosen = [b for b in state._pending if b is not None]
        if chosen and rng.random() < 0.7:
            target = rng.choice(chosen)
            same = [
                b
                for b in legal
                if type(b) is Ballot and b.area == target.area and sum(b.markers) == sum(target.markers)
            ]
            if same:
                return rng.choice(same)
        return rng.choice(legal)
    if type(legal[-1]) is Houses and rng.random() < 0.8:
        return legal[-1]
    if type(legal[0]) is Build and rng.random() < 0.9:
        return legal[0]  # build yes
    return rng.choice(legal)


class GameStats:
    """What a batch of games exercised, so a test can show that ties and simultaneous builds really came up."""

    def __init__(self) -> None:
        self.games = 0
        self.lines = 0
        self.changes = 0
        self.ties = 0
        self.simultaneous_builds = 0
        self.undos = 0
        self.undone: Counter[str] = Counter()  # undos by the kind of decision taken back
        self.unseen = 0  # of them, lines that made something public, taken back before the table saw it


def undone_kind(decision: Decision, changes: int) -> str:
    """What kind of decision an undo took back, for the tally of the tests and the benchmark."""
    kind = type(decision).__name__.lower()
    return kind if changes or kind == "ballot" else f"{kind} (nothing on the board)"


def follow_random_game(
    seed: int, players: Sequence[str], stats: GameStats, max_years: int = 400, undo_rate: float = 0.0
) -> None:
    """Play one tie-prone game; after every line the twin carries out its changes and must equal the snapshot.

    With ``undo_rate``, that share of the decision lines is taken back while the line's own board notice is up
    (rules.md 11.4.1): the twin has carried out only the line's own part (what it made public, and what followed
    from that, was still to be shown), then the undo's changes, and must equal the snapshot before the line."""
    rng = random.Random(seed)
    state = State(players)
    twin = TableTwin(players)
    while not state.is_over and state.year <= max_years:
        before = None
        if state.chance_awaited():
            events = state.shuffle_with_changes(draw_order(rng))
        else:
            player = rng.choice(state.awaiting()).player
            decision = tie_prone_decision(state, player, rng)
            before = state.copy() if undo_rate else None
            events = state.apply_with_changes(player, decision)
        changes: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, Count):
                stats.ties += event.winner is None and len(event.first) > 1
            else:
                changes.append(change_record(event, state.players))
        stats.simultaneous_builds += sum(c["do"] == "palace" for c in changes) > 1
        stats.lines += 1
        stats.changes += len(changes)
        if before is not None and rng.random() < undo_rate:
            own = [change_record(e, state.players) for e in events[: first_reveal(events)]]  # no count among them
            twin.follow(own)
            state = undo_at_once(before, DecisionLine(state.players[player], decision), twin, stats)
            continue
        twin.follow(changes)
        differences = twin.differences(snapshot(state))
        assert not differences, f"seed {seed}, line {stats.lines}: {differences} after {changes}"
    stats.games += 1


def undo_at_once(before: State, line: DecisionLine, twin: TableTwin, stats: GameStats) -> State:
    """Take ``line`` back while its own notice is up: the twin follows the undo's changes and must be back at
    ``before``, the state play goes on from."""
    seat = before.players.index(line.player)
    undone = undo_line(before, seat, line.decision)
    stats.unseen += bool(undone.revealed)
    changes = [undo_record(change, before.players) for change in undone.changes]
    twin.follow(changes)
    differences = twin.differences(snapshot(before))
    assert not differences, f"undo of {line}: {differences} after {changes}"
    stats.undos += 1
    stats.undone[undone_kind(line.decision, len(changes))] += 1
    return before
