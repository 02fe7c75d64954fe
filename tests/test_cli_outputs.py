"""Output paths that cannot be written are refused in one line before anything is played (a refusal after a whole game
would lose it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def doge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(cwd)},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run", "--hardware", "mock", "--autoplay", "1", "--record", "missing/a.jsonl"], "does not exist"),
        (["run", "--hardware", "mock", "--autoplay", "1", "--record", "."], "is a folder"),
        (["run", "--hardware", "mock", "--autoplay", "1", "--screenshots", "a-file"], "not a folder"),
        (["run", "--hardware", "mock", "--autoplay", "1", "--audio", "a-file"], "not a folder"),
        (["export", "1", "--out", "missing/x.jsonl"], "does not exist"),
        (["export", "1", "--out", "."], "is a folder"),
    ],
)
def test_a_bad_output_path_is_one_line_before_anything_happens(tmp_path: Path, args: list[str], fragment: str) -> None:
    (tmp_path / "a-file").write_text("mine")
    config = tmp_path / "config.toml"
    config.write_text(
        f'[game]\nstate_dir = "{tmp_path / "state"}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'
    )
    result = doge(*args, "--config", str(config), cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if "doge-companion:" in line and fragment in line]
    assert len(lines) == 1, result.stderr
    assert (tmp_path / "a-file").read_text() == "mine" and not (tmp_path / "state" / "games.sqlite3").exists()


def test_games_finds_the_simulators_games_and_marks_computer_seats(tmp_path: Path) -> None:
    """`games` once said "no games stored yet" after games in the simulator, which keeps its own store; and a
    computer seat looked like anyone's."""
    from companion.engine import dump_header
    from companion.store import Store

    state = tmp_path / ".local" / "state"
    header = dump_header(["red", "blue", "green"], app="doge-companion", bots={"green": "normal"})
    sim = Store(state / "doge-companion-sim")
    sim.new_game(header)
    sim.close()
    listed = doge("games", cwd=tmp_path)
    assert listed.returncode == 0 and "the simulator's (doge-companion sim" in listed.stderr, listed.stderr
    assert "red, blue, green (computer)" in listed.stdout, listed.stdout
    device = Store(state / "doge-companion")
    device.new_game(dump_header(["red", "blue", "yellow"]))
    device.close()
    both = doge("games", cwd=tmp_path)
    assert "red, blue, yellow" in both.stdout and "green (computer)" not in both.stdout, both.stdout
    assert "the simulator keeps 1 more apart: doge-companion games --sim" in both.stderr, both.stderr
    assert "green (computer)" in doge("games", "--sim", cwd=tmp_path).stdout
