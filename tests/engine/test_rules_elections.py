"""rules.md 6, 7, 8 and 10: counting, advisors, houses and palaces, resolving districts and the Quarantia."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from companion.engine import AREAS, State
from tests.helpers import RGB, Table, order_starting, place

FULL = [3, 3, 2, 2, 1, 1, 0]


def elect(
    area: str,
    stakes: Mapping[str, Sequence[int]],
    setup: Callable[[State], None] | None = None,
    order: Sequence[str] | None = None,
    players: Sequence[str] = RGB,
    held: bool = True,
) -> Table:
    """A table whose first election is in ``area`` with the given markers; the rest go to later areas."""
    table = Table(players, this_year=order or order_starting(area))
    if setup:
        setup(table.state)
    others = [a for a in (order or order_starting(area)) if a != area][::-1]
    plans = {}
    for seat, player in enumerate(players):
        stake = list(stakes.get(player, []))
        rest = list(FULL)
        for value in stake:
            rest.remove(value)
        plan = [(area, stake)] if stake else []
        chunks = [chunk for chunk in (rest[:4], rest[4:]) if chunk]
        plan += [(others[(seat + k) % 6], chunk) for k, chunk in enumerate(chunks)]
        plans[player] = plan
    table.ballots(plans)
    assert table.snap["phase"] == "election"
    assert (table.snap["area"] == area) == held, "the election is held unless nobody has a vote"
    return table


def count(table: Table) -> tuple[tuple[int, ...], int | None, tuple[int, ...], tuple[int, ...]]:
    found = table.state._count
    assert found is not None
    return found.votes, found.winner, found.first, found.runners_up


# ---------------------------------------------------------------------------------------------- 6 counting


def test_6_1_votes_are_markers_plus_advisors_standing_there() -> None:
    def setup(state: State) -> None:
        place(state, advisors={"castello": ("blue", "dorsoduro")}, quarantia=[("blue", "dorsoduro")])

    table = elect("dorsoduro", {"red": [3], "blue": [2]}, setup)
    assert count(table)[0] == (3, 4, 0)
    assert count(table)[1] == table.seat("blue")


def test_6_1_an_advisor_stood_there_earlier_this_year_counts() -> None:
    table = elect("castello", {"red": [3], "blue": [2]}, order=order_starting("castello", "dorsoduro"))
    table.decide("red", "advisor", "dorsoduro")
    table.decide("red", "houses", 0)
    table.decide("blue", "houses", 0)
    # Nobody put markers in Dorsoduro (see elect()): red's advisor, stood there a moment ago, is the only vote.
    assert table.snap["area"] == "dorsoduro" and "dorsoduro" not in table.snap["stacks"]
    assert count(table)[:2] == ((1, 0, 0), 0)


def test_6_2_the_zero_marker_does_not_make_a_runner_up() -> None:
    """The rulebook's example: a lone 0-marker gives no vote, so no runner-up."""
    table = elect("castello", {"red": [3], "blue": [0]}, order=order_starting("castello", "cannaregio"))
    votes, winner, _, runners = count(table)
    assert votes[:2] == (3, 0) and winner == 0 and runners == ()
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    assert table.snap["area"] != "castello", "no runner-up: blue places no house"
    assert table.snap["districts"]["castello"]["houses"] == {"red": 2}


def test_6_2_an_advisor_alone_makes_a_player_take_part() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, advisors={"dorsoduro": ("blue", "castello")}))
    votes, winner, _, runners = count(table)
    assert votes == (3, 1, 0) and winner == 0 and runners == (1,)


def test_6_3_tied_for_first_means_no_winner_and_no_runner_up() -> None:
    table = elect("castello", {"red": [3], "blue": [2, 1], "green": [1]})
    _, winner, first, runners = count(table)
    assert winner is None and first == (0, 1) and runners == ()
    assert table.awaiting() == [("red", "houses"), ("blue", "houses")]


def test_6_4_runners_up_tied_for_second() -> None:
    table = elect("castello", {"red": [3, 3], "blue": [2], "green": [2]})
    assert count(table)[1:] == (0, (0,), (1, 2))


def test_6_4_a_single_ranked_player_has_no_runner_up() -> None:
    table = elect("castello", {"red": [3]})
    assert count(table)[1:] == (0, (0,), ())


