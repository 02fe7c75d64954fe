"""The store's entries: every event it acknowledges (a record line, an undo, a change of status) as one line of
text, ``<crc32> <json>``, the same bytes in both copies (SQLite's ``entries`` table and games.journal).

Each entry carries an order number, ``"o"``, one more than the entry before it in the store, whatever its game, and
``"p"``, the order number of its game's entry before it. So the two copies are compared entry by entry, and the
state is rebuilt from the union of the entries that read in either, in order (:func:`rebuild`): an undo outranks the
lines it removed because it comes after them, and a number that reads in neither copy is a known loss, never a
silent one. The checksum is of the JSON's bytes, so a flipped bit, a torn end or a line cut short shows.

The fields: ``"g"`` the game; a record line ``"n"`` (its number, 1 the header) and ``"text"``; an undo ``"keep"``
(the lines kept); ``"s"`` the game's summary as it changed (status, year, winners, started), on any of them; and
``"lost"`` on an entry written in place of one that read in neither copy, once that was said.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_ENTRY = 256 * 1024  # a record line is under a kilobyte; an entry longer than this is damage
_JSON = json.JSONDecoder()  # json.loads would build one and guess the bytes' encoding at every entry

Entry = dict[str, Any]


def encode(order: int, game: int, prev: int, **fields: Any) -> bytes:
    body = json.dumps({"o": order, "g": game, "p": prev, **fields}, separators=(",", ":"), ensure_ascii=False)
    data = body.encode()
    return b"%08x %s\n" % (zlib.crc32(data), data)


def line_entries(
    order: int, game: int, prev: int, first: int, lines: list[str], summary: Mapping[str, Any] | None
) -> list[bytes]:
    """Record lines FIRST, FIRST + 1... of GAME as entries ORDER, ORDER + 1...; the last carries the summary."""
    found = []
    for i, text in enumerate(lines):
        extra = {"s": dict(summary)} if summary and i == len(lines) - 1 else {}
        found.append(encode(order + i, game, prev if i == 0 else order + i - 1, n=first + i, text=text, **extra))
    return found


def decode(raw: bytes) -> Entry | None:
    """The entry RAW holds (without its newline), or None when it does not read whole: a bad checksum, JSON that
    does not parse, fields of the wrong type, or an entry of the journal from before order numbers."""
    value = checked_json(raw)
    return value if _shaped(value) else None


def checked_json(raw: bytes) -> Any:
    """The JSON of a ``<crc32> <json>`` line (this version's entries and the previous version's journal lines
    alike, store/legacy.py), or None when its checksum or its JSON does not read."""
    if len(raw) > MAX_ENTRY or len(raw) < 10 or raw[8:9] != b" ":
        return None
    body = raw[9:]
    try:
        if int(raw[:8], 16) != zlib.crc32(body):
            return None
        return _JSON.decode(body.decode())
    except (ValueError, RecursionError):
        return None


def _shaped(value: Any) -> bool:
    if type(value) is not dict:
        return False
    order, game, prev = value.get("o"), value.get("g"), value.get("p")
    if type(order) is not int or type(game) is not int or type(prev) is not int or order < 1 or game < 0:
        return False
    if "n" in value and (type(value["n"]) is not int or value["n"] < 1 or type(value.get("text")) is not str):
        return False
    if "keep" in value and (type(value["keep"]) is not int or value["keep"] < 0):
        return False
    return "s" not in value or type(value["s"]) is dict


@dataclass(frozen=True)
class Lost:
    """Entry ORDER read in neither copy: GAME's (0: which game's cannot be told), and LINES, the record lines of it
    that cannot be placed since (first, last), when it was a line."""

    order: int
    game: int
    lines: tuple[int, int] | None = None
    told: bool = False  # a "lost" entry stands in its place: said at the start that found it


@dataclass
class State:
    """What the entries say, replayed in order: each game's lines and the entry each came from, its summary."""

    lines: dict[int, list[str]] = field(default_factory=dict)
    origins: dict[int, list[int]] = field(default_factory=dict)
    summaries: dict[int, dict[str, Any]] = field(default_factory=dict)
    lost: list[Lost] = field(default_factory=list)
    last: int = 0  # the highest order number that reads
    heads: dict[int, int] = field(default_factory=dict)  # each game's last entry, the next one's "p"


def rebuild(entries: Mapping[int, Entry]) -> State:
    """The state of the union ENTRIES (order number -> entry), and what of it is lost."""
    state = State(last=max(entries, default=0))
    missing = [o for o in range(1, state.last) if o not in entries]
    owner = {entry["p"]: entry["g"] for entry in entries.values() if entry["p"] in entries or entry["p"] in missing}
    gaps = {o: owner.get(o, 0) for o in missing}
    for o in sorted(entries):
        entry = entries[o]
        if "lost" in entry:
            gaps[o] = entry["g"]
    broken: dict[int, tuple[int, int]] = {}  # game -> the first line it cannot place, the last seen
    healed: dict[int, int] = {}  # game -> the entry that took its lost line back
    for o in sorted(entries):
        entry = entries[o]
        game = entry["g"]
        if "lost" in entry:
            continue
        if game < 1:
            continue
        state.heads[game] = o
        lines = state.lines.setdefault(game, [])
        origins = state.origins.setdefault(game, [])
        if "s" in entry:
            state.summaries.setdefault(game, {}).update(entry["s"])
        if game in broken:
            if ("n" in entry and entry["n"] <= len(lines) + 1) or ("keep" in entry and entry["keep"] <= len(lines)):
                del broken[game]  # an undo, or a line written again, took back the line that was lost: it matters
                healed[game] = o  # no more (the state from here is whole)
            else:
                if "n" in entry:
                    broken[game] = (broken[game][0], max(broken[game][1], entry["n"]))
                continue
        if "n" in entry:
            if entry["n"] > len(lines) + 1:
                broken[game] = (len(lines) + 1, entry["n"])
                continue
            del lines[entry["n"] - 1 :], origins[entry["n"] - 1 :]
            lines.append(entry["text"])
            origins.append(o)
        elif "keep" in entry and entry["keep"] <= len(lines):
            del lines[entry["keep"] :], origins[entry["keep"] :]
    for o, game in sorted(gaps.items()):
        if game in healed and o < healed[game] and game not in broken:
            continue
        told = o in entries
        state.lost.append(Lost(o, game, broken.pop(game, None) if game else None, told))
    for game, span in broken.items():  # a line whose entry left no trace: the entry before it was never read
        state.lost.append(Lost(0, game, span))
    return state


def lines_of(state: State, game: int, since: Iterable[int]) -> int:
    """How many of GAME's lines in STATE came from the entries SINCE."""
    wanted = set(since)
    return sum(1 for o in state.origins.get(game, []) if o in wanted)
