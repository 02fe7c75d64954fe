"""Output paths that cannot be written are refused in one line before anything is played (review of issue 17)."""

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