def test_6_5_no_votes_nothing_happens_even_in_the_quarantia() -> None:
    def setup(state: State) -> None:
        place(state, quarantia=[("blue", "castello")])

    table = elect(
        "quarantia",
        {"red": [0], "blue": [0]},
        setup,
        order=order_starting("quarantia", "castello", "dorsoduro"),
        held=False,
    )
    # The count happened on the way: the Quarantia was skipped and its advisor is still blue's.
    assert table.snap["area"] != "quarantia"
    assert table.snap["advisors"]["quarantia"] == [{"controller": "blue", "area": "castello"}]
    assert table.snap["order"]["next_year"][:1] == [next(reversed(AREAS))]


def test_6_6_markers_are_done_after_the_election() -> None:
    table = elect("castello", {"red": [3], "blue": [2]})
    assert "castello" in table.snap["stacks"]
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 0)
    table.decide("blue", "houses", 0)
    assert "castello" not in table.snap["stacks"]


# ---------------------------------------------------------------------------------------------- 7 advisors


def test_7_1_taking_control_puts_a_ring_and_stands_the_advisor() -> None:
    table = elect("castello", {"red": [3]})
    table.decide("red", "advisor", "san_polo")
    assert table.snap["advisors"]["castello"] == {"controller": "red", "area": "san_polo"}
    assert table.snap["players"]["red"]["rings"] == 5


def test_7_2_control_changes_hands_the_old_ring_returns_and_it_may_stay() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, advisors={"castello": ("blue", "san_polo")}))
    assert table.snap["players"]["blue"]["rings"] == 5
    table.rejects({"player": "red", "advisor": "castello"}, "may not stand in Castello, its home (rule 7.2)")
    table.decide("red", "advisor", "san_polo")
    snap = table.snap
    assert snap["advisors"]["castello"] == {"controller": "red", "area": "san_polo"}
    assert (snap["players"]["red"]["rings"], snap["players"]["blue"]["rings"]) == (5, 6)


def test_7_2_1_a_district_advisor_may_stand_in_the_quarantia_or_any_other_district() -> None:
    table = elect("castello", {"red": [3]})
    advisors = {AREAS[c.area] for c in table.state.legal(0) if type(c).__name__ == "Advisor"}
    assert advisors == set(AREAS) - {"castello"}
    table.decide("red", "advisor", "quarantia")
    assert table.snap["advisors"]["castello"] == {"controller": "red", "area": "quarantia"}


def test_7_2_2_a_quarantia_advisor_stands_only_in_a_district() -> None:
    table = elect("quarantia", {"red": [3]})
    table.rejects({"player": "red", "advisor": "quarantia"}, "only in a district (rule 7.2.2)")
    table.decide("red", "advisor", "san_marco")
    assert table.snap["advisors"]["quarantia"] == [{"controller": "red", "area": "san_marco"}]


def test_7_3_an_advisor_already_controlled_needs_no_free_ring() -> None:
    def setup(state: State) -> None:
        place(state, advisors=dict.fromkeys(AREAS[:6], ("red", "quarantia")))

    table = elect("castello", {"red": [3]}, setup)
    assert table.snap["players"]["red"]["rings"] == 0
    table.decide("red", "advisor", "dorsoduro")
    assert table.snap["advisors"]["castello"] == {"controller": "red", "area": "dorsoduro"}
    assert table.snap["players"]["red"]["rings"] == 0


def test_7_4_abstaining_makes_the_advisor_neutral_and_returns_its_ring() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, advisors={"castello": ("blue", "san_polo")}))
    table.decide("red", "abstain", None)
    assert table.snap["advisors"]["castello"] is None
    assert table.snap["players"]["blue"]["rings"] == 6


# ---------------------------------------------------------------------------------------------- 8 houses, palaces


def test_8_1_houses_stand_only_in_districts() -> None:
    table = elect("quarantia", {"red": [3]}, lambda s: place(s, houses={"castello": {"red": 1}}))
    table.rejects(
        {"player": "red", "abstain": {"from": "castello", "to": "quarantia"}},
        "houses stand only in districts",
        "(rule 8.1)",
    )


def test_8_2_place_zero_to_the_offer_no_more_than_the_supply() -> None:
    table = elect("castello", {"red": [3], "blue": [1]})
    table.decide("red", "abstain", None)
    assert [c.number for c in table.state.legal(0)] == [0, 1, 2]
    table.rejects({"player": "red", "houses": 3}, "at most 2 houses here (rule 10.2.1)")
    table.rejects({"player": "red", "houses": -1}, "negative")
    table.decide("red", "houses", 0)
    assert [c.number for c in table.state.legal(1)] == [0, 1]
    table.rejects({"player": "blue", "houses": 2}, "blue may place at most 1 house here (rule 10.2.1)")


