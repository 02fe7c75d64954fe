"""Undo keeps the board true: whole games through button events in which the host takes decisions back at random.

The table of tests/flow/test_board_sentences.py reads every notice off the shared screen and carries out its board
sentences on the table twin; here the host also holds back at random moments. When the rules allow it (rules.md
11.4), the undo question must name the decision, and after ok the table follows the sentences the screen then shows
and must equal the restored game; when they do not, the refusal must name what became public. Every kind of
decision is taken back somewhere in the batch.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from typing import Any

from companion.engine import Ballot, snapshot
from companion.flow.controller import Controller
from tests.flow.test_board_sentences import ReadingTable, seat_and_start
from tests.twin_games import undone_kind

PUBLIC = re.compile(r"cannot be undone\. It revealed:\n(the ballots of round \d|the count in |next year's card )")
KINDS = {"advisor", "abstain", "houses", "build", "move", "ballot"}


class UndoingTable(ReadingTable):
    """The reading table with a host who holds back now and then (``rate`` of the quiet moments)."""

    def __init__(self, *args: Any, rate: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rate = rate
        self.host_rng = random.Random(len(args[2]))
        self.undone: Counter[str] = Counter()
        self.refusals = 0

    def turn(self) -> None:
        controller = self.controller
        quiet = self.twin is not None and controller.stage == "game" and not controller.notices
        if quiet and not controller.overlays and controller.history and self.host_rng.random() < self.rate:
            self.hold_back()
            return
        super().turn()

    def hold_back(self) -> None:
        controller = self.controller
        blocker = controller.game.undo_blocker()
        self.press("host", "back", "hold")
        if blocker is not None:
            assert controller.notices[0].tag == "undo", controller.screen()
            assert PUBLIC.search(controller.screen().text()), controller.screen().text()
            self.refusals += 1
            return
        undone = controller.game.last_decision()
        before, length = snapshot(controller.history[-1].before), controller.history[-1].length
        kept = controller.record[:length]
        question = controller.screen().text()
        assert "undo" in controller.screen().tags
        if type(undone.decision) is Ballot:
            assert "ballot for this round?" in question
            assert not any(area in question for area in ("Castello", "San ", "Santa", "Dorso", "Canna", "Quarantia"))
        else:
            assert re.search(r"Undo (Red|Blue|Green|Yellow)'s decision: \w", question), question
        self.press("host", "ok")
        state = controller.state
        assert state is not None and controller.record[:length] == kept
        if undone.player not in controller.bots:  # a computer player decides again at once
            assert snapshot(state) == before and len(controller.record) == length
        self.undone[undone_kind(undone.decision, len(undone.changes))] += 1
        # The next turns read the undo notice off the screen; the twin must then equal this snapshot (ReadingTable).


GAMES = [(51, 3, False, 0), (52, 4, True, 1), (53, 3, True, 0), (54, 4, False, 0)]
# CI takes back several hundred decisions; `python3 dev.py bench undo` thousands.
UNDO_GAMES = int(os.environ.get("DOGE_UNDO_SCREEN_GAMES", "8"))


def play_with_undos(seed: int, players: int, keypads: bool, bots: int, rate: float) -> UndoingTable:
    controller = Controller(random.Random(seed))
    controller.sync_bots = True
    pads = [str(n) for n in range(1, players - bots + 1)]
    table = UndoingTable(controller, random.Random(seed + 1), pads, keypads, rate=rate)
    seat_and_start(table, bots)
    table.play()
    state = controller.state
    assert state is not None and state.is_over and table.twin is not None
    assert table.twin.differences(snapshot(state)) == []
    return table


def test_the_table_follows_hundreds_of_undos_read_off_the_screen() -> None:
    kinds: Counter[str] = Counter()
    refusals = 0
    for n in range(UNDO_GAMES):
        seed, players, keypads, bots = GAMES[n % len(GAMES)]
        table = play_with_undos(seed + 100 * n, players, keypads, bots, rate=0.15)
        kinds.update(table.undone)
        refusals += table.refusals
    assert sum(kinds.values()) > 300 and refusals > 100, (kinds, refusals)
    assert set(kinds) >= KINDS, kinds  # each with something to put back on the board, ballots excepted


def test_the_table_follows_undos_through_a_game_and_into_the_next() -> None:
    """The whole evening as a table that knows no rules lives it: a game with undos to its end, the next game started
    from the game-over screen, its board set up afresh because the reminder says so, and more undos there; after
    each game the table's board is the device's."""
    table = play_with_undos(61, 3, False, 0, rate=0.15)
    controller = table.controller
    first_undos = sum(table.undone.values())
    assert first_undos > 10
    table.press("host", "back")  # game over: the next game is offered
    assert "next-game" in controller.screen().tags
    table.press("host", "ok")
    assert controller.stage == "setup"
    table.press("host", "ok")  # the same table, as offered
    assert controller.stage == "game" and len(controller.record) == 3  # a fresh record: header and two shuffles
    reminder = controller.notices[0]
    assert reminder.tag == "reminder" and reminder.page is not None and reminder.page[0] == 1, reminder
    assert "Start with an empty board" in " ".join(line.text for line in reminder.lines)
    table.twin = None  # so the table clears its board and sets it up afresh, as that page says
    table.play()
    state = controller.state
    assert state is not None and state.is_over and table.twin is not None
    assert table.twin.differences(snapshot(state)) == []
    assert sum(table.undone.values()) > first_undos + 10
