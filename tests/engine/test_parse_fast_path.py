"""The fast path of ``parse_line`` must agree with the strict parser on every text, valid or not.

The fast path is a pattern for lines whose shape JSON reads one way, with "t" last (as dump_line writes it) or first,
then key by key for any other order; the value texts it finds are remembered, so mangled texts below meet the memo
of decision values too.
"""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.engine import RecordError, parse_line
from companion.engine.parse import _parse_line_strictly
from tests.helpers import RGB, random_game

BARE = random_game(5)[0][1:400]
STAMPS = ("2026-11-22T20:15:03Z", "2026-11-22T20:15:03.250Z", "2024-02-29T00:00:00Z", "2026-02-29T00:00:00Z")
LINES = BARE + [f'{text[:-1]}, "t": "{STAMPS[i % len(STAMPS)]}"}}' for i, text in enumerate(BARE)]


def reordered(text: str, index: int) -> str:
    """The same line with its keys in another order: "t" first, or the kind before "player" (each once took the slow
    path)."""
    value = json.loads(text)
    value["t"] = STAMPS[index % 3]  # the three that exist (a bad day has a test of its own)
    keys = list(value)
    order = [keys[-1], *keys[:-1]] if index % 2 else list(reversed(keys))
    return json.dumps({key: value[key] for key in order})


REORDERED = [reordered(text, i) for i, text in enumerate(BARE[:200])]
LINES += REORDERED
# "t" first, as other programs write it; the 29th of February both in a leap year and not.
LINES += [f'{{"t": "{STAMPS[i % len(STAMPS)]}", {text[1:]}' for i, text in enumerate(BARE[:100])]
for _text in BARE:
    parse_line(_text, RGB)
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
# Not JSON and a day that does not exist: both paths name the JSON first (the fast path once named the day).
@example(line='{"player": "red", "move": {"from": "castello",}, "t": "2026-02-30T20:15:03Z"}', edits=[])
@example(line='{"shuffle": ["castello",], "t": "2026-02-30T20:15:03Z"}', edits=[])
def test_fast_and_strict_parsers_agree(line: str, edits: list[tuple[int, int, str]]) -> None:
    text = line
    for position, cut, piece in edits:
        position %= len(text) + 1
        text = text[:position] + piece + text[position + cut :]
    assert outcome(parse_line, text) == outcome(_parse_line_strictly, text)


def test_the_fast_path_is_taken_for_ordinary_lines() -> None:
    """Guard for the test above: ordinary lines really go through the fast path (else it tests nothing)."""
    from companion.engine.parse import _FAST_DECISION, _FAST_SHUFFLE

    matched = sum(1 for text in LINES if _FAST_DECISION.match(text) or _FAST_SHUFFLE.match(text))
    t_first = sum(1 for text in REORDERED if list(json.loads(text))[:2] in (["t", "player"], ["t", "shuffle"]))
    assert t_first >= len(REORDERED) // 2
    assert matched == len(LINES) - len(REORDERED) + t_first  # "t" last or first by the patterns, others key by key


def test_lines_in_any_key_order_take_the_fast_path_too() -> None:
    """A line whose "t" is not last (or whose kind comes before "player") is read by the fast path, not the general
    parser, and the same as the general parser reads it (12% of an ordinary record's lines once took it)."""
    from companion.engine.parse import _fast_fields

    assert all(_fast_fields(text) is not None for text in REORDERED)
    assert [parse_line(text, RGB) for text in REORDERED] == [_parse_line_strictly(text, RGB) for text in REORDERED]