def test_8_2_no_more_than_the_supply() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, houses={"san_polo": {"red": 14}}))
    table.decide("red", "abstain", None)
    assert [c.number for c in table.state.legal(0)] == [0, 1]
    table.rejects({"player": "red", "houses": 2}, "red has only 1 house in supply (rule 8.2)")


def test_8_3_a_move_needs_a_house_and_a_different_district() -> None:
    table = elect("quarantia", {"red": [3]}, lambda s: place(s, houses={"castello": {"red": 1}}))
    table.rejects({"player": "red", "abstain": {"from": "castello", "to": "castello"}}, "different district (rule 8.3)")
    table.rejects(
        {"player": "red", "abstain": {"from": "dorsoduro", "to": "castello"}}, "red has no house in Dorsoduro"
    )


def test_8_3_1_after_abstaining_on_a_district_advisor_the_move_touches_that_district() -> None:
    houses = {"castello": {"red": 1}, "dorsoduro": {"red": 1}}
    table = elect("castello", {"red": [3]}, lambda s: place(s, houses=houses))
    table.rejects(
        {"player": "red", "abstain": {"from": "dorsoduro", "to": "san_polo"}}, "from or into Castello (rule 8.3.1)"
    )
    moves = {str(c.move) for c in table.state.legal(0) if type(c).__name__ == "Abstain" and c.move}
    assert "dorsoduro->castello" in moves and "castello->san_polo" in moves and "dorsoduro->san_polo" not in moves
    table.decide("red", "abstain", {"from": "dorsoduro", "to": "castello"})
    assert table.snap["districts"]["castello"]["houses"] == {"red": 2}


def test_8_3_2_after_abstaining_on_a_quarantia_advisor_any_district_to_any_other() -> None:
    table = elect("quarantia", {"red": [3]}, lambda s: place(s, houses={"dorsoduro": {"red": 1}}))
    table.decide("red", "abstain", {"from": "dorsoduro", "to": "san_polo"})
    assert table.snap["districts"]["san_polo"]["houses"] == {"red": 1}


def test_8_4_palace_check_cost_and_payment() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, houses={"castello": {"red": 2}}, palaces={}))
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    assert table.awaiting() == [("red", "build")]
    assert table.snap["awaiting"] == [{"player": "red", "decision": "build", "district": "castello"}]
    supply = table.snap["players"]["red"]["houses"]
    table.decide("red", "build", True)
    snap = table.snap
    assert snap["districts"]["castello"] == {"houses": {"red": 1}, "palaces": ["red"]}, "cost 3, extra house stays"
    assert snap["players"]["red"]["houses"] == supply + 3 and snap["players"]["red"]["palaces"] == 7


def test_8_4_cost_grows_with_each_palace_whoever_owns_it() -> None:
    state = State(RGB)
    place(state, palaces={"castello": ["blue", "green"]})
    assert state.palace_cost(AREAS.index("castello")) == 5


def test_8_4_placing_zero_houses_is_no_check() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, houses={"castello": {"red": 3}}))
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 0)
    assert table.snap["area"] != "castello", "3 houses would pay for a palace, but none arrived: no check"


def test_8_4_a_move_into_a_district_triggers_a_check_there() -> None:
    houses = {"castello": {"red": 2}, "dorsoduro": {"red": 1}}
    table = elect("castello", {"red": [3]}, lambda s: place(s, houses=houses))
    table.decide("red", "abstain", {"from": "dorsoduro", "to": "castello"})
    assert table.snap["awaiting"] == [{"player": "red", "decision": "build", "district": "castello"}]
    table.decide("red", "build", False)
    assert table.awaiting() == [("red", "houses")]


def test_8_4_no_check_with_five_palaces_in_the_district() -> None:
    def setup(state: State) -> None:
        place(state, houses={"castello": {"red": 9}}, palaces={"castello": ["blue", "blue", "green", "green", "blue"]})

    table = elect("castello", {"red": [3]}, setup)
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    assert table.snap["area"] != "castello"
    table.rejects({"player": "red", "build": True}, "red")


