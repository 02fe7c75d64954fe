"""Board changes (record-format.md 4): following them literally, on a table that knows no rules, rebuilds the board.

Every rule test's game already runs through the twin (tests/helpers.Table); here: many random games with ties and
simultaneous builds forced often, the rulebook's worked examples, and the guarantees one by one.
"""

from __future__ import annotations

import os
import random

import pytest

from companion.bots import HardBot, make_bot, make_view
from companion.engine import Ballot, Count, State, change_record, snapshot
from companion.engine.changes import BuildPalace, PutMarkers, TurnCard
from companion.engine.determinize import draw_order
from companion.flow.board_text import change_text
from companion.i18n import set_language
from tests.engine.test_rules_elections import _san_marco_tie, elect
from tests.helpers import RGB, RGBY, Table, order_starting, place
from tests.test_bots import SMALL_WORK
from tests.twin import Infeasible, TableTwin
from tests.twin_games import GameStats, follow_random_game

# CI plays a few hundred; `python3 dev.py bench twin` (or DOGE_TWIN_GAMES=5000) plays thousands.
GAMES = int(os.environ.get("DOGE_TWIN_GAMES", "400"))


@pytest.mark.parametrize("players", [RGB, RGBY], ids=["3 players", "4 players"])
def test_following_the_changes_rebuilds_the_board_in_random_games(players: tuple[str, ...]) -> None:
    stats = GameStats()
    for seed in range(GAMES // 2):
        follow_random_game(seed, players, stats)
    assert stats.games == GAMES // 2
    # The games must exercise what used to go wrong, or passing would prove little.
    assert stats.ties > stats.games and stats.simultaneous_builds > stats.games // 10


def test_8_6_anna_and_bernd_both_pay_five_and_take_spaces_five_and_six() -> None:
    # The rulebook's example: San Marco holds 2 palaces; Anna (red) and Bernd (blue) tie and both build for 5.
    table = _san_marco_tie(["green", "green"])
    table.decide("blue", "build", True)
    assert table.changes[-1] == [], "builds wait for the last answer (8.6)"
    table.decide("red", "build", True)
    assert table.changes[-1][:3] == [
        {"do": "palace", "player": "red", "district": "san_marco", "houses_back": 5, "space": 5},
        {"do": "palace", "player": "blue", "district": "san_marco", "houses_back": 5, "space": 6},
        {"do": "card", "area": table.snap["order"]["next_year"][0]},  # then San Marco's election is over
    ]
    set_language("en")
    texts = [change_text(BuildPalace(p, 3, 5, 5 + p), RGB) for p in (0, 1)]
    assert texts == [
        "Red: take 5 houses from San Marco back to your supply and put a palace on the space marked 5",
        "Blue: take 5 houses from San Marco back to your supply and put a palace on the space marked 6",
    ]


def test_8_6_a_three_way_tie_builds_at_once_each_paying_the_first_free_space() -> None:
    def setup(state: State) -> None:
        place(state, houses={"castello": {"red": 2, "blue": 3, "green": 4}}, palaces={"castello": ["yellow"]})

    table = elect("castello", {"red": [3], "blue": [2, 1], "green": [3]}, setup, players=RGBY)
    for player in ("green", "red", "blue"):  # any order (record-format.md 1.3)
        table.decide(player, "houses", 2)
        assert table.changes[-1] == [{"do": "houses", "player": player, "district": "castello", "count": 2}]
    assert table.awaiting() == [("red", "build"), ("blue", "build"), ("green", "build")]
    for player in ("blue", "green", "red"):
        table.decide(player, "build", True)
    assert [c for c in table.changes[-1] if c["do"] == "palace"] == [
        {"do": "palace", "player": p, "district": "castello", "houses_back": 4, "space": space}
        for p, space in (("red", 4), ("blue", 5), ("green", 6))
    ]
    assert table.snap["districts"]["castello"]["houses"] == {"blue": 1, "green": 2}


def test_8_4_a_single_palace_names_its_printed_space_three_to_seven() -> None:
    table = elect("castello", {"red": [3, 3]}, lambda s: place(s, houses={"castello": {"red": 1}}))
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    table.decide("red", "build", True)
    assert table.changes[-1][0] == {
        "do": "palace",
        "player": "red",
        "district": "castello",
        "houses_back": 3,
        "space": 3,
    }


def test_4_3_markers_are_placed_even_when_their_area_finishes_at_the_reveal() -> None:
    # Red's last ballot is a lone 0-marker on Castello, the first area of the order: at the reveal Castello's
    # election finishes at once (6.5). The marker must still be told, before the card that election turns.
    table = Table(RGB, this_year=order_starting("castello"))
    table.ballots(
        {
            "red": [("dorsoduro", [3, 3, 2, 2]), ("san_polo", [1, 1]), ("castello", [0])],
            "blue": [("dorsoduro", [3, 3, 2, 2]), ("san_polo", [1, 1, 0])],
            "green": [("san_marco", [3, 3, 2, 2]), ("san_polo", [1, 1, 0])],
        }
    )
    reveal = table.changes[-1]
    assert reveal[0] == {"do": "markers", "player": "red", "area": "castello", "count": 1}
    assert reveal[1]["do"] == "card"
    assert table.snap["area"] == "dorsoduro" and "castello" not in table.snap["stacks"]


def test_11_1_a_ballot_before_the_reveal_reports_nothing() -> None:
    # The choice is secret until the round's reveal (rules.md 11.1): no change may hint at it.
    rng = random.Random(5)
    state = State(RGB)
    state.shuffle(draw_order(rng))
    state.shuffle(draw_order(rng))
    for player in (0, 1):
        assert state.apply_with_changes(player, rng.choice(state.legal(player))) == []
    assert [type(e) for e in state.apply_with_changes(2, rng.choice(state.legal(2)))] == [PutMarkers] * 3


def test_changes_are_the_same_whatever_the_marker_values() -> None:
    # A reveal tells counts only: two rounds with the same areas and marker counts but other values report the same.
    def reveal(values: tuple[int, ...]) -> list[object]:
        state = State(RGB)
        state.shuffle(range(7))
        state.shuffle(range(7))
        state.apply(0, Ballot(1, values))
        state.apply(1, Ballot(2, (1,)))
        return [e for e in state.apply_with_changes(2, Ballot(3, (2,))) if type(e) is not Count]

    assert reveal((3, 2)) == reveal((0, 1)) == [PutMarkers(0, 1, 2), PutMarkers(1, 2, 1), PutMarkers(2, 3, 1)]


def test_the_twin_refuses_what_the_table_cannot_do() -> None:
    twin = TableTwin(RGB)
    with pytest.raises(Infeasible):
        twin.carry_out({"do": "move", "player": "red", "from": "castello", "to": "dorsoduro", "count": 1})
    twin.carry_out({"do": "houses", "player": "red", "district": "castello", "count": 3})
    with pytest.raises(Infeasible):
        twin.carry_out({"do": "palace", "player": "red", "district": "castello", "houses_back": 4, "space": 3})
    with pytest.raises(Infeasible):
        twin.carry_out({"do": "advisor_back", "player": "red", "advisor": "castello", "from": "dorsoduro"})
    with pytest.raises(Infeasible):
        twin.carry_out({"do": "new_year", "year": 2})


def test_a_turned_card_follows_each_finished_election() -> None:
    rng = random.Random(3)
    state = State(RGB)
    state.shuffle(draw_order(rng))
    state.shuffle(draw_order(rng))
    turned = []
    while not state.chance_awaited():  # to the end of year 1
        player = state.awaiting()[0].player
        turned += [
            e.area for e in state.apply_with_changes(player, rng.choice(state.legal(player))) if type(e) is TurnCard
        ]
    assert turned == list(state._next_order)
    assert [change_record(e, RGB) for e in state.shuffle_with_changes(draw_order(rng))] == [
        {"do": "new_year", "year": 2}
    ]


@pytest.mark.parametrize("levels", [("normal", "easy", "normal"), ("hard", "normal", "normal", "easy")])
def test_games_of_computer_players_are_followed_by_the_twin(levels: tuple[str, ...]) -> None:
    rng = random.Random(len(levels))
    bots = [make_bot(level, seed) for seed, level in enumerate(levels)]
    for bot in bots:
        if isinstance(bot, HardBot):
            bot.work, bot.pinned = SMALL_WORK, True  # enough to exercise its search, the same on any machine
    players = RGBY[: len(levels)]
    state = State(players)
    twin = TableTwin(players)
    while not state.is_over:
        assert state.year < 100
        if state.chance_awaited():
            events = state.shuffle_with_changes(draw_order(rng))
        else:
            seat = state.awaiting()[0].player
            events = state.apply_with_changes(seat, bots[seat].decide(make_view(state, seat, rng, bots[seat].samples)))
        twin.follow(change_record(e, players) for e in events if not isinstance(e, Count))
        assert twin.differences(snapshot(state)) == []
    assert state.winners
