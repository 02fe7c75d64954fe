"""Reading one record line (record-format.md 1): strict to the letter, as the record is a public contract read by
other tools: exact keys, no repeated key, integers that are integers (not ``2.0`` or ``true``), ids in their exact
case, an optional ``"t"`` time stamp in RFC 3339 UTC form. Every problem raises a
:class:`~companion.engine.errors.RecordError` whose message a player can understand.

The usual shapes (as :func:`~companion.engine.record.dump_line` writes them) take a fast path that reads the same
values; anything else takes the strict path, which gives the error messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..i18n import _, shown
from .areas import AREA_INDEX, AREAS
from .decisions import (
    ABSTAIN_MOVES,
    ABSTAIN_STILL,
    ADVISORS,
    BUILD_NO,
    BUILD_YES,
    HOUSE_MOVES,
    MOVE_STOP,
    MOVES,
    Abstain,
    Ballot,
    Decision,
    HouseMove,
    Houses,
    Move,
)
from .errors import MalformedLineError
from .line_shapes import STAMP_TEXT as _STAMP_TEXT
from .line_shapes import TIME_SHAPE as _TIME_SHAPE
from .line_shapes import VALUE as _VALUE
from .line_shapes import fields_in_any_order
from .lines import DecisionLine, Header, Line, ShuffleLine

FORMAT_VERSION = 1
PLAYER_ID = re.compile(r"[a-z][a-z0-9_]{0,15}\Z")
_TIME = re.compile(_TIME_SHAPE + r"\Z")
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_KINDS = frozenset(("ballot", "advisor", "abstain", "houses", "build", "move"))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise MalformedLineError(_('the key "{key}" appears twice').format(key=shown(key)))
            seen.add(key)
    return result


def _no_constants(name: str) -> Any:
    raise MalformedLineError(_("{name} is not a number JSON allows").format(name=name))


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constants)


def _load(text: str) -> dict[str, Any]:
    try:
        value = _DECODER.decode(text)
    except MalformedLineError:
        raise
    except json.JSONDecodeError as error:
        raise MalformedLineError(
            _("not valid JSON ({msg} at column {colno})").format(msg=error.msg, colno=error.colno)
        ) from None
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise MalformedLineError(_("not valid JSON ({error})").format(error=error)) from None
    except RecursionError:
        raise MalformedLineError(_("not valid JSON (nested too deeply)")) from None
    if type(value) is not dict:
        raise MalformedLineError(_("a record line must be a JSON object {...}"))
    return value


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is str:
        return f'"{shown(value)}"'
    if type(value) is float:
        return _("the number {value}").format(value=repr(value))
    if type(value) is int:
        return str(value)
    if type(value) is list:
        return _("a list")
    return _("an object")


def _integer(value: Any, what: str) -> int:
    if type(value) is not int:
        raise MalformedLineError(
            _("{what} must be a whole number, not {value}").format(what=what, value=_describe(value))
        )
    return value


def _area(value: Any, what: str) -> int:
    if type(value) is not str:
        raise MalformedLineError(
            _("{what} must be an area id in quotes, not {value}").format(what=what, value=_describe(value))
        )
    area = AREA_INDEX.get(value)
    if area is None:
        raise MalformedLineError(
            _('unknown area "{value}" (areas are {value2})').format(value=shown(value), value2=", ".join(AREAS))
        )
    return area


def _day_exists(stamp: str) -> bool:
    """The calendar, for a stamp of TIME_SHAPE (which allows the 31st of any month)."""
    year, month, day = int(stamp[0:4]), int(stamp[5:7]), int(stamp[8:10])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= _DAYS_IN_MONTH[month - 1] and not (month == 2 and day == 29 and not leap)


def _check_time(value: Any) -> str:
    if type(value) is not str:
        raise MalformedLineError(_('"t" must be a date-time in quotes, not {value}').format(value=_describe(value)))
    match = _TIME.match(value)
    if match is None:
        raise MalformedLineError(
            _('"t" must be an RFC 3339 UTC time like "2026-11-22T20:15:03Z", not "{value}"').format(value=shown(value))
        )
    if not _day_exists(value):
        raise MalformedLineError(_('"t" names a day that does not exist: "{value}"').format(value=shown(value)))
    return value


def _house_move(value: Any, kind: str) -> HouseMove | None:
    if value is None:
        return None
    if type(value) is not dict:
        raise MalformedLineError(_('"{kind}" must be null or {{"from": DISTRICT, "to": DISTRICT}}').format(kind=kind))
    if value.keys() != {"from", "to"}:
        extra = sorted(value.keys() - {"from", "to"})
        if extra:
            raise MalformedLineError(
                _('unknown key "{item}" in "{kind}" (expected "from" and "to")').format(item=shown(extra[0]), kind=kind)
            )
        raise MalformedLineError(_('"{kind}" needs both "from" and "to"').format(kind=kind))
    source = _area(value["from"], '"from"')
    target = _area(value["to"], '"to"')
    return HOUSE_MOVES.get((source, target)) or HouseMove(source, target)


def _ballot(value: Any) -> Ballot:
    if type(value) is not dict:
        raise MalformedLineError(_('"ballot" must be {"area": AREA, "markers": [...]}'))
    if value.keys() != {"area", "markers"}:
        extra = sorted(value.keys() - {"area", "markers"})
        if extra:
            raise MalformedLineError(
                _('unknown key "{item}" in "ballot" (expected "area" and "markers")').format(item=shown(extra[0]))
            )
        raise MalformedLineError(_('"ballot" needs both "area" and "markers"'))
    area = _area(value["area"], '"area"')
    markers = value["markers"]
    if type(markers) is not list:
        raise MalformedLineError(
            _('"markers" must be a list of marker values, not {value}').format(value=_describe(markers))
        )
    for marker in markers:
        _integer(marker, "a marker value")
    return Ballot(area, tuple(markers))


def _decision(kind: str, value: Any) -> Decision:
    if kind == "houses":
        return Houses(_integer(value, '"houses"'))
    if kind == "build":
        if type(value) is not bool:
            raise MalformedLineError(_('"build" must be true or false, not {value}').format(value=_describe(value)))
        return BUILD_YES if value else BUILD_NO
    if kind == "ballot":
        return _ballot(value)
    if kind == "advisor":
        return ADVISORS[_area(value, '"advisor"')]
    if kind == "abstain":
        move = _house_move(value, kind)
        if move is None:
            return ABSTAIN_STILL
        return ABSTAIN_MOVES.get((move.source, move.target)) or Abstain(move)
    move = _house_move(value, kind)
    if move is None:
        return MOVE_STOP
    return MOVES.get((move.source, move.target)) or Move(move)


def parse_header(text: str) -> Header:
    """record-format.md 1.1."""
    value = _load(text)
    if "doge" not in value:
        raise MalformedLineError(_('the first line must be the header {"doge": 1, "players": [...]}'))
    version = value["doge"]
    if type(version) is not int or version != FORMAT_VERSION:
        raise MalformedLineError(
            _('unsupported record version {value} (this reads "doge": 1)').format(value=_describe(version))
        )
    if "players" not in value:
        raise MalformedLineError(_('the header has no "players" list'))
    players = value["players"]
    if type(players) is not list or not 3 <= len(players) <= 4:
        raise MalformedLineError(_('"players" must list 3 or 4 player ids'))
    for player in players:
        if type(player) is not str or not PLAYER_ID.match(player):
            raise MalformedLineError(
                _("player id {value} must be 1 to 16 lower-case letters, digits or _, starting with a letter").format(
                    value=_describe(player)
                )
            )
    if len(set(players)) != len(players):
        raise MalformedLineError(_("the players must all have different ids"))
    extra = {key: item for key, item in value.items() if key not in ("doge", "players")}
    return Header(tuple(players), extra)


# A fast path for the lines a record is made of. The pattern matches only text whose top-level keys are certainly
# "player", one KIND and an optional "t" (last, as dump_line writes it, or first, as other programs may), each once,
# with a value of a shape JSON reads one way; the value text itself still goes through the strict parser (once per
# distinct text, then from a memo), and a time stamp must have the exact RFC 3339 shape (only days past the 28th need
# the calendar). Any other order is read key by key (line_shapes); anything else, including every malformed line,
# takes the general path, which gives the error messages.
# The spacing between tokens is json.dumps's, default or compact: other spacing is read key by key too, and a pattern
# with JSON's whole whitespace at each place compiles 0.8 ms slower at every start (a Pi's start counts it ten times
# over).
_SP = " ?"
_STAMP_FIRST = rf'(?:"t"{_SP}:{_SP}"({_STAMP_TEXT})",{_SP})?'
_STAMP_LAST = rf'(?:,{_SP}"t"{_SP}:{_SP}"({_STAMP_TEXT})")?'
_FAST_DECISION = re.compile(
    rf'\{{{_STAMP_FIRST}"player"{_SP}:{_SP}"([a-z][a-z0-9_]{{0,15}})",{_SP}'
    rf'"(ballot|advisor|abstain|houses|build|move)"{_SP}:{_SP}({_VALUE}){_STAMP_LAST}\}}\Z'
)
_FAST_SHUFFLE = re.compile(rf'\{{{_STAMP_FIRST}"shuffle"{_SP}:{_SP}(\[[^{{}}\[\]]*\]){_STAMP_LAST}\}}\Z')
_MEMO_LIMIT = 4096
_decision_memo: dict[tuple[str, str], Decision] = {}
_order_memo: dict[str, tuple[int, ...]] = {}


def _memo_put(memo: dict[Any, Any], key: Any, value: Any, limit: int = _MEMO_LIMIT) -> None:
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value


def _load_value(text: str) -> Any:
    try:
        return _DECODER.decode(text)
    except (ValueError, RecursionError):
        return _INVALID


_INVALID = object()


def parse_line(text: str, players: Sequence[str]) -> Line:
    """One record line after the header (record-format.md 1.2, 1.3), checked for form but not yet against the rules.

    Decision and deck-order values are remembered by their text, not whole lines: each line has a stamp of its own,
    and a memo of lines made reading a record once slower (9.7 ms against 7.9 for 1,000 lines)."""
    line: Line | None = None
    fields = _fast_fields(text)
    if fields is not None:
        player, kind, value_text, t = fields
        if kind == "shuffle":
            order = _order_memo.get(value_text)
            if order is None:
                value = _load_value(value_text)
                if type(value) is list and all(type(a) is str and a in AREA_INDEX for a in value):
                    order = tuple(AREA_INDEX[a] for a in value)
                    _memo_put(_order_memo, value_text, order)
            if order is not None:
                line = ShuffleLine(order, t)
        elif player in players:
            decision = _decision_memo.get((kind, value_text))
            if decision is None:
                value = _load_value(value_text)
                if value is not _INVALID:
                    try:
                        decision = _decision(kind, value)
                    except MalformedLineError:
                        decision = None
                    else:
                        _memo_put(_decision_memo, (kind, value_text), decision)
            if decision is not None:
                line = DecisionLine(player, decision, t)
        if line is not None:
            return line
    return _parse_line_strictly(text, players)


def _fast_fields(text: str) -> tuple[str, str, str, str | None] | None:
    """(player, kind, value text, stamp) of a line of a certain shape (kind "shuffle", player "" for a shuffle), with
    "t" last or first by one pattern, in any other order key by key; None: the general path decides. A stamp is
    checked here, once, for every kind of line; a bad one is left to the general path, which reports the problems
    of a line in one order (the value text found here need not be valid JSON yet)."""
    match = _FAST_DECISION.match(text)
    if match is not None:
        first, player, kind, value_text, last = match.groups()
    elif (match := _FAST_SHUFFLE.match(text)) is not None:
        player, kind = "", "shuffle"
        first, value_text, last = match.groups()
    elif (fields := fields_in_any_order(text)) is not None:
        player, kind, value_text, last = fields
        first = None
    else:
        return None
    if first is not None and last is not None:
        return None  # "t" twice
    t = first or last
    if t is not None:
        if _TIME.match(t) is None:
            return None
        if t[8:10] > "28" and not _day_exists(t):  # only such days need the calendar
            return None  # the general path names the line's first problem, in its own order (JSON before "t")
    return player, kind, value_text, t


def _parse_line_strictly(text: str, players: Sequence[str]) -> Line:
    """The general parser: accepts any valid spelling of a line and explains every malformed one."""
    value = _load(text)
    t = value.get("t")
    size = len(value)
    if t is not None or "t" in value:
        t = _check_time(t)
        size -= 1
    if "shuffle" in value:
        if size != 1:
            raise MalformedLineError(
                _('unknown key "{first_other}" in a shuffle line').format(
                    first_other=shown(_first_other(value, ("shuffle", "t")) or "")
                )
            )
        order = value["shuffle"]
        if type(order) is not list:
            raise MalformedLineError(
                _('"shuffle" must be a list of the 7 areas, not {value}').format(value=_describe(order))
            )
        return ShuffleLine(tuple(_area(area, "each card of a shuffle") for area in order), t)
    if "player" not in value:
        kinds = [key for key in value if key in _KINDS]
        if kinds:
            raise MalformedLineError(_('the "{item}" line does not say which "player" decides').format(item=kinds[0]))
        raise MalformedLineError(
            _('unknown line: expected "shuffle" or "player", found "{next}"').format(next=shown(next(iter(value), "")))
        )
    player = value["player"]
    if type(player) is not str or player not in players:
        known = ", ".join(players)
        raise MalformedLineError(
            _("unknown player {value} (the players are {known})").format(value=_describe(player), known=known)
        )
    kinds = [key for key in value if key in _KINDS]
    if size != 2 or len(kinds) != 1:
        if len(kinds) > 1:
            raise MalformedLineError(
                _('one line holds one decision, not "{item}" and "{item2}"').format(item=kinds[0], item2=kinds[1])
            )
        other = _first_other(value, ("player", "t", *_KINDS))
        if other is not None:
            raise MalformedLineError(_('unknown key "{other}"').format(other=shown(other)))
        raise MalformedLineError(
            _("the line says nothing {player} decides (expected one of {value})").format(
                player=player, value=", ".join(sorted(_KINDS))
            )
        )
    kind = kinds[0]
    return DecisionLine(player, _decision(kind, value[kind]), t)


def _first_other(value: dict[str, Any], allowed: Iterable[str]) -> str | None:
    allowed = set(allowed)
    return next((key for key in value if key not in allowed), None)
