"""Properties of every random legal game (hypothesis draws the games).

A game is played by choosing uniformly among the engine's own legal choices; the invariants below must hold after
every single line.
"""

from __future__ import annotations

import functools
import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import State, replay_text, snapshot
from companion.engine.areas import MARKER_COUNTS
from companion.engine.choices import ballot_choices
from companion.engine.decisions import (
    ABSTAIN_MOVES,
    ABSTAIN_STILL,
    ADVISORS,
    BUILD_NO,
    BUILD_YES,
    HOUSES,
    MOVE_STOP,
    MOVES,
    Ballot,
    Decision,
)
from companion.engine.determinize import draw_order
from companion.engine.errors import IllegalDecisionError
from companion.engine.record import Replay
from tests.helpers import RGB, RGBY, random_game, random_step

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.sampled_from([RGB, RGBY])


def check_invariants(state: State) -> None:
    n = state.player_count
    for p in range(n):
        board_houses = sum(state._board[d * n + p] for d in range(6))
        assert state._house_supply[p] + board_houses == 15, "houses are conserved (1.1, 1.4)"
        built = sum(owners.count(p) for owners in state._palaces)
        assert state._palace_supply[p] + built == 8, "palaces are conserved (1.1, 1.4)"
        controlled = state._advisor_controller.count(p) + sum(1 for c, _ in state._quarantia if c == p)
        assert state._rings[p] + controlled == 6, "free rings + controlled advisors = 6 (1.4, 7.1)"
        assert min(state._house_supply[p], state._palace_supply[p], state._rings[p]) >= 0
        held = state._markers[4 * p : 4 * p + 4]
        assert all(0 <= held[v] <= MARKER_COUNTS[v] for v in range(4)) and sum(held) == state._markers_left[p]
        placed = sum(state._stack_count[a * n + p] for a in range(7))
        assert state._markers_left[p] + placed <= 7
        assert all(state._board[d * n + p] >= 0 for d in range(6))
    for d in range(6):
        controller, area = state._advisor_controller[d], state._advisor_area[d]
        if controller < 0:
            assert area == -1, "a neutral advisor is off the board (7.1)"
        else:
            assert 0 <= area < 7 and area != d, "a controlled advisor stands, never at home (7.1, 7.2)"
        assert len(state._palaces[d]) <= 5
    assert len(state._quarantia) <= 3
    assert all(0 <= area < 6 for _, area in state._quarantia), "Quarantia advisors stand in districts (7.2.2)"


@settings(max_examples=60)
@given(seed=SEEDS, players=PLAYERS)
def test_random_games_keep_every_invariant_and_end(seed: int, players: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    state = State(players)
    steps = 0
    while not state.is_over:
        check_invariants(state)
        if state.chance_awaited():
            state.shuffle(draw_order(rng))
        else:
            awaited = state.awaiting()
            assert awaited, "someone or chance is always awaited until the game is over"
            player = rng.choice(awaited).player
            choices = state.legal(player)
            assert choices, "an awaited player always has a legal choice"
            state.apply(player, rng.choice(choices))
        steps += 1
        assert state.year <= 2000, "random games end"
    check_invariants(state)
    assert state.winners and all(state.victory_conditions(p) for p in state.winners)
    assert state.awaiting() == () and not state.chance_awaited()


@settings(max_examples=30)
@given(seed=SEEDS, players=PLAYERS)
def test_replaying_the_record_gives_the_same_snapshots(seed: int, players: tuple[str, ...]) -> None:
    lines, snaps, final = random_game(seed, players)
    replay = Replay()
    for text, expected in zip(lines, snaps, strict=True):
        replay.feed(text)
        assert replay.state is not None
        assert snapshot(replay.state) == expected
    assert json.loads(json.dumps(snapshot(replay_text(lines)))) == snapshot(final)


def _universe() -> list[Decision]:
    ballots = [
        Ballot(area, tuple(values))
        for area in range(7)
        for values in ([3], [0], [3, 3], [1, 1, 1], [2, 2, 1, 0], [3, 3, 2, 2], [0, 0])
    ]
    return [
        *ballots,
        *ADVISORS,
        ABSTAIN_STILL,
        *ABSTAIN_MOVES.values(),
        *HOUSES,
        BUILD_YES,
        BUILD_NO,
        MOVE_STOP,
        *MOVES.values(),
    ]


UNIVERSE = _universe()


@settings(max_examples=15)
@given(seed=SEEDS, players=PLAYERS)
def test_apply_accepts_exactly_the_legal_choices(seed: int, players: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    state = State(players)
    while not state.is_over and state.year <= 3:
        if state.chance_awaited():
            state.shuffle(draw_order(rng))
            continue
        for player in range(state.player_count):
            legal = set(state.legal(player))
            for decision in rng.sample(UNIVERSE, 12) + list(legal)[:3]:
                trial = state.copy()
                try:
                    trial.apply(player, decision)
                    accepted = True
                except IllegalDecisionError:
                    accepted = False
                    assert snapshot(trial) == snapshot(state) and trial._pending == state._pending
                assert accepted == (decision in legal), (player, decision)
        random_step(state, rng)


@functools.cache
def hands(count: int) -> list[tuple[int, ...]]:
    """Every hand of ``count`` markers a player could hold (how many of each value), drawn from uniformly: the same
    as drawing each value's count at random until they add up, without the hundreds of tries a full hand takes."""
    return [held for held in itertools.product(*(range(c + 1) for c in MARKER_COUNTS)) if sum(held) == count]


def scramble_secrets(state: State, rng: random.Random) -> State:
    """A state that differs from ``state`` in everything secret (rules.md 11) and in nothing public."""
    twin = state.copy()
    n = twin.player_count
    if twin.phase == "ballot":
        for p in range(n):
            if twin._pending[p] is not None:  # any ballot p could have chosen with the markers held
                twin._pending[p] = rng.choice(ballot_choices(twin._used[p], tuple(twin._markers[4 * p : 4 * p + 4])))
    for slot, placed in enumerate(twin._stack_count):
        area = slot // n
        if placed and not (twin._count is not None and twin._count.area == area):  # values revealed at the count
            twin._stack_sum[slot] = rng.randint(0, 3 * placed)
    for p in range(n):
        twin._markers[4 * p : 4 * p + 4] = list(rng.choice(hands(twin._markers_left[p])))
    hidden = list(twin._next_order[twin._turned :])
    rng.shuffle(hidden)
    twin._next_order = twin._next_order[: twin._turned] + tuple(hidden)
    return twin


@settings(max_examples=20)
@given(seed=SEEDS, players=PLAYERS)
def test_no_snapshot_holds_a_secret(seed: int, players: tuple[str, ...]) -> None:
    """Changing every secret (choices, values, unturned cards) never changes a snapshot, so none can show one."""
    rng = random.Random(seed)
    state = State(players)
    while not state.is_over and state.year <= 4:
        public = snapshot(state)
        for _ in range(2):
            assert snapshot(scramble_secrets(state, rng)) == public
        random_step(state, rng)


def test_scrambling_really_changes_secrets() -> None:
    """Guard for the test above: the scrambler must change what it claims to change."""
    rng = random.Random(7)
    state = State(RGB)
    state.shuffle(range(7))
    state.shuffle(range(7))
    state.apply(0, state.legal(0)[0])
    changed = 0
    for _ in range(20):
        twin = scramble_secrets(state, rng)
        changed += twin._pending[0] != state._pending[0] or twin._next_order != state._next_order
    assert changed >= 15
