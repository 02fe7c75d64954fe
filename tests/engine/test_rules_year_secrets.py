"""rules.md 9 (end of the year and of the game) and 11 (what is public, what is secret)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest

from companion.engine import AREAS, State, private_view, snapshot
from tests.helpers import RGB, TWO_ROUNDS, Table, order_starting, place, settle

DISTRICTS = AREAS[:6]


def _with_palaces(palaces: Mapping[str, Sequence[str]], houses: Mapping[str, Mapping[str, int]] | None = None) -> Table:
    table = Table()
    place(table.state, palaces=palaces, houses=houses)
    return table


def _spread(player: str, per_district: Sequence[int]) -> dict[str, list[str]]:
    return {d: [player] * k for d, k in zip(DISTRICTS, per_district, strict=False) if k}


@pytest.mark.parametrize(
    ("per_district", "met"),
    [
        ((1, 1, 1, 1, 1, 1), ("six_districts",)),
        ((2, 2, 1, 1, 1, 0), ("seven_in_five",)),
        ((2, 2, 2, 2, 0, 0), ("eight_in_four",)),
        ((2, 2, 2, 1, 1, 0), ("seven_in_five", "eight_in_four")),
        ((3, 2, 1, 1, 0, 0), ()),  # 7 palaces in only 4 districts
        ((3, 3, 2, 0, 0, 0), ()),  # 8 palaces in only 3 districts
        ((1, 1, 1, 1, 1, 0), ()),  # 5 districts, 5 palaces
    ],
)
def test_9_2_victory_conditions(per_district: Sequence[int], met: tuple[str, ...]) -> None:
    table = _with_palaces(_spread("red", per_district))
    assert table.state.victory_conditions(0) == met


def test_9_1_markers_and_cards_return_at_year_end() -> None:
    table = Table()
    table.ballots(TWO_ROUNDS)
    settle(table)
    assert all(p["markers"] == 7 for p in table.snap["players"].values())
    assert private_view(table.state, 0).used_areas == ()
    assert private_view(table.state, 0).markers == (3, 3, 2, 2, 1, 1, 0)


def test_9_2_the_game_ends_at_year_end_when_someone_meets_a_condition() -> None:
    table = _with_palaces(_spread("red", (1, 1, 1, 1, 1, 1)))
    table.ballots(TWO_ROUNDS)
    settle(table)
    snap = table.snap
    assert (snap["phase"], snap["winners"], snap["awaiting"], snap["year"]) == ("over", ["red"], [], 1)
    table.rejects({"shuffle": list(AREAS)}, "the game is over", "(rule 9.2)")
    table.rejects({"player": "red", "ballot": {"area": "castello", "markers": [3]}}, "the game is over")


def test_9_3_the_game_never_ends_mid_year_and_late_palaces_count() -> None:
    palaces = {d: ["red"] for d in DISTRICTS if d != "castello"}
    table = _with_palaces(palaces, houses={"castello": {"red": 1}})
    table.ballots(TWO_ROUNDS)  # Castello comes first: red 10, blue 7
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    table.decide("red", "build", True)
    assert table.state.victory_conditions(0) == ("six_districts",)
    assert table.snap["phase"] == "election", "a condition met mid-year does not end the game"
    settle(table)
    assert table.snap["phase"] == "over" and table.snap["winners"] == ["red"]


@pytest.mark.parametrize(
    ("red_houses", "blue_houses", "winners"),
    [(2, 1, ["red"]), (1, 2, ["blue"]), (2, 2, ["red", "blue"])],
)
def test_9_4_tie_break_palaces_then_houses_then_shared(red_houses: int, blue_houses: int, winners: list[str]) -> None:
    palaces = {d: ["red", "blue"] for d in DISTRICTS}
    table = _with_palaces(palaces, houses={"san_marco": {"red": red_houses, "blue": blue_houses}})
    table.ballots(TWO_ROUNDS)
    settle(table)
    assert table.snap["winners"] == winners


def test_9_4_most_palaces_first() -> None:
    palaces = {d: ["red", "blue"] for d in DISTRICTS}
    palaces["castello"] = ["red", "blue", "red"]
    table = _with_palaces(palaces, houses={"san_marco": {"blue": 5}})
    table.ballots(TWO_ROUNDS)
    settle(table)
    assert table.snap["winners"] == ["red"], "7 palaces beat 6 whatever the houses"


def test_9_5_otherwise_the_next_year_begins() -> None:
    table = _with_palaces(_spread("red", (1, 1, 1, 1, 1, 0)))
    table.ballots(TWO_ROUNDS)
    settle(table)
    assert table.snap["phase"] == "year_end" and table.snap["winners"] == []
    table.do({"shuffle": order_starting("dorsoduro")})
    assert (table.snap["phase"], table.snap["year"]) == ("ballot", 2)


# ---------------------------------------------------------------------------------------------- 11 secrets


def test_11_1_the_chosen_area_is_secret_until_the_reveal() -> None:
    table = Table()
    before = table.snap
    table.ballot("red", "san_marco", 3, 3)
    after = table.snap
    # Only "red is no longer awaited" changes; nothing names the area or the markers.
    assert {k: v for k, v in after.items() if k != "awaiting"} == {k: v for k, v in before.items() if k != "awaiting"}
    assert "san_marco" not in json.dumps(after["stacks"]) and after["players"]["red"]["markers"] == 7
    mine = private_view(table.state, 0)
    assert mine.pending is not None and AREAS[mine.pending.area] == "san_marco"
    assert private_view(table.state, 1).pending is None


def test_11_1_values_stay_secret_counts_are_public() -> None:
    table = Table()
    table.ballots({"red": [("castello", [3, 3])], "blue": [("castello", [0, 1])], "green": [("dorsoduro", [1])]})
    snap = table.snap
    assert snap["stacks"]["castello"] == {"red": 2, "blue": 2}
    # The values held are private: the owner sees them, the snapshot only the count.
    assert private_view(table.state, 0).markers == (2, 2, 1, 1, 0)
    assert snap["players"]["red"]["markers"] == 5


def test_11_2_next_years_order_is_secret_beyond_the_turned_cards() -> None:
    table = Table(next_year=order_starting("santa_croce"))
    assert table.snap["order"]["next_year"] == []
    text = json.dumps(table.snap)
    table.state._next_order = tuple(reversed(table.state._next_order))
    assert json.dumps(table.snap) == text


def test_11_3_everything_else_is_public() -> None:
    table = Table(this_year=order_starting("castello"))
    place(table.state, houses={"dorsoduro": {"blue": 2}}, advisors={"san_polo": ("green", "castello")})
    snap = table.snap
    assert snap["districts"]["dorsoduro"]["houses"] == {"blue": 2}
    assert snap["advisors"]["san_polo"] == {"controller": "green", "area": "castello"}
    assert snap["players"]["blue"]["houses"] == 13 and snap["players"]["green"]["rings"] == 5


def test_11_4_a_choice_cannot_be_changed_once_locked_in() -> None:
    table = Table()
    table.ballot("red", "castello", 3)
    table.rejects(
        {"player": "red", "ballot": {"area": "dorsoduro", "markers": [3]}}, "red has already chosen this round"
    )
    assert private_view(table.state, 0).pending is not None
    assert AREAS[private_view(table.state, 0).pending.area] == "castello"  # type: ignore[union-attr]


def test_private_view_of_one_player_holds_nothing_of_another() -> None:
    state = State(RGB)
    state.shuffle(range(7))
    state.shuffle(range(7))
    state.apply(0, state.legal(0)[-1])
    view = private_view(state, 1)
    assert view.pending is None and view.player == 1
    assert snapshot(state)["players"]["red"]["markers"] == 7
