"""rules.md 1 to 5: components, setup, the year, the ballot phase and the voting order."""

from __future__ import annotations

from companion.engine import AREAS, State, private_view, snapshot
from tests.helpers import RGB, RGBY, TWO_ROUNDS, Table, order_starting, place, settle


def test_1_1_each_player_starts_with_15_houses_8_palaces_6_rings_7_markers() -> None:
    snap = Table().snap
    assert snap["players"] == {p: {"houses": 15, "palaces": 8, "rings": 6, "markers": 7} for p in RGB}
    assert private_view(Table().state, 0).markers == (3, 3, 2, 2, 1, 1, 0)


def test_1_1_three_players_use_three_colours_only() -> None:
    assert set(Table().snap["players"]) == set(RGB)
    assert set(Table(RGBY).snap["players"]) == set(RGBY)


def test_1_2_nine_advisors_six_district_and_three_identical_quarantia() -> None:
    table = Table()
    advisors = table.snap["advisors"]
    assert set(advisors) == set(AREAS)
    assert [advisors[d] for d in AREAS[:6]] == [None] * 6 and advisors["quarantia"] == []
    # Identical: the snapshot lists controlled Quarantia advisors sorted, never by which one was taken.
    place(table.state, quarantia=[("red", "castello"), ("blue", "dorsoduro"), ("red", "cannaregio")])
    assert table.snap["advisors"]["quarantia"] == [
        {"controller": "blue", "area": "dorsoduro"},
        {"controller": "red", "area": "cannaregio"},
        {"controller": "red", "area": "castello"},
    ]


def test_1_3_two_decks_means_two_shuffles_at_setup() -> None:
    table = Table(this_year=None, next_year=None)  # type: ignore[arg-type]
    assert table.snap["phase"] == "setup" and table.snap["awaiting"] == [{"chance": "shuffle"}]
    table.do({"shuffle": list(AREAS)})
    assert table.snap["phase"] == "setup" and table.snap["awaiting"] == [{"chance": "shuffle"}]
    table.do({"shuffle": list(AREAS)})
    assert table.snap["phase"] == "ballot"


def test_1_4_no_house_in_supply_means_no_houses_decision() -> None:
    table = Table(this_year=order_starting("castello"))
    place(table.state, houses={"san_polo": {"red": 15}})
    table.ballots(TWO_ROUNDS)
    assert table.awaiting() == [("red", "advisor")]
    table.decide("red", "abstain", None)
    # red (winner) has no house to place: skipped; blue is the runner-up (10.2.1 step 3).
    assert table.awaiting() == [("blue", "houses")]


def test_1_4_no_palace_in_supply_means_no_build() -> None:
    table = Table(this_year=order_starting("castello"))
    place(
        table.state,
        houses={"castello": {"red": 3}},
        palaces={"cannaregio": ["red"] * 5, "dorsoduro": ["red"] * 3},
    )
    table.ballots(TWO_ROUNDS)
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    assert table.awaiting() == [("blue", "houses")], "5 houses but no palace left: no build is awaited"


def test_1_4_no_free_ring_means_abstain_only() -> None:
    table = Table(this_year=order_starting("quarantia"))
    state = table.state
    place(state, advisors=dict.fromkeys(AREAS[:6], ("red", "quarantia")))
    table.ballots(
        {
            "red": [("quarantia", [3, 3, 2, 2]), ("dorsoduro", [1, 1, 0])],
            "blue": [("quarantia", [1]), ("castello", [3, 2, 2, 1]), ("san_polo", [3, 0])],
            "green": [("castello", [3]), ("san_polo", [3, 2, 2, 1]), ("san_marco", [1, 0])],
        }
    )
    assert state._rings[0] == 0
    assert {type(choice).__name__ for choice in state.legal(0)} == {"Abstain"}
    table.rejects({"player": "red", "advisor": "castello"}, "red has no free ring and must abstain (rule 7.3)")


