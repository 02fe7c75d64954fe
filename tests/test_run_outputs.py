"""run's --screenshots and --record when writing fails during the game: one line and EX_IOERR (74), never a
traceback nor a status 0; and a --record that is not a file (a device) gets no summary picture made beside it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli_outputs import ROOT

EXIT_OUTPUT_FAILED = 74  # sysexits' EX_IOERR


def run(tmp_path: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[game]\nstate_dir = "{tmp_path / "state"}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'
    )
    command = [sys.executable, "-m", "companion.cli", "run", "--hardware", "mock", "--autoplay", "1", *args]
    return subprocess.run(
        [*prefix, *command, "--config", str(config)], cwd=tmp_path, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )  # fmt: skip


def said(result: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert result.returncode == EXIT_OUTPUT_FAILED and "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("doge-companion:")]
    assert len(lines) == 1 and fragment in lines[0], result.stderr


@pytest.mark.skipif(not shutil.which("unshare"), reason="needs unshare for a private full tmpfs")
def test_screenshots_on_a_disk_that_fills_during_the_game_stop_in_one_line(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    # A 64 kB tmpfs in a mount namespace of its own, as tests/fault_harness.py makes its full disk: a few frames fit.
    namespace = ("unshare", "--mount") if os.geteuid() == 0 else ("unshare", "--user", "--map-root-user", "--mount")
    mount = f'mount -t tmpfs -o size=64k none "{shots}" && exec "$@"'
    result = run(tmp_path, "--screenshots", str(shots), prefix=(*namespace, "sh", "-c", mount, "sh"))
    said(result, f"--screenshots: cannot write {shots}/frame-")
    assert "No space left on device" in result.stderr
    saved = run(tmp_path, "--resume", "--screenshots", str(shots), prefix=(*namespace, "sh", "-c", mount, "sh"))
    said(saved, "cannot write")
    from companion.store import Store

    store = Store(tmp_path / "state", read_only=True)
    try:
        assert [game.status for game in store.games()] == ["playing"], "the game the table played is saved as usual"
    finally:
        store.close()


def test_a_record_to_a_device_that_cannot_be_written_fails_and_makes_no_picture_beside_it(tmp_path: Path) -> None:
    (tmp_path / "full").symlink_to("/dev/full")  # writes fail with ENOSPC; the picture would go beside the link
    said(run(tmp_path, "--record", str(tmp_path / "full")), f"cannot write {tmp_path / 'full'}")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["config.toml", "full"], "no picture, no store"


def test_a_record_to_a_new_file_still_gets_its_summary_beside_it(tmp_path: Path) -> None:
    result = run(tmp_path, "--record", str(tmp_path / "game.jsonl"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "game.jsonl").read_text().startswith("{") and (tmp_path / "game-summary.png").exists()


def test_a_run_that_ends_by_itself_says_how_many_frames_it_saved_and_where(tmp_path: Path) -> None:
    """A whole autoplayed game with --screenshots prints nothing else at its end: the log's last line tells the
    newcomer where the pictures went (docs/game-night.md's headless run)."""
    shots = tmp_path / "shots"
    result = run(tmp_path, "--screenshots", str(shots))
    assert result.returncode == 0, result.stderr
    frames = len(list(shots.glob("frame-*.png")))
    assert frames > 100
    assert result.stderr.splitlines()[-1].endswith(f"{frames} frames saved in {shots}"), result.stderr
