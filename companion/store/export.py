"""Exporting a game's record (``doge-companion export``) without giving away what is still secret (rules.md 11).

A finished game has no secrets left: its record goes out as it is. An unfinished one holds three kinds: ballots of
the current round not yet revealed, the values of markers in areas not yet counted this year, and next year's order
beyond its turned cards. Cutting the record would not do (next year's order is its third line), so the export keeps
every line and stands in for each secret something chosen from public facts only: unrevealed ballots are left off
the end; uncounted markers get, per player, the lowest of the values not yet shown; unturned cards follow the board's
order. The result is a valid record whose replay shows exactly the same public states, and it is the same whatever
the secrets were.

Who has locked in a ballot of the round in progress is public ("locked in" is on the screen) though the ballot is
not: the header's ``export.locked_in`` lists them (record-format.md 1.1 allows any header key; docs/export.md).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..engine import ALL_AREAS, Ballot, DecisionLine, LineError, Replay, ShuffleLine, dump_line, parse_line
from ..engine.areas import MARKER_VALUES


def readable(lines: list[str]) -> tuple[int, str | None]:
    """How many of LINES (header first) replay, and why the next one does not (None: all of them do): a damaged
    record's valid lines, which export writes and ``recover`` goes on from (docs/export.md)."""
    replay = Replay()
    for text in lines:
        try:
            replay.feed(text)
        except LineError as error:
            return replay.lines, " ".join(str(error).split())[:160]
        except (RecursionError, ValueError, TypeError) as error:  # what no line of any version holds
            return replay.lines, f"line {replay.lines + 1}: {type(error).__name__}"
    return len(lines), None


def cut_short(lines: list[str], line: int, why: str) -> list[str]:
    """A damaged record's public lines, its header saying where and why it was cut (docs/export.md)."""
    header: dict[str, Any] = json.loads(lines[0])
    export: dict[str, Any] = header["export"] if isinstance(header.get("export"), dict) else {}
    header["export"] = {**export, "cut_short": {"line": line, "why": why}}
    return [json.dumps(header), *lines[1:]]


def public_record(lines: list[str]) -> list[str]:
    """``lines`` (a whole record, header first) with every secret replaced as the module says."""
    replay = Replay()
    last_shuffle = 0
    year_start = 0
    last_reveal = 0
    for index, text in enumerate(lines):
        read = replay.read(text)
        state = replay.state
        if index == 0 or state is None:
            continue
        if type(read.line) is ShuffleLine:
            last_shuffle = index
            if state.phase == "ballot":  # the shuffle that starts a year's ballots
                year_start = index
        if read.revealed.anything or state.phase != "ballot":
            last_reveal = index
    state = replay.state
    assert state is not None and replay.header is not None
    if state.is_over:
        return list(lines)
    players = replay.header.players
    kept = list(lines)
    waiting: list[str] = []
    if state.phase == "ballot":
        waiting = [players[seat] for seat in range(state.player_count) if state.locked_in(seat)]
        kept = kept[: last_reveal + 1]  # the round's ballots after its last reveal are all still hidden
    counted = state.counted()
    shown: dict[str, Counter[int]] = {p: Counter() for p in players}
    secret_ballots: list[int] = []
    for index in range(year_start + 1, len(kept)):
        line = parse_line(kept[index], players)
        if type(line) is DecisionLine and type(line.decision) is Ballot:
            if line.decision.area in counted:
                shown[line.player].update(line.decision.markers)
            else:
                secret_ballots.append(index)
    pool = {p: sorted((Counter(MARKER_VALUES) - shown[p]).elements()) for p in players}
    for index in secret_ballots:
        line = parse_line(kept[index], players)
        assert type(line) is DecisionLine and type(line.decision) is Ballot
        size = len(line.decision.markers)
        values, pool[line.player] = pool[line.player][:size], pool[line.player][size:]
        kept[index] = dump_line(DecisionLine(line.player, Ballot(line.decision.area, tuple(values)), line.t))
    turned = state.next_year_turned()
    if last_shuffle and len(turned) < 7 and state.phase != "setup":
        order = (*turned, *(a for a in ALL_AREAS if a not in turned))
        old = parse_line(kept[last_shuffle], players)
        kept[last_shuffle] = dump_line(ShuffleLine(order, old.t))
    header: dict[str, Any] = json.loads(kept[0])
    header["export"] = {
        "unfinished": True,
        "locked_in": waiting,
        "note": "secrets left out: unrevealed ballots dropped; uncounted marker values and unturned cards of "
        "next year's order replaced by stand-ins chosen from public facts only",
    }
    kept[0] = json.dumps(header)
    return kept


def locked_in(lines: list[str]) -> list[str]:
    """The players an export says have locked in a ballot not in it (its header's ``export.locked_in``)."""
    try:
        export = json.loads(lines[0]).get("export") if lines else None
    except ValueError:
        return []
    found = export.get("locked_in") if isinstance(export, dict) else None
    return [p for p in found if isinstance(p, str)] if isinstance(found, list) else []
