"""Known answers, as python-chess keeps perft files: whole games and the snapshot each ends in (tests/records/).

Each record is replayed through the public reader (:class:`Replay`, line by line with its board changes followed by
the table twin) and must end in exactly the committed snapshot; the corpus was made by the engine before it was
split into modules (main ed23b7f), so it pins the rules' answers across refactors.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import Replay, replay_text, snapshot
from tests.helpers import Table

RECORDS = Path(__file__).resolve().parents[1] / "records"
GAMES = sorted(p.name.removesuffix(".jsonl") for p in RECORDS.glob("*.jsonl"))


def test_the_corpus_is_there() -> None:
    assert len(GAMES) >= 5
    assert all((RECORDS / f"{name}.final.json").exists() for name in GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_a_recorded_game_ends_in_its_known_snapshot(name: str) -> None:
    lines = (RECORDS / f"{name}.jsonl").read_text().splitlines()
    expected = json.loads((RECORDS / f"{name}.final.json").read_text())
    state = replay_text(lines)
    assert snapshot(state) == expected
    assert state.is_over and state.outcome() is not None


@pytest.mark.parametrize("name", GAMES)
def test_the_board_changes_of_a_recorded_game_rebuild_its_board(name: str) -> None:
    lines = (RECORDS / f"{name}.jsonl").read_text().splitlines()
    table = Table.from_header(lines[0])
    for text in lines[1:]:
        table.feed(text)  # the twin follows every line's changes and must equal the snapshot after it
    assert table.snap == json.loads((RECORDS / f"{name}.final.json").read_text())


def test_every_line_is_read_once_with_what_it_revealed() -> None:
    """The one reader: each line's parsed form, events and what it made public; the shuffles reveal a deck."""
    lines = (RECORDS / f"{GAMES[0]}.jsonl").read_text().splitlines()
    replay = Replay()
    reads = [replay.read(text) for text in lines]
    assert [r.number for r in reads] == list(range(1, len(lines) + 1))
    shuffles = [r for r in reads if r.revealed.shuffle]
    assert shuffles and all('"shuffle"' in lines[r.number - 1] for r in shuffles)
    assert any(r.revealed.counts for r in reads) and any(r.revealed.cards for r in reads)
