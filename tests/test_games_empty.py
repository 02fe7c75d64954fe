"""Regression: `games --sim` printed an empty table (its column names alone) where `games` says "no games stored yet";
a store that exists but holds no game is the same answer, for the device's store and the simulator's alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli_outputs import doge


@pytest.mark.parametrize(("folder", "args"), [("doge-companion-sim", ["--sim"]), ("doge-companion", [])])
def test_an_empty_store_says_no_games_stored_yet(tmp_path: Path, folder: str, args: list[str]) -> None:
    from companion.store import Store

    Store(tmp_path / ".local" / "state" / folder).close()  # made, as a started and stopped companion leaves it
    listed = doge("games", *args, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == "", listed.stdout  # no column names over nothing
    assert "no games stored yet (looked in " in listed.stderr and folder in listed.stderr, listed.stderr
