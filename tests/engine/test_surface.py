"""The engine's query surface (docs/engine.md "Queries") agrees with the public snapshot (record-format.md 2) and with
its own legal choices, in every position of random games; the position builder refuses what no game could reach."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import (
    AREAS,
    DISTRICTS,
    Abstain,
    Advisor,
    Build,
    Houses,
    Move,
    State,
    set_up,
    snapshot,
)
from companion.engine.determinize import draw_order
from tests.helpers import RGB, RGBY


def _reveal_key(snap: dict[str, Any]) -> tuple[Any, ...]:
    """What changes in the public snapshot when something hidden becomes public (the flow's old, indirect test)."""
    return (snap["year"], snap["phase"], snap["round"], snap["area"], len(snap["order"]["next_year"]))


def check_queries(state: State) -> None:
    snap = snapshot(state)
    players = state.players
    assert state.phase == snap["phase"] and state.year == snap["year"]
    assert (state.round or None) == snap["round"]
    assert state.area == (None if snap["area"] is None else AREAS.index(snap["area"]))
    assert [AREAS[a] for a in state.this_order()] == snap["order"]["this_year"]
    assert [AREAS[a] for a in state.next_year_turned()] == snap["order"]["next_year"]
    for seat, player in enumerate(players):
        mine = snap["players"][player]
        assert (state.house_supply(seat), state.palace_supply(seat)) == (mine["houses"], mine["palaces"])
        assert (state.free_rings(seat), state.markers_left(seat)) == (mine["rings"], mine["markers"])
        palaces = sum(d["palaces"].count(player) for d in snap["districts"].values())
        assert state.palaces_of(seat) == palaces
        assert state.districts_of(seat) == sum(1 for d in snap["districts"].values() if player in d["palaces"])
        houses = sum(d["houses"].get(player, 0) for d in snap["districts"].values())
        assert state.houses_on_board(seat) == houses
    for d in DISTRICTS:
        district = snap["districts"][AREAS[d]]
        assert [players[p] for p in state.palaces_in(d)] == district["palaces"]
        assert state.palace_cost(d) == 3 + len(district["palaces"])  # rules.md 8.4, by the snapshot
        assert state.district_full(d) == (len(district["palaces"]) == 5)
        for seat, player in enumerate(players):
            assert state.houses(d, seat) == district["houses"].get(player, 0)
        advisor = state.advisor(d)
        expected = snap["advisors"][AREAS[d]]
        assert (None if advisor is None else {"controller": players[advisor[0]], "area": AREAS[advisor[1]]}) == expected
    quarantia = [(players[p], AREAS[a]) for p, a in state.quarantia_advisors()]
    assert sorted(quarantia) == [(e["controller"], e["area"]) for e in snap["advisors"]["quarantia"]]
    for area in range(7):
        stack = snap["stacks"].get(AREAS[area], {})
        assert state.markers_on(area) == tuple(stack.get(p, 0) for p in players)
    # What is awaited carries the context the legal choices imply.
    for awaited in state.awaiting():
        legal = state.legal(awaited.player)
        assert legal and awaited.rule
        if awaited.decision == "houses":
            assert awaited.offer is not None and max(d.number for d in legal if type(d) is Houses) <= awaited.offer
            assert awaited.district in DISTRICTS
        elif awaited.decision == "build":
            assert set(legal) == {Build(True), Build(False)} and awaited.district in DISTRICTS
            assert state.may_build(awaited.player, awaited.district)
        elif awaited.decision == "advisor":
            assert awaited.slot is not None and all(type(d) in (Advisor, Abstain) for d in legal)
            assert all(d.area != awaited.slot for d in legal if type(d) is Advisor)  # 7.2: never at home
        elif awaited.decision == "move":
            assert all(type(d) is Move for d in legal) and awaited.offer
    outcome = state.outcome()
    assert (outcome is None) == (not state.is_over)
    if outcome is not None:
        assert [players[p] for p in outcome.winners] == snap["winners"]
        assert set(outcome.winners) <= set(outcome.qualified)
        assert all(bool(outcome.conditions[p]) == (p in outcome.qualified) for p in range(len(players)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), four=st.booleans())
def test_every_query_agrees_with_the_snapshot_and_reveals_match_it(seed: int, four: bool) -> None:
    """Over a random game: the queries say what the snapshot says, and a decision reported as revealing nothing
    (rules.md 11.4, the undo rule) is exactly one after which the snapshot's public reveal markers did not move."""
    rng = random.Random(seed)
    state = State(RGBY if four else RGB)
    while not state.is_over and state.year <= 6:
        check_queries(state)
        if state.chance_awaited():
            assert state.shuffle_reporting(draw_order(rng)).revealed.anything
            continue
        player = rng.choice(state.awaiting()).player
        before = _reveal_key(snapshot(state))
        applied = state.apply_reporting(player, rng.choice(state.legal(player)))
        assert applied.revealed.anything == (before != _reveal_key(snapshot(state)))
    check_queries(state)


def test_the_position_builder_takes_pieces_from_supply_and_refuses_the_impossible() -> None:
    state = State(RGB)
    set_up(state, houses={"castello": {"red": 4}}, advisors={"dorsoduro": ("blue", "san_polo")})
    assert state.houses(1, 0) == 4 and state.house_supply(0) == 11
    assert state.advisor(2) == (1, 4) and state.free_rings(1) == 5
    with pytest.raises(ValueError, match="not 16 houses"):
        set_up(state, houses={"castello": {"red": 16}})
    with pytest.raises(ValueError, match="not a district"):
        set_up(state, houses={"quarantia": {"red": 1}})
    with pytest.raises(ValueError, match="cannot control"):
        set_up(state, advisors={"castello": ("red", "castello")})  # 7.2: not in its own district
    with pytest.raises(ValueError, match="at most 5"):
        set_up(state, palaces={"san_marco": ["red", "red", "red", "blue", "blue", "green"]})
    with pytest.raises(ValueError, match="no player"):
        set_up(state, houses={"castello": {"purple": 1}})
