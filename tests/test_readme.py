"""The README's two commands: CI runs exactly the test one; the start one opens the simulator and stops cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Two commands", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    start, test = readme_commands()
    assert start == "python3 dev.py start" and test == "python3 dev.py test"
    steps = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert steps[-1] == test


def test_the_start_command_opens_the_simulator_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "XDG_STATE_HOME": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "dev.py", "start"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        store = tmp_path / "doge-companion-sim" / "games.sqlite3"
        while not store.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
        assert process.poll() is None, process.communicate()
        assert store.exists(), "the simulator opened its own game store"
        time.sleep(1)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    assert not re.search(rb"Traceback|ALSA", stderr)
    # `games --sim` (and `export --sim`) see the simulator's store, kept apart from a real device's (no game was
    # started here: its store is empty, and says so as the device's missing one does, tests/test_games_empty.py)
    env = {**env, "LANGUAGE": "en", "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "companion.cli"]
    listed = subprocess.run([*cli, "games", "--sim"], env=env, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and listed.stdout == "" and "no games stored yet" in listed.stderr, listed.stderr
    assert "doge-companion-sim" in listed.stderr
    real = subprocess.run([*cli, "games"], env=env, capture_output=True, text=True, timeout=60)
    assert "no games stored yet" in real.stderr
    exported = subprocess.run([*cli, "export", "1", "--sim"], env=env, capture_output=True, text=True, timeout=60)
    assert exported.returncode == 1 and "no games stored" not in exported.stderr, "the simulator's store, no game 1"


def test_start_without_a_display_says_so_and_exits_2() -> None:
    if not sys.platform.startswith("linux"):
        return  # elsewhere a window needs no DISPLAY
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = subprocess.run(
        [sys.executable, "dev.py", "start"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True
    )
    assert result.returncode == 2 and b"there is no display" in result.stderr and b"Traceback" not in result.stderr


def test_the_first_screenful_takes_a_newcomer_to_game_night() -> None:
    """The README's first 50 lines: the two commands, what the first start installs, --config, an evening in a few
    lines with the one key that takes back, and links into docs/ for the rest (the long sections live there)."""
    first = "\n".join((ROOT / "README.md").read_text().splitlines()[:50])
    for wanted in (
        "python3 dev.py start",
        "python3 dev.py test",
        "22 packages",
        "--config",
        "## An evening",
        "**back**",
        "(docs/game-night.md)",
        "(docs/building.md)",
        "(docs/config.md)",
        "(docs/archive.md)",
    ):
        assert wanted in first, wanted
    import dev

    assert "22 packages" in dev.INSTALLS[False], "the README says what dev.py says"
    assert len((ROOT / "README.md").read_text().splitlines()) < 300