def test_2_1_setup_everything_in_supply_and_advisors_neutral() -> None:
    snap = Table().snap
    assert all(d == {"houses": {}, "palaces": []} for d in snap["districts"].values())
    assert all(v is None for k, v in snap["advisors"].items() if k != "quarantia")
    assert snap["stacks"] == {} and snap["winners"] == []


def test_2_2_this_years_order_public_next_years_secret() -> None:
    table = Table(this_year=order_starting("san_marco"), next_year=order_starting("dorsoduro"))
    assert table.snap["order"] == {"this_year": order_starting("san_marco"), "next_year": []}


def test_2_3_seat_order_is_header_order() -> None:
    table = Table(players=("zoe", "adam", "mia"))
    assert table.awaiting() == [("zoe", "ballot"), ("adam", "ballot"), ("mia", "ballot")]


def test_3_1_a_year_is_ballot_then_election_then_year_end() -> None:
    table = Table()
    phases = [table.snap["phase"]]
    table.ballots(TWO_ROUNDS)
    phases.append(table.snap["phase"])
    settle(table)
    phases.append(table.snap["phase"])
    assert phases == ["ballot", "election", "year_end"]
    assert table.snap["year"] == 1


def _count_rounds(players: tuple[str, ...]) -> int:
    """Play one marker per round until the election phase starts."""
    table = Table(players)
    rounds = 0
    while table.snap["phase"] == "ballot":
        rounds += 1
        assert table.snap["round"] == rounds
        for player, _ in table.awaiting():
            table.ballot(player, AREAS[rounds - 1], (3, 3, 2, 2)[rounds - 1])
    return rounds


def test_4_1_four_rounds_with_three_players_three_with_four() -> None:
    assert _count_rounds(RGB) == 4
    assert _count_rounds(RGBY) == 3


def test_4_2_a_player_with_no_marker_left_sits_the_round_out() -> None:
    table = Table()
    table.ballots(
        {
            "red": [("castello", [3, 3, 2, 2]), ("dorsoduro", [1, 1, 0])],
            "blue": [("castello", [3]), ("dorsoduro", [3])],
            "green": [("castello", [1]), ("dorsoduro", [3])],
        }
    )
    assert table.snap["round"] == 3
    assert table.awaiting() == [("blue", "ballot"), ("green", "ballot")]
    table.rejects({"player": "red", "ballot": {"area": "san_polo", "markers": [1]}}, "red has no marker left")


def test_4_2_one_to_four_markers_and_no_pass() -> None:
    table = Table()
    table.rejects({"player": "red", "ballot": {"area": "castello", "markers": []}}, "1 to 4 markers", "rule 4.2")
    table.rejects({"player": "red", "ballot": {"area": "castello", "markers": [0, 1, 1, 2, 2]}}, "1 to 4 markers")
    choices = table.state.legal(0)
    assert len(choices) == 7 * 39  # every area times every multiset of 1 to 4 of {0,1,1,2,2,3,3}
    assert all(1 <= len(choice.markers) <= 4 for choice in choices)


def test_4_3_choices_revealed_at_once() -> None:
    table = Table()
    table.ballot("red", "castello", 3, 2)
    table.ballot("blue", "dorsoduro", 1)
    snap = table.snap
    # Until the last ballot of the round arrives nothing of the round is public, not even the marker counts.
    assert snap["stacks"] == {}
    assert all(p["markers"] == 7 for p in snap["players"].values())
    assert table.awaiting() == [("green", "ballot")]
    table.ballot("green", "castello", 0)
    snap = table.snap
    assert snap["stacks"] == {"castello": {"red": 2, "green": 1}, "dorsoduro": {"blue": 1}}
    assert [snap["players"][p]["markers"] for p in RGB] == [5, 6, 6]
    assert snap["round"] == 2


def test_4_4_an_area_once_a_year_and_again_next_year() -> None:
    table = Table()
    table.ballots({"red": [("castello", [3])], "blue": [("castello", [3])], "green": [("castello", [3])]})
    table.rejects({"player": "red", "ballot": {"area": "castello", "markers": [2]}}, "already put markers in Castello")
    table.ballot("red", "dorsoduro", 2)
    assert private_view(table.state, 0).used_areas == (AREAS.index("castello"),)


