"""The fast path of ``parse_line`` must agree with the strict parser on every text, valid or not."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.engine import RecordError, parse_line
from companion.engine.record import _parse_line_strictly
from tests.helpers import RGB, random_game

LINES = random_game(5)[0][1:400]
PIECES = [
    " ",
    "\t",
    "\r",
    ",",
    ":",
    '"',
    "{",
    "}",
    "[",
    "]",
    "2.0",
    "1e0",
    "true",
    "null",
    "NaN",
    "-0",
    "01",
    '"t": "2026-11-22T20:15:03Z"',
    '"t": "2026-02-30T20:15:03Z"',
    '"houses": 1',
    '"player": "red"',
    '"Red"',
    '"castello"',
    '"x"',
    "\\u0061",
    "é",
]


def outcome(parse: object, text: str) -> object:
    try:
        return ("ok", parse(text, RGB))  # type: ignore[operator]
    except RecordError as error:
        return ("error", str(error))


@settings(max_examples=600)
@given(
    line=st.sampled_from(LINES),
    edits=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 3), st.sampled_from(PIECES)), max_size=3),
)
@example(line='{"player": "red", "houses": 1, "houses": 2}', edits=[])
@example(line='{"player": "red", "move": {"from": "castello", "from": "dorsoduro", "to": "san_polo"}}', edits=[])
@example(line='{"player": "red", "houses": 1, "t": "2026-02-29T00:00:00Z"}', edits=[])
@example(line='{"player": "red", "advisor": "castello", "t": "2026-11-22T20:15:03Z", "t": "x"}', edits=[])
@example(line='{"shuffle": ["castello", "castello"], "t": "2026-11-22T20:15:03Z"}', edits=[])
@example(line='{"player": "red", "houses": 01}', edits=[])
def test_fast_and_strict_parsers_agree(line: str, edits: list[tuple[int, int, str]]) -> None:
    text = line
    for position, cut, piece in edits:
        position %= len(text) + 1
        text = text[:position] + piece + text[position + cut :]
    assert outcome(parse_line, text) == outcome(_parse_line_strictly, text)


def test_the_fast_path_is_taken_for_ordinary_lines() -> None:
    """Guard for the test above: ordinary lines really go through the fast path (else it tests nothing)."""
    from companion.engine.record import _FAST_DECISION, _FAST_SHUFFLE

    matched = sum(1 for text in LINES if _FAST_DECISION.match(text) or _FAST_SHUFFLE.match(text))
    assert matched == len(LINES)
