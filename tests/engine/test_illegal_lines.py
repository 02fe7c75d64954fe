"""Every kind of illegal line is rejected at that line, naming what is wrong, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.engine import AREAS
from tests.helpers import TWO_ROUNDS, Table, order_starting, place


def _ballot_phase() -> Table:
    return Table()


def _after_red_ballot() -> Table:
    table = Table()
    table.ballots({"red": [("castello", [3])], "blue": [("castello", [1])], "green": [("dorsoduro", [1])]})
    return table


def _castello_won_by_red() -> Table:
    """Castello first: red 10, blue 7, green 1 (TWO_ROUNDS); red has houses in Dorsoduro and San Polo."""
    table = Table(this_year=order_starting("castello"))
    place(table.state, houses={"dorsoduro": {"red": 1}, "san_polo": {"red": 2}})
    table.ballots(TWO_ROUNDS)
    return table


def _quarantia_won_by_red() -> Table:
    table = Table(this_year=order_starting("quarantia"))
    table.ballots(
        {
            "red": [("quarantia", [3, 3, 2, 2]), ("dorsoduro", [1, 1, 0])],
            "blue": [("quarantia", [1]), ("castello", [3, 2, 2, 1]), ("san_polo", [3, 0])],
            "green": [("castello", [3]), ("san_polo", [3, 2, 2, 1]), ("san_marco", [1, 0])],
        }
    )
    return table


def _red_places_houses() -> Table:
    table = _castello_won_by_red()
    table.decide("red", "abstain", None)
    return table


def _year_end() -> Table:
    table = Table()
    table.ballots(TWO_ROUNDS)
    from tests.helpers import settle

    settle(table)
    return table


CASES: list[tuple[str, Callable[[], Table], object, tuple[str, ...]]] = [
    (
        "unknown player",
        _ballot_phase,
        {"player": "purple", "ballot": {"area": "castello", "markers": [3]}},
        ('unknown player "purple"',),
    ),
    (
        "wrong player",
        _castello_won_by_red,
        {"player": "blue", "advisor": "san_polo"},
        ("not blue's turn: awaiting red (advisor)",),
    ),
    (
        "not awaited: wrong kind",
        _castello_won_by_red,
        {"player": "red", "houses": 2},
        ('red must answer with "advisor" or "abstain" now, not with "houses"',),
    ),
    (
        "not awaited: decision in the ballot phase",
        _ballot_phase,
        {"player": "red", "houses": 2},
        ("only ballots are played in the ballot phase", "rule 4.2"),
    ),
    (
        "not awaited: decision at setup",
        lambda: Table(this_year=None, next_year=None),  # type: ignore[arg-type]
        {"player": "red", "houses": 2},
        ("a shuffle of the voting-order deck is due", "rule 2.2"),
    ),
    (
        "reused area",
        _after_red_ballot,
        {"player": "red", "ballot": {"area": "castello", "markers": [2]}},
        ("red has already put markers in Castello this year", "rule 4.4"),
    ),
    (
        "marker not held",
        _after_red_ballot,
        {"player": "blue", "ballot": {"area": "dorsoduro", "markers": [1, 1]}},
        ("blue has only 1 1-marker left", "rule 4.2"),
    ),
    (
        "marker value that does not exist",
        _ballot_phase,
        {"player": "red", "ballot": {"area": "castello", "markers": [4]}},
        ("there is no 4-marker", "rule 1.1"),
    ),
    (
        "no marker of that value left",
        _after_red_ballot,
        {"player": "green", "ballot": {"area": "castello", "markers": [1, 1]}},
        ("green has only 1 1-marker left",),
    ),
    (
        "0 markers",
        _ballot_phase,
        {"player": "red", "ballot": {"area": "castello", "markers": []}},
        ("a ballot takes 1 to 4 markers, not 0", "rule 4.2"),
    ),
    (
        "5 markers",
        _ballot_phase,
        {"player": "red", "ballot": {"area": "castello", "markers": [3, 3, 2, 2, 1]}},
        ("a ballot takes 1 to 4 markers, not 5",),
    ),
    (
        "advisor at home",
        _castello_won_by_red,
        {"player": "red", "advisor": "castello"},
        ("the Castello advisor may not stand in Castello, its home", "rule 7.2"),
    ),
    (
        "Quarantia advisor in the Quarantia",
        _quarantia_won_by_red,
        {"player": "red", "advisor": "quarantia"},
        ("a Quarantia advisor may stand only in a district", "rule 7.2.2"),
    ),
    (
        "abstain move not touching the district",
        _castello_won_by_red,
        {"player": "red", "abstain": {"from": "dorsoduro", "to": "san_polo"}},
        ("the house must move from or into Castello", "rule 8.3.1"),
    ),
    (
        "a house the player does not have",
        _castello_won_by_red,
        {"player": "red", "abstain": {"from": "castello", "to": "san_polo"}},
        ("red has no house in Castello to move", "rule 8.3.1"),
    ),
    (
        "a move into the Quarantia",
        _quarantia_won_by_red,
        {"player": "red", "abstain": {"from": "castello", "to": "quarantia"}},
        ("rule 8.1",),
    ),
    (
        "build when not allowed",
        _red_places_houses,
        {"player": "red", "build": True},
        ('red must answer with "houses" now, not with "build"',),
    ),
    (
        "houses above the offer",
        _red_places_houses,
        {"player": "red", "houses": 3},
        ("red may place at most 2 houses here", "rule 10.2.1"),
    ),
    (
        "bad shuffle: six areas",
        _year_end,
        {"shuffle": list(AREAS[:6])},
        ("a shuffle must list each of the 7 areas exactly once", "rule 1.3"),
    ),
    ("bad shuffle: a repeated area", _year_end, {"shuffle": [*AREAS[:6], "castello"]}, ("exactly once",)),
    ("shuffle not due", _ballot_phase, {"shuffle": list(AREAS)}, ("no shuffle is due now", "rule 2.2")),
    ("malformed JSON", _ballot_phase, '{"player": "red", "ballot": ', ("not valid JSON",)),
    (
        "unknown area",
        _ballot_phase,
        {"player": "red", "ballot": {"area": "rialto", "markers": [3]}},
        ('unknown area "rialto"',),
    ),
]


@pytest.mark.parametrize(("name", "make", "line", "fragments"), CASES, ids=[c[0] for c in CASES])
def test_illegal_line_is_rejected_and_changes_nothing(
    name: str, make: Callable[[], Table], line: object, fragments: tuple[str, ...]
) -> None:
    table = make()
    table.rejects(line, *fragments)  # type: ignore[arg-type]
    # The replay goes on from the same state: the next line numbers on from the last good one.
    assert table.replay.lines == len(table.lines)


def test_houses_above_the_supply() -> None:
    table = Table(this_year=order_starting("castello"))
    place(table.state, houses={"dorsoduro": {"red": 14}})
    table.ballots(TWO_ROUNDS)
    table.decide("red", "abstain", None)
    table.rejects({"player": "red", "houses": 2}, "red has only 1 house in supply", "rule 8.2")
