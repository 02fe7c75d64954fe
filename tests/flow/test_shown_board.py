"""rules.md 11.4.1: while a decision may still be taken back (its count not yet shown), every public channel shows
the board before it plus its own board changes, and nothing the rules did after the unseen count.

The phones, the table view, the board check and the year so far all draw `Seen.board` (flow/shown.py). Once it
took the board after the whole line: an advisor gone neutral on a tie, the Quarantia's advisors back home, the
winner's houses were on every phone while the count that caused them waited behind the decision's own notice, and
the player who caused the tie could read it and ask for the undo, which was granted."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import Count, State, snapshot
from companion.engine.changes import AdvisorBack, PutMarkers, TurnCard, change_record
from companion.flow.controller import Controller
from companion.flow.modes import BoardCheck
from companion.flow.modes import board_check as board_check_mode
from companion.flow.shown import BOARD_CHANGES, change_board, unseen
from companion.web.views import public_view
from tests.helpers import random_step
from tests.scripted_table import ScriptedTable

BOARD = ("districts", "advisors")


def board(snap: dict[str, Any]) -> dict[str, Any]:
    supplies = {p: {k: v for k, v in s.items() if k != "markers"} for p, s in snap["players"].items()}
    return {"supplies": supplies, **{key: snap[key] for key in BOARD}}


def test_the_board_changes_made_to_a_snapshot_are_the_engines() -> None:
    """What the shown board is built with: each board change (record-format.md 4) made to the snapshot before a line
    gives the snapshot after it, over whole random games (every decision's changes, counts and reveals included)."""
    lines = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = State(("red", "blue", "green", "yellow")[: 3 + seed % 2])
        while not state.is_over and state.year <= 12:
            if state.chance_awaited():
                random_step(state, rng)
                continue
            player = rng.choice(state.awaiting()).player
            decision = rng.choice(state.legal(player))
            shown = snapshot(state)
            for event in state.apply_with_changes(player, decision):
                if isinstance(event, BOARD_CHANGES):
                    change_board(shown, change_record(event, state.players))
            assert board(shown) == board(snapshot(state)), (seed, lines)
            lines += 1
    assert lines > 1000


def unseen_after_changes(controller: Controller) -> list[Any]:
    """The board changes of pending lines that the rules made after a reveal no screen has shown yet (a card, a
    count): the events after the first one that makes public something still unseen."""
    hidden = unseen(controller.notices)
    found = []
    for step, _items in controller.seen.hidden_steps:
        made: list[Any] = []  # what the events made public so far, as engine.undo.revealed_items lists it
        for index, event in enumerate(step.events):
            ballots = type(event) is PutMarkers and (not made or made[-1][0] != "ballots")
            if isinstance(event, Count) or type(event) is TurnCard or ballots:
                made.append(step.reveals[len(made)])
                if (step.length, made[-1]) in hidden:
                    found += [e for e in step.events[index:] if isinstance(e, BOARD_CHANGES)]
                    break
    return found


def board_check(controller: Controller, drawn: list[dict[str, Any]]) -> dict[str, Any]:
    """The snapshot the board check draws (its pages are views of it)."""
    drawn.clear()
    controller.overlays.append(BoardCheck())
    controller.screen()
    controller.overlays.pop()
    return drawn[0]


def test_11_4_1_no_channel_shows_what_the_rules_did_after_a_count_nobody_has_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[dict[str, Any]] = []
    real = board_check_mode.board_view

    def board_view(snap: dict[str, Any], view: int) -> Any:
        drawn.append(snap)
        return real(snap, view)

    monkeypatch.setattr(board_check_mode, "board_view", board_view)
    checks = ahead = 0
    for seed in range(40):
        table = ScriptedTable(seed)
        table.setup()
        controller = table.controller
        while controller.stage != "over" and len(table.script) < 50_000:
            pending = controller.seen.hidden_steps if controller.state is not None else []
            if pending:
                checks += 1
                shown = controller.seen.board
                assert public_view(controller)["snapshot"] == shown == board_check(controller, drawn)
                oldest = pending[-1][0]
                expected = snapshot(oldest.before)
                for step in controller.history[controller.history.index(oldest) :]:
                    own = step.events[: next((i for i, e in enumerate(step.events) if isinstance(e, Count)), None)]
                    for event in own:
                        if isinstance(event, BOARD_CHANGES):
                            change_board(expected, change_record(event, step.before.players))
                assert board(shown) == board(expected)
                after = unseen_after_changes(controller)
                if after:
                    ahead += 1
                    assert board(shown) != board(snapshot(controller.state)), "the board ran ahead of its count"
                    for change in after:
                        if type(change) is AdvisorBack:
                            record = change_record(change, controller.players)
                            standing = shown["advisors"][record["advisor"]]
                            assert standing is not None and standing != [], record
            table.turn()
        if ahead >= 6:
            break
    assert ahead >= 6, (checks, ahead)
