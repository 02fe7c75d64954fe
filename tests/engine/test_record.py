"""record-format.md 1: the record is a public contract, read strictly to the letter."""

from __future__ import annotations

import json

import pytest

from companion.engine import (
    AREAS,
    Ballot,
    DecisionLine,
    LineError,
    MalformedLineError,
    ShuffleLine,
    dump_line,
    parse_header,
    parse_line,
    split_lines,
)
from companion.engine.decisions import ABSTAIN_MOVES, ABSTAIN_STILL, ADVISORS, BUILD_YES, HOUSES, MOVE_STOP, MOVES
from tests.helpers import RGB, Table

HEADER = '{"doge": 1, "players": ["red", "blue", "green"]}'


def test_header_with_extra_keys_of_any_kind() -> None:
    header = parse_header('{"doge": 1, "players": ["red", "blue", "green"], "names": {"red": "Ana"}, "t": 5}')
    assert header.players == RGB and header.extra == {"names": {"red": "Ana"}, "t": 5}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"players": ["red", "blue", "green"]}', "header"),
        ('{"doge": 2, "players": ["red", "blue", "green"]}', "version 2"),
        ('{"doge": true, "players": ["red", "blue", "green"]}', "version true"),
        ('{"doge": 1.0, "players": ["red", "blue", "green"]}', "version the number 1.0"),
        ('{"doge": 1, "players": ["red", "blue"]}', "3 or 4"),
        ('{"doge": 1, "players": ["a", "b", "c", "d", "e"]}', "3 or 4"),
        ('{"doge": 1, "players": ["red", "red", "green"]}', "different ids"),
        ('{"doge": 1, "players": ["Red", "blue", "green"]}', 'player id "Red"'),
        ('{"doge": 1, "players": ["abcdefghijklmnopq", "blue", "green"]}', "1 to 16"),
        ('{"doge": 1, "players": ["9lives", "blue", "green"]}', "starting with a letter"),
        ('{"doge": 1, "doge": 1, "players": ["red", "blue", "green"]}', 'the key "doge" appears twice'),
        ('{"doge": 1, "players": ["red", "blue", "green"], "x": NaN}', "NaN is not a number JSON allows"),
        ('["doge", 1]', "JSON object"),
        ('{"doge": 1, "players": ["red", "blue", "green"]', "not valid JSON"),
    ],
)
def test_bad_headers(text: str, fragment: str) -> None:
    with pytest.raises(MalformedLineError, match=None) as caught:
        parse_header(text)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"player": "red", "ballot": {"area": "castello", "markers": [3, 2]}}', Ballot(1, (3, 2))),
        ('{"ballot": {"markers": [0], "area": "quarantia"}, "player": "red"}', Ballot(6, (0,))),
        ('{"player": "red", "advisor": "san_polo"}', ADVISORS[4]),
        ('{"player": "red", "abstain": null}', ABSTAIN_STILL),
        ('{"player": "red", "abstain": {"from": "castello", "to": "dorsoduro"}}', ABSTAIN_MOVES[1, 2]),
        ('{"player": "red", "houses": 2}', HOUSES[2]),
        ('{"player": "red", "houses": -0}', HOUSES[0]),
        ('{"player": "red", "build": true}', BUILD_YES),
        ('{"player": "red", "move": null}', MOVE_STOP),
        ('{"player": "red", "move": {"to": "dorsoduro", "from": "castello"}}', MOVES[1, 2]),
        ('  {"player":"red","houses":1}  ', HOUSES[1]),
    ],
)
def test_decision_lines(text: str, expected: object) -> None:
    line = parse_line(text, RGB)
    assert type(line) is DecisionLine and line.player == "red" and line.decision == expected


@pytest.mark.parametrize(
    "stamp", ["2026-11-22T20:15:03Z", "2026-11-22T20:15:03.123456Z", "2024-02-29T00:00:00Z", "2026-12-31T23:59:60Z"]
)
def test_time_stamps(stamp: str) -> None:
    line = parse_line(json.dumps({"player": "red", "houses": 1, "t": stamp}), RGB)
    assert line.t == stamp
    assert parse_line(json.dumps({"shuffle": list(AREAS), "t": stamp}), RGB).t == stamp


