"""The text shapes of record lines that the fast path of ``record.parse_line`` reads (record-format.md 1.2, 1.3).

Each shape is one JSON can read only one way: the value texts still go through the strict parser, and anything
else takes the general path, which gives the error messages. Patterns and their scanner only, no rules.
"""

from __future__ import annotations

import re
from functools import cache

WS = r"[ \t\r\n]*"
VALUE = r'null|true|false|-?(?:0|[1-9][0-9]{0,8})|"[a-z_]{1,20}"|\{[^{}\[\]]*\}|\{[^{}\[\]]*\[[^{}\[\]]*\][^{}\[\]]*\}'
# RFC 3339 date-time in UTC with upper-case T and Z (record-format.md 1); the calendar is checked separately.
TIME_SHAPE = (
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?Z"
)
# What a stamp may be made of, for the line patterns: checking TIME_SHAPE inside each of them would compile it four
# more times at every start (1.6 ms of a replay's); the fast path checks the stamp it found against it.
STAMP_TEXT = r"[0-9T:.Z-]{20,64}"


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """Compiled at first use: a record in the usual key orders never needs them (2 ms of every start)."""
    return (
        re.compile(rf"{WS}\{{"),
        re.compile(
            rf'{WS}"(player|t|shuffle|ballot|advisor|abstain|houses|build|move)"{WS}:{WS}'
            rf'({VALUE}|"{STAMP_TEXT}"|"[a-z][a-z0-9_]{{0,15}}"|\[[^{{}}\[\]]*\]){WS}([,}}])'
        ),
        re.compile(r'"([a-z][a-z0-9_]{0,15})"\Z'),
        re.compile(rf'"({STAMP_TEXT})"\Z'),
        re.compile(rf"{WS}\Z"),
    )


def fields_in_any_order(text: str) -> tuple[str, str, str, str | None] | None:
    """The fast path's fields when "t" (or "player") is not where dump_line puts it: each key once, "player" and one
    kind or "shuffle" alone, an optional "t", every value of a shape JSON reads one way."""
    opening, member, player_text, stamp_text, closing = _patterns()
    match = opening.match(text)
    if match is None:
        return None
    found: dict[str, str] = {}
    at = match.end()
    while True:
        match = member.match(text, at)
        if match is None:
            return None
        key, value, end = match.groups()
        if key in found:
            return None
        found[key] = value
        at = match.end()
        if end == "}":
            break
    if closing.match(text, at) is None:
        return None
    t = None
    if "t" in found:
        stamp = stamp_text.match(found.pop("t"))
        if stamp is None:
            return None
        t = stamp.group(1)
    if "shuffle" in found:
        return ("", "shuffle", found["shuffle"], t) if len(found) == 1 else None
    player = player_text.match(found.pop("player", ""))
    if player is None or len(found) != 1:
        return None
    kind, value_text = found.popitem()
    return player.group(1), kind, value_text, t
