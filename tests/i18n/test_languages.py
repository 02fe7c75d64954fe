"""The language at the table and on the command line."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from companion.flow.controller import Controller
from companion.i18n import language, locale_language
from hardware.events import InputEvent

ROOT = Path(__file__).resolve().parents[2]


def test_the_language_is_chosen_at_setup_and_kept_in_the_record() -> None:
    controller = Controller(random.Random(1))
    for pad in ("1", "2", "3"):
        controller.handle(InputEvent(pad, "ok"))
    controller.handle(InputEvent("host", "left"))
    assert language() == "de" and "Sprache: Deutsch" in controller.screen().text()
    assert "Rot: Tastenfeld 1" in controller.screen().text()
    controller.handle(InputEvent("host", "left"))
    assert "Lingua: Italiano" in controller.screen().text()
    controller.handle(InputEvent("host", "ok"))
    assert '"language": "it"' in controller.record[0]
    assert controller.screen().title == "Preparazione", "the first year's reminder, in the table's language"
    while "reminder" in controller.screen().tags:
        controller.handle(InputEvent("host", "ok"))
    assert controller.screen().title == "Anno 1"


def test_the_locale_decides_the_command_lines_language() -> None:
    assert locale_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert locale_language({"LANGUAGE": "it:en", "LANG": "de_DE.UTF-8"}) == "it"
    assert locale_language({"LANG": "fr_FR.UTF-8"}) == "en"
    assert locale_language({}) == "en"


def run(language: str, *args: str, data: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LANGUAGE": language}
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], input=data, cwd=ROOT, env=env, capture_output=True, timeout=60
    )


def test_replay_errors_follow_the_locale() -> None:
    record = b'{"doge": 1, "players": ["red", "blue", "green"]}\n{"shuffle": ["castello"]}\n'
    german = run("de", "replay", "-", data=record)
    assert german.returncode == 2
    assert german.stderr.decode() == "line 2: ein Mischen muss jedes der 7 Gebiete genau einmal nennen (Regel 1.3)\n"
    italian = run("it", "replay", "-", data=record)
    assert "esattamente una volta (regola 1.3)" in italian.stderr.decode()


def test_check_config_follows_the_locale(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[display]\nrotate = 9\n")
    result = run("it", "check-config", str(path))
    assert result.returncode == 78 and "deve essere da 0 a 3, non 9" in result.stderr.decode()