@pytest.mark.parametrize(
    "stamp",
    [
        "2026-11-22t20:15:03Z",
        "2026-11-22T20:15:03z",
        "2026-11-22T20:15:03+00:00",
        "2026-11-22 20:15:03Z",
        "2026-11-22T20:15Z",
        "2026-13-01T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-11-22T24:00:00Z",
        "2026-11-22T20:15:03.Z",
        1764000000,
    ],
)
def test_bad_time_stamps(stamp: object) -> None:
    with pytest.raises(MalformedLineError, match='"t"'):
        parse_line(json.dumps({"player": "red", "houses": 1, "t": stamp}), RGB)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"player": "red", "player": "red", "houses": 1}', 'the key "player" appears twice'),
        ('{"player": "red", "houses": 1, "houses": 2}', 'the key "houses" appears twice'),
        ('{"player": "red", "ballot": {"area": "castello", "area": "castello", "markers": [1]}}', "appears twice"),
        ('{"player": "red", "houses": 1, "note": "hi"}', 'unknown key "note"'),
        ('{"player": "red", "houses": NaN}', "NaN"),
        ('{"player": "red", "houses": Infinity}', "Infinity"),
        ('{"player": "red", "houses": 2.0}', '"houses" must be a whole number, not the number 2.0'),
        ('{"player": "red", "houses": 1e0}', "whole number"),
        ('{"player": "red", "houses": true}', '"houses" must be a whole number, not true'),
        ('{"player": "red", "houses": "2"}', "whole number"),
        ('{"player": "red", "build": 1}', '"build" must be true or false'),
        ('{"player": "Red", "houses": 1}', 'unknown player "Red"'),
        ('{"player": "purple", "houses": 1}', 'unknown player "purple"'),
        ('{"player": "red", "advisor": "Castello"}', 'unknown area "Castello"'),
        ('{"player": "red", "advisor": "rialto"}', 'unknown area "rialto"'),
        ('{"player": "red", "advisor": 3}', "area id in quotes"),
        ('{"player": "red", "ballot": {"area": "castello", "markers": [true]}}', "marker value must be a whole"),
        ('{"player": "red", "ballot": {"area": "castello", "markers": [1.0]}}', "whole number"),
        ('{"player": "red", "ballot": {"area": "castello", "markers": 1}}', '"markers" must be a list'),
        ('{"player": "red", "ballot": {"area": "castello"}}', 'needs both "area" and "markers"'),
        ('{"player": "red", "ballot": {"area": "castello", "markers": [1], "x": 1}}', 'unknown key "x"'),
        ('{"player": "red", "move": {"from": "castello"}}', 'needs both "from" and "to"'),
        ('{"player": "red", "move": {"from": "castello", "to": "x"}}', 'unknown area "x"'),
        ('{"player": "red", "move": "castello"}', "must be null or"),
        ('{"player": "red", "houses": 1, "build": true}', 'one line holds one decision, not "houses" and "build"'),
        ('{"player": "red"}', "says nothing red decides"),
        ('{"houses": 1}', 'does not say which "player"'),
        ('{"ballot": 1, "shuffle": []}', 'unknown key "ballot" in a shuffle line'),
        ('{"shuffle": "castello"}', '"shuffle" must be a list'),
        ('{"shuffle": ["castello", "rialto"]}', 'unknown area "rialto"'),
        ('{"x": 1}', "unknown line"),
        ("[]", "JSON object"),
        ('{"player": "red", "houses": 1', "not valid JSON"),
        ('{"player": "red", "houses": 0' + "1" * 5000 + "}", "not valid JSON"),
        ("[" * 100000 + "]" * 100000, "not valid JSON"),
    ],
)
def test_malformed_lines(text: str, fragment: str) -> None:
    with pytest.raises(MalformedLineError) as caught:
        parse_line(text, RGB)
    assert fragment in str(caught.value)


def test_split_lines_tolerates_crlf_and_a_missing_last_newline() -> None:
    raw = [b'{"a": 1}\r\n', b'{"b": 2}\n', b'{"c": 3}']
    assert list(split_lines(raw)) == ['{"a": 1}', '{"b": 2}', '{"c": 3}']


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ([], "line 1: the record is empty"),
        ([b"\xef\xbb\xbf" + HEADER.encode() + b"\n"], "line 1: the record starts with a byte-order mark"),
        ([HEADER.encode() + b"\n", b"\n", b"{}\n"], "line 2: blank lines are not allowed"),
        ([HEADER.encode() + b"\n", b"\r\n"], "line 2: blank lines are not allowed"),
        ([HEADER.encode() + b"\n", b'{"player": "r\xe9d"}\n'], "line 2: the line is not UTF-8 text"),
    ],
)
def test_split_lines_errors(raw: list[bytes], expected: str) -> None:
    with pytest.raises(LineError) as caught:
        list(split_lines(raw))
    assert str(caught.value).startswith(expected)


def test_lines_round_trip_through_their_text() -> None:
    lines = [
        ShuffleLine(tuple(range(7)), "2026-11-22T20:15:03Z"),
        DecisionLine("red", Ballot(6, (3, 0, 2))),
        DecisionLine("blue", ABSTAIN_MOVES[0, 5], "2026-11-22T20:15:04.5Z"),
        DecisionLine("green", MOVE_STOP),
        DecisionLine("green", HOUSES[1]),
        DecisionLine("red", ADVISORS[6]),
    ]
    for line in lines:
        assert parse_line(dump_line(line), RGB) == line


def test_the_time_stamp_never_affects_the_rules() -> None:
    plain, stamped = Table(), Table()
    stamped.do({"player": "red", "ballot": {"area": "castello", "markers": [3]}, "t": "2026-11-22T20:15:03Z"})
    plain.ballot("red", "castello", 3)
    assert plain.snap == stamped.snap


def test_decisions_of_different_kinds_are_never_equal() -> None:
    """Plain NamedTuples would make Houses(0) == Advisor(0) == (0,); legal-choice lookups depend on this."""
    assert HOUSES[0] != ADVISORS[0] and HOUSES[0] not in {ADVISORS[0]} and HOUSES[0] not in (ADVISORS[0],)
    assert ABSTAIN_MOVES[1, 2] != MOVES[1, 2] and ABSTAIN_STILL != MOVE_STOP
    assert HOUSES[1] == HOUSES[1] and hash(Ballot(1, (3,))) == hash(Ballot(1, (3,)))
