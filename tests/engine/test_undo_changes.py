"""Undo at the table (companion/engine/undo.py): the changes that put the board back after a decision is taken back.

Random tie-prone games in which a third of the decision lines is taken back while its own board notice is up
(rules.md 11.4.1): the table twin carries out the line's own part, then the undo's changes, literally, and must then
equal the snapshot before the line, also for a line whose reveals (a count, a turned card) were still to be shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.changes import (
    AdvisorBack,
    BuildPalace,
    Change,
    MoveAdvisor,
    MoveHouses,
    PlaceHouses,
    TakeAdvisor,
)
from companion.engine.undo import HousesBack, PalaceBack, reverse_change, reverse_changes
from companion.flow.board_text import change_text
from companion.i18n import set_language
from tests.helpers import RGB, RGBY
from tests.sentences import read_sentence
from tests.twin_games import GameStats, follow_random_game

# CI undoes a few hundred decisions; `python3 dev.py bench undo` thousands.
GAMES = int(os.environ.get("DOGE_UNDO_GAMES", "40"))
KINDS = {"advisor", "abstain", "houses", "build", "move", "ballot"}


@pytest.mark.parametrize("players", [RGB, RGBY], ids=["3 players", "4 players"])
def test_undoing_decisions_at_random_puts_the_table_back(players: tuple[str, ...]) -> None:
    stats = GameStats()
    for seed in range(GAMES // 2):
        follow_random_game(seed, players, stats, max_years=30, undo_rate=0.3)
    assert stats.undos > 100 and stats.unseen > 10, (stats.undos, stats.unseen)
    assert set(stats.undone) >= KINDS, stats.undone


def test_an_undone_palace_comes_off_before_the_houses_that_were_placed_go() -> None:
    forward: list[Change] = [PlaceHouses(0, 3, 2), BuildPalace(0, 3, 3, 3)]
    assert reverse_changes(forward) == (PalaceBack(0, 3, 3, 3), HousesBack(0, 3, 2))


def test_a_ring_taken_from_another_player_goes_back_to_them() -> None:
    # 7.2: Blue's ring came off the Castello advisor when Red took control of it and stood it in San Polo.
    forward: list[Change] = [AdvisorBack(1, 1, 2), TakeAdvisor(0, 1, 4)]
    assert reverse_changes(forward) == (AdvisorBack(0, 1, 4), TakeAdvisor(1, 1, 2))


areas = st.integers(0, 5)


@given(st.sampled_from([PlaceHouses, MoveHouses, BuildPalace, TakeAdvisor, MoveAdvisor, AdvisorBack]), areas, areas)
def test_undoing_an_undo_gives_the_change_back(kind: type, a: int, b: int) -> None:
    makers: dict[type, Callable[[], Change]] = {
        PlaceHouses: lambda: PlaceHouses(1, a, 2),
        MoveHouses: lambda: MoveHouses(1, a, b, 1),
        BuildPalace: lambda: BuildPalace(1, a, 4, 4),
        TakeAdvisor: lambda: TakeAdvisor(1, a, b),
        MoveAdvisor: lambda: MoveAdvisor(1, a, b, a),
        AdvisorBack: lambda: AdvisorBack(1, a, b),
    }
    change = makers[kind]()
    back = reverse_change(change)
    if type(back) in (HousesBack, PalaceBack):
        return  # the two undo-only kinds have no reverse of their own: nothing is redone
    assert reverse_change(back) == change  # type: ignore[arg-type]


def test_the_undo_sentences_read_back_as_the_changes() -> None:
    set_language("en")
    texts = [change_text(c, RGB) for c in (HousesBack(0, 3, 2), HousesBack(1, 0, 1), PalaceBack(2, 5, 4, 4))]
    assert texts == [
        "Red: take 2 houses from San Marco back to your supply",
        "Blue: take a house from Cannaregio back to your supply",
        "Green: take your palace off the space marked 4 in Santa Croce and put 4 houses back there",
    ]
    assert [read_sentence(t) for t in texts] == [
        {"do": "houses_back", "player": "red", "count": 2, "district": "san_marco"},
        {"do": "houses_back", "player": "blue", "count": 1, "district": "cannaregio"},
        {"do": "palace_back", "player": "green", "space": 4, "district": "santa_croce", "houses": 4},
    ]