def test_8_5_one_check_builds_at_most_one_palace() -> None:
    table = elect("castello", {"red": [3]}, lambda s: place(s, houses={"castello": {"red": 6}}))
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 2)
    table.decide("red", "build", True)
    assert table.snap["districts"]["castello"] == {"houses": {"red": 5}, "palaces": ["red"]}
    assert table.snap["area"] != "castello", "5 houses would pay for a second palace, but one check builds one"


def _san_marco_tie(palaces: Sequence[str], houses: int = 3) -> Table:
    def setup(state: State) -> None:
        place(state, houses={"san_marco": {"red": houses, "blue": houses}}, palaces={"san_marco": palaces})

    table = elect("san_marco", {"red": [3, 2], "blue": [3, 2]}, setup)
    table.decide("blue", "houses", 2)  # tied players answer in any order
    table.decide("red", "houses", 2)
    return table


def test_8_6_the_rulebook_san_marco_tie_both_build_for_five() -> None:
    table = _san_marco_tie(["green", "green"])
    assert table.awaiting() == [("red", "build"), ("blue", "build")]
    table.decide("blue", "build", True)
    assert table.snap["districts"]["san_marco"]["palaces"] == ["green", "green"], "builds wait for the last answer"
    table.decide("red", "build", True)
    snap = table.snap
    assert snap["districts"]["san_marco"] == {"houses": {}, "palaces": ["green", "green", "red", "blue"]}
    assert snap["players"]["red"]["houses"] == 15 and snap["players"]["blue"]["houses"] == 15


def test_8_6_one_declines_the_other_builds() -> None:
    table = _san_marco_tie(["green", "green"])
    table.decide("red", "build", False)
    table.decide("blue", "build", True)
    assert table.snap["districts"]["san_marco"] == {"houses": {"red": 5}, "palaces": ["green", "green", "blue"]}


def test_8_6_ruling_too_few_spaces_nobody_builds() -> None:
    table = _san_marco_tie(["green", "green", "green", "green"], houses=5)
    assert table.awaiting() == [("red", "build"), ("blue", "build")]
    table.decide("red", "build", True)
    table.decide("blue", "build", True)
    assert table.snap["districts"]["san_marco"]["palaces"] == ["green"] * 4
    assert table.snap["districts"]["san_marco"]["houses"] == {"red": 7, "blue": 7}


def test_8_6_ruling_one_space_and_one_builder_builds() -> None:
    table = _san_marco_tie(["green", "green", "green", "green"], houses=5)
    table.decide("red", "build", False)
    table.decide("blue", "build", True)
    assert table.snap["districts"]["san_marco"]["palaces"] == ["green"] * 4 + ["blue"]


# ---------------------------------------------------------------------------------------------- 10 resolution


def test_10_1_only_the_named_player_decides() -> None:
    table = elect("castello", {"red": [3], "blue": [2]})
    table.rejects({"player": "blue", "abstain": None}, "not blue's turn: awaiting red (advisor)")
    table.rejects({"player": "red", "houses": 2}, 'red must answer with "advisor" or "abstain" now, not with "houses"')


def test_10_2_1_winner_decides_advisor_then_places_two_then_runner_up_one() -> None:
    table = elect("castello", {"red": [3, 3], "blue": [2], "green": [1]})
    steps = []
    for player, kind, value in [("red", "advisor", "dorsoduro"), ("red", "houses", 2), ("blue", "houses", 1)]:
        steps.append(table.awaiting())
        table.decide(player, kind, value)
    assert steps == [[("red", "advisor")], [("red", "houses")], [("blue", "houses")]]
    assert table.snap["districts"]["castello"]["houses"] == {"red": 2, "blue": 1}
    assert table.snap["area"] != "castello", "green came third: nothing"


def test_10_2_1_tied_runners_up_place_one_each_and_check_together() -> None:
    def setup(state: State) -> None:
        place(state, houses={"castello": {"blue": 2, "green": 2}})

    table = elect("castello", {"red": [3, 3], "blue": [2], "green": [2]}, setup)
    table.decide("red", "abstain", None)
    table.decide("red", "houses", 0)
    assert table.awaiting() == [("blue", "houses"), ("green", "houses")]
    table.decide("green", "houses", 1)
    assert table.awaiting() == [("blue", "houses")], "green's house took effect; green's check waits for blue"
    assert table.snap["districts"]["castello"]["houses"]["green"] == 3
    table.decide("blue", "houses", 1)
    assert table.awaiting() == [("blue", "build"), ("green", "build")]
    table.decide("green", "build", True)
    table.decide("blue", "build", True)
    assert table.snap["districts"]["castello"]["palaces"] == ["blue", "green"]
    assert table.snap["districts"]["castello"]["houses"] == {}, "both paid 3, the cost of the first free space"


