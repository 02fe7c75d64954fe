"""Scripted input through the real command: a whole game as a text file of button events."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from companion.engine import replay_text, snapshot
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from tests.helpers import without_stamps

ROOT = Path(__file__).resolve().parents[2]


def test_a_scripted_game_gives_the_same_record_as_the_same_presses_in_process(tmp_path: Path) -> None:
    seed = 21
    controller = Controller(random.Random(seed), entry="private")
    controller.parts.size = (160, 128)  # the st7735's: a notice too long for it takes more than one ok
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=True)
    table.setup()
    table.play()
    script = tmp_path / "night.txt"
    script.write_text("# a whole game\n" + "\n".join(str(event) for event in table.events) + "\n")
    config = tmp_path / "config.toml"
    config.write_text('[pads]\nserial = "off"\n[display]\ndriver = "st7735"\n')
    record = tmp_path / "night.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock",
         "--seed", str(seed), "--script", str(script), "--record", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = record.read_text().splitlines()
    assert without_stamps(lines) == without_stamps(controller.record)
    assert all('"t": "' in line for line in lines[1:]), "the companion stamps every line with its time"
    assert snapshot(replay_text(lines))["winners"]


def test_screenshots_save_every_new_frame(tmp_path: Path) -> None:
    """The first hundred presses of a scripted night, each new frame a PNG (a whole night is thousands of them)."""
    controller = Controller(random.Random(21), entry="private")
    controller.parts.size = (160, 128)  # the st7735's: a notice too long for it takes an ok per part, as in the run
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=True)
    table.setup()
    while len(table.events) < 100:
        table.turn()
    script = tmp_path / "start.txt"
    script.write_text("\n".join(str(event) for event in table.events) + "\n")
    config = tmp_path / "config.toml"
    config.write_text('[pads]\nserial = "off"\n[display]\ndriver = "st7735"\n')
    shots = tmp_path / "shots"
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock",
         "--seed", "21", "--script", str(script), "--screenshots", str(shots)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    frames = sorted(shots.iterdir())
    assert len(frames) > 50 and frames[0].name == "frame-00001.png"


def test_a_bad_script_line_is_reported_before_anything_runs(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("1 ok\n2 ok\n\n3 area:rialto\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--hardware", "mock", "--script", str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 2
    assert (
        result.stderr.strip() == f"doge-companion: {script}: line 4: unknown key 'area:rialto'; keys are left, "
        "right, ok, back, area:<area>, marker:<0-3>"
    )
