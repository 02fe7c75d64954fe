"""rules.md 9.2 as a distance: ``State.palaces_to_go`` says, for each victory condition, how many more palaces a
player needs (None: their supply or the free spaces cannot give them that many). Hypothesis draws boards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import AREAS, State, set_up
from companion.engine.year_end import CONDITIONS
from tests.helpers import RGBY

# Each district's palaces in space order: up to 5, any of the four players (each has 8 in all).
boards = st.lists(st.lists(st.sampled_from(RGBY), max_size=5), min_size=6, max_size=6).filter(
    lambda districts: all(sum(owners.count(p) for owners in districts) <= 8 for p in RGBY)
)


def board(districts: list[list[str]]) -> State:
    state = State(RGBY)
    set_up(state, palaces={AREAS[d]: owners for d, owners in enumerate(districts) if owners})
    return state


@settings(max_examples=300)
@given(boards)
def test_zero_exactly_when_met_and_never_less_than_what_is_missing(districts: list[list[str]]) -> None:
    state = board(districts)
    for seat in range(4):
        palaces, spread = state.palaces_of(seat), state.districts_of(seat)
        met = state.victory_conditions(seat)
        to_go = dict(state.palaces_to_go(seat))
        for condition, want_palaces, want_districts in CONDITIONS:
            more = to_go[condition]
            assert (more == 0) == (condition in met), (condition, palaces, spread, more)
            if more is not None:
                assert more >= max(0, want_palaces - palaces, want_districts - spread)
                assert more <= state.palace_supply(seat)


@settings(max_examples=300)
@given(boards, st.integers(0, 3), st.integers(0, 5))
def test_a_palace_in_a_new_district_brings_every_reachable_condition_no_further_away(
    districts: list[list[str]], seat: int, district: int
) -> None:
    player = RGBY[seat]
    if player in districts[district] or len(districts[district]) == 5 or sum(o.count(player) for o in districts) == 8:
        return
    before = dict(board(districts).palaces_to_go(seat))
    districts[district] = [*districts[district], player]
    after = dict(board(districts).palaces_to_go(seat))
    for condition, more in before.items():
        if more is not None and more > 0:
            assert after[condition] is not None and after[condition] == more - 1, (condition, more, after)


def test_out_of_reach_when_too_few_districts_have_room() -> None:
    state = State(RGBY)
    full = ["blue", "green", "yellow", "blue", "green"]
    set_up(state, palaces={"castello": full, "dorsoduro": full, "san_marco": ["red"]})
    to_go = dict(state.palaces_to_go(0))
    assert to_go["six_districts"] is None and to_go["seven_in_five"] is None, "two full districts: Red has 4 at most"
    assert to_go["eight_in_four"] == 7, "three new districts and four more palaces in any of Red's four"