def test_10_2_2_tied_for_first_advisor_neutral_both_place_two() -> None:
    table = elect("castello", {"red": [3], "blue": [3]}, lambda s: place(s, advisors={"castello": ("red", "san_polo")}))
    snap = table.snap
    assert snap["advisors"]["castello"] is None and snap["players"]["red"]["rings"] == 6
    assert table.awaiting() == [("red", "houses"), ("blue", "houses")]
    table.decide("red", "houses", 2)
    table.decide("blue", "houses", 1)
    assert table.snap["districts"]["castello"]["houses"] == {"red": 2, "blue": 1}
    assert table.snap["area"] != "castello"


def test_10_3_the_rulebook_quarantia_sequence_winner_runner_up_winner() -> None:
    def setup(state: State) -> None:
        place(state, quarantia=[("blue", "castello"), ("green", "dorsoduro")])

    table = elect("quarantia", {"red": [3, 2], "blue": [3], "green": [1]}, setup)
    # Step 1: every Quarantia advisor is neutral, rings back.
    assert table.snap["advisors"]["quarantia"] == []
    assert table.snap["players"]["blue"]["rings"] == 6 and table.snap["players"]["green"]["rings"] == 6
    order = []
    for player, kind, value in [
        ("red", "advisor", "castello"),
        ("blue", "advisor", "san_polo"),
        ("red", "advisor", "castello"),
    ]:
        order.append(table.awaiting())
        table.decide(player, kind, value)
    assert order == [[("red", "advisor")], [("blue", "advisor")], [("red", "advisor")]]
    assert table.snap["advisors"]["quarantia"] == [
        {"controller": "blue", "area": "san_polo"},
        {"controller": "red", "area": "castello"},
        {"controller": "red", "area": "castello"},
    ]
    assert table.snap["players"]["red"]["rings"] == 4


def test_10_3_5_no_runner_up_winner_decides_twice_third_stays_neutral() -> None:
    table = elect("quarantia", {"red": [3]})
    table.decide("red", "advisor", "castello")
    assert table.awaiting() == [("red", "advisor")]
    table.decide("red", "abstain", None)
    assert table.snap["area"] != "quarantia"
    assert table.snap["advisors"]["quarantia"] == [{"controller": "red", "area": "castello"}]


def test_10_4_tied_runners_up_each_move_one_house_in_seat_order() -> None:
    houses = {"castello": {"blue": 1, "green": 1}}
    table = elect("quarantia", {"red": [3, 3], "blue": [2], "green": [2]}, lambda s: place(s, houses=houses))
    table.decide("red", "advisor", "castello")
    assert table.awaiting() == [("blue", "move")]
    table.decide("blue", "move", {"from": "castello", "to": "san_polo"})
    assert table.awaiting() == [("green", "move")], "one move each"
    table.decide("green", "move", None)
    assert table.awaiting() == [("red", "advisor")]
    table.decide("red", "advisor", "dorsoduro")
    assert len(table.snap["advisors"]["quarantia"]) == 2, "the runner-up's advisor stays neutral"


def test_10_5_tied_for_first_each_moves_up_to_two_in_seat_order() -> None:
    houses = {"castello": {"red": 2, "blue": 1}, "san_polo": {"red": 2}}
    table = elect(
        "quarantia",
        {"red": [3], "blue": [3], "green": [1]},
        lambda s: place(s, houses=houses, quarantia=[("green", "castello")]),
    )
    assert table.snap["advisors"]["quarantia"] == []
    assert table.awaiting() == [("red", "move")]
    table.decide("red", "move", {"from": "castello", "to": "san_polo"})
    # Three red houses arrived in San Polo: the check comes before anything else (record-format.md 1.3).
    assert table.snap["awaiting"] == [{"player": "red", "decision": "build", "district": "san_polo"}]
    table.decide("red", "build", True)
    assert table.awaiting() == [("red", "move")], "red's second move"
    table.decide("red", "move", {"from": "castello", "to": "dorsoduro"})
    assert table.awaiting() == [("blue", "move")]
    table.decide("blue", "move", None)
    assert table.snap["area"] != "quarantia"
    assert table.snap["districts"]["san_polo"] == {"houses": {}, "palaces": ["red"]}