def test_4_5_the_phase_ends_early_when_nobody_has_markers() -> None:
    table = Table()
    table.ballots(TWO_ROUNDS)
    assert table.snap["phase"] == "election" and table.snap["round"] is None


def test_4_5_unused_markers_stay_in_supply_and_return_at_year_end() -> None:
    table = Table(RGBY)
    for round_number in range(3):
        for player in RGBY:
            table.ballot(player, AREAS[round_number], 0 if round_number == 0 else 1)
    assert table.snap["phase"] == "election"
    assert all(p["markers"] == 4 for p in table.snap["players"].values())
    settle(table)
    assert all(p["markers"] == 7 for p in table.snap["players"].values())


def test_5_1_elections_follow_this_years_order() -> None:
    order = ["santa_croce", "dorsoduro", "quarantia", "castello", "cannaregio", "san_polo", "san_marco"]
    table = Table(this_year=order)
    table.ballots(
        {
            "red": [("santa_croce", [3, 3, 2, 2]), ("castello", [1, 1, 0])],
            "blue": [("dorsoduro", [3, 3, 2, 2]), ("cannaregio", [1, 1, 0])],
            "green": [("quarantia", [3, 3, 2, 2]), ("san_polo", [1, 1, 0])],
        }
    )
    seen = []
    while table.snap["phase"] == "election":
        area = table.snap["area"]
        if not seen or seen[-1] != area:
            seen.append(area)
        awaited = table.snap["awaiting"][0]
        kind, value = {"advisor": ("abstain", None), "houses": ("houses", 0), "build": ("build", False)}.get(
            awaited["decision"], ("move", None)
        )
        table.decide(awaited["player"], kind, value)
    assert seen == ["santa_croce", "dorsoduro", "quarantia", "castello", "cannaregio", "san_polo"]


def test_5_2_one_card_of_next_year_turned_after_each_election() -> None:
    next_year = ["dorsoduro", "quarantia", "san_polo", "santa_croce", "castello", "cannaregio", "san_marco"]
    table = Table(this_year=order_starting("castello", "cannaregio"), next_year=next_year)
    table.ballots(TWO_ROUNDS)
    assert table.snap["area"] == "castello" and table.snap["order"]["next_year"] == []
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 0)
    table.decide("blue", "houses", 0)
    # Castello finished; Cannaregio had no votes and finished at once (5.2): two cards are turned.
    assert table.snap["area"] == "dorsoduro"
    assert table.snap["order"]["next_year"] == next_year[:2]


def test_5_3_year_end_turns_the_whole_next_order_and_awaits_a_new_shuffle() -> None:
    next_year = ["dorsoduro", "quarantia", "san_polo", "santa_croce", "castello", "cannaregio", "san_marco"]
    table = Table(next_year=next_year)
    table.ballots(TWO_ROUNDS)
    settle(table)
    assert table.snap["order"] == {"this_year": list(AREAS), "next_year": next_year}
    assert table.snap["awaiting"] == [{"chance": "shuffle"}]
    third = order_starting("san_marco")
    table.do({"shuffle": third})
    snap = table.snap
    assert (snap["year"], snap["phase"], snap["round"]) == (2, "ballot", 1)
    assert snap["order"] == {"this_year": next_year, "next_year": []}
    assert table.state._next_order == tuple(AREAS.index(a) for a in third)


def test_state_copy_is_independent() -> None:
    state = State(RGB)
    state.shuffle(range(7))
    state.shuffle(range(7))
    twin = state.copy()
    twin.apply(0, twin.legal(0)[0])
    assert twin._pending[0] is not None
    assert state._pending == [None, None, None]
    reference = State(RGB)
    reference.shuffle(range(7))
    reference.shuffle(range(7))
    assert snapshot(state) == snapshot(reference)
