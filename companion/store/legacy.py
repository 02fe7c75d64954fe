"""The previous version's store, read as it read itself, for the one open that brings it to order numbers: its
journal's entries had none. Its rule said which copy was the truth ("while every journal entry reads, the journal;
once one does not, for each game the longer readable history"), mended where it lost lines: where one copy's lines
are the start of the other's, the longer wins (SQLite lost its last commits, or the journal its tail). Its result
becomes the new store's first entries (reconcile.py); nothing else uses it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from .entries import checked_json


@dataclass
class History:
    """What the journal says: each game's lines and summary, and whether all of it could be read."""

    lines: dict[int, list[str]] = field(default_factory=dict)
    summaries: dict[int, dict[str, Any]] = field(default_factory=dict)
    damage: str | None = None  # why it cannot be trusted whole (the first bad entry), None if every entry read
    size: int = 0

    def _apply(self, value: Any) -> bool:
        if type(value) is not dict or type(value.get("g")) is not int or value["g"] < 1:
            return False
        game = value["g"]
        lines = self.lines.setdefault(game, [])
        if "n" in value:
            number, text = value["n"], value.get("text")
            if type(number) is not int or type(text) is not str or not 1 <= number <= len(lines) + 1:
                return False
            del lines[number - 1 :]
            lines.append(text)
        elif "keep" in value:
            keep = value["keep"]
            if type(keep) is not int or not 0 <= keep <= len(lines):
                return False
            del lines[keep:]
        summary = value.get("s")
        if summary is not None:
            if type(summary) is not dict:
                return False
            self.summaries.setdefault(game, {}).update(summary)
        return True


def read_lines(lines: list[bytes]) -> History:
    """The previous version's journal entries read as that version read them."""
    history = History()
    for number, raw in enumerate(lines, 1):
        if not _good(raw, history):
            history.damage = history.damage or f"entry {number} cannot be read"
    return history


def _good(raw: bytes, history: History) -> bool:
    value = checked_json(raw)
    return value is not None and history._apply(value)


def sqlite_lines(db: sqlite3.Connection) -> dict[int, list[str]]:
    """Each game's lines as far as they read (numbered from 1 without a gap, each text)."""
    found: dict[int, list[str]] = {}
    broken: set[int] = set()
    for game, seq, text in db.execute("SELECT game, seq, text FROM lines ORDER BY game, seq"):
        if type(game) is not int or game in broken:
            continue
        lines = found.setdefault(game, [])
        if seq != len(lines) + 1 or type(text) is not str:
            broken.add(game)
            continue
        lines.append(text)
    for (game,) in db.execute("SELECT id FROM games"):
        found.setdefault(game, [])
    return found


def winners(history: History | None, stored: dict[int, list[str]]) -> dict[int, tuple[list[str], dict[str, Any]]]:
    """Each game's lines and the journal's summary of it (empty when SQLite's won) as the previous version chose."""
    found = {}
    for game in sorted(set(stored) | set(history.lines if history else {})):
        mine = stored.get(game, [])
        theirs = history.lines.get(game, []) if history else []
        if mine[: len(theirs)] == theirs or theirs[: len(mine)] == mine:  # one a part of the other: the longer
            journal_wins = len(theirs) > len(mine)
        else:  # an undo one copy lacks: the journal, unless it is damaged and the shorter
            journal_wins = bool(theirs) and (history is None or history.damage is None or len(theirs) > len(mine))
        found[game] = (theirs, history.summaries.get(game, {})) if journal_wins and history else (mine, {})
    return found
