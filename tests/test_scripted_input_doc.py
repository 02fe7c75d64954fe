"""docs/scripted-input.md's new group's whole game: exactly its script, run with exactly its command, ends the game
(the record replays to a finished game that Red won), leaves the summary picture beside the record and what the
voice said as WAV files (docs/sound.md), measured with the standard library; the same game written and played in German
and Italian says all of it in that language.

Cost: espeak-ng renders each utterance of a whole game once per language (about 100 utterances, 0.02 s of CPU
each), and the German and Italian games run in this process (the script's generator takes about 1 s each)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from companion.app import App
from companion.cli.script import read_script
from companion.store import Store
from hardware.speech import WavCapture
from tests.hardware.test_speaker import measured
from tests.helpers import app_settings
from tests.new_group_game import write
from tests.system_tools import need_tool

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## A new group's whole game"


def section() -> str:
    text = (ROOT / "docs" / "scripted-input.md").read_text()
    assert SECTION in text, f"docs/scripted-input.md has no section {SECTION!r}"
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def doc_commands() -> list[list[str]]:
    block = section().split("```sh\n", 1)[1].split("```", 1)[0]
    return [shlex.split(line, comments=True) for line in block.strip().splitlines()]


def doc_script() -> str:
    return section().split("```text\n", 1)[1].split("```", 1)[0]


def companion(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``doge-companion ARGS`` as the doc writes it, with no user config (XDG_CONFIG_HOME is empty)."""
    assert args[0] == "doge-companion"
    env = {**os.environ, "XDG_CONFIG_HOME": str(cwd / "no-config")}
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args[1:]], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_the_docs_new_group_game_ends_and_saves_its_summary_beside_the_record(tmp_path: Path) -> None:
    need_tool("espeak-ng")  # the command keeps what the voice says (--audio)
    run, replay = doc_commands()
    assert run[:2] == ["doge-companion", "run"] and "--seed" in run and replay[:2] == ["doge-companion", "replay"]
    script = tmp_path / run[run.index("--script") + 1]
    record = tmp_path / run[run.index("--record") + 1]
    script.write_text(doc_script())
    result = companion(run, tmp_path)
    assert result.returncode == 0, result.stderr
    replayed = companion(replay, tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    final = json.loads(replayed.stdout)
    assert final["phase"] == "over" and final["winners"] == ["red"], "the script plays the game to its end"
    summary = record.with_name(f"{record.stem}-summary.png")
    assert summary.exists(), f"no summary picture beside the record: {sorted(p.name for p in tmp_path.iterdir())}"
    assert Image.open(summary).size[0] > 400
    said = heard(tmp_path / run[run.index("--audio") + 1], "en")
    assert said[0] == "Set up the board." and said[-1] == "Red wins!"  # a reminder page: its title (docs/sound.md)
    assert "Round one: choose on your keypads." in said
    assert any(text.startswith("Take back your markers.") for text in said), "a year's end (its heading names it)"
    told = re.search(r"(\d+) utterances", section())
    assert told is not None and int(told[1]) == len(said), f"the doc says how many things the voice says: {len(said)}"


def heard(voice: Path, language: str) -> list[str]:
    """What a whole game's capture said: every utterance in ``language``, written for the ear (numbers up to twenty
    as words, no brackets or symbols), each a non-silent WAV (22050 Hz mono, measured with the standard library)."""
    rows = [line.split("\t") for line in (voice / "speech.txt").read_text().splitlines()]
    files = sorted(voice.glob("speech-*.wav"))
    assert [f"speech-{n}.wav" for n, _language, _text in rows] == [f.name for f in files], "one file an utterance"
    assert {said_in for _n, said_in, _text in rows} == {language} and len(rows) > 50
    said = [text for _n, _language, text in rows]
    assert not [t for t in said if re.search(r"\b([0-9]|1[0-9]|20)\b|[()+/]", t)], "for the ear"
    seconds = 0.0
    for file in files:
        found = measured(file)
        assert found["rate"] == 22050 and found["channels"] == 1 and found["seconds"] > 0.5, (file.name, found)
        assert found["peak"] > 3000 and found["rms"] > 500, (file.name, found)
        seconds += found["seconds"]
    print(f"voice, {language}: {len(rows)} utterances ({len(set(said))} distinct), {seconds:.0f} s of audio")
    return said


@pytest.mark.parametrize("language", ["de", "it"])
def test_the_new_groups_game_is_said_in_the_tables_language(tmp_path: Path, language: str) -> None:
    """The doc's game for a table whose config says German or Italian (written for that language: a notice's parts,
    so its oks, depend on it), played by the App with its voice captured as `--audio` does."""
    need_tool("espeak-ng")
    lines, final = write(0, language)
    script = tmp_path / "night.txt"
    script.write_text("\n".join(lines) + "\n")
    settings = app_settings(tmp_path / "state")
    settings.data["game"]["language"] = language
    app = App(settings, seed=0, store=Store(None, memory=True), sound_output=WavCapture(tmp_path / "voice"))
    try:
        for event in read_script(script):
            app.step(event)
        state = app.controller.state
        assert state is not None and state.is_over and state.winners == final.winners
    finally:
        app.close()
    said = heard(tmp_path / "voice", language)
    assert said[-1] == {"de": "Rot gewinnt!", "it": "Vince Rosso!"}[language]


def test_the_docs_script_is_what_its_generator_writes() -> None:
    """The doc says how the script was made; after a change to screens or menus, this says to make it again."""
    run, _replay = doc_commands()
    seed = int(run[run.index("--seed") + 1])
    lines, _state = write(seed)
    assert doc_script().splitlines() == lines, (
        f"docs/scripted-input.md's script is stale: run `.venv/bin/python -m tests.new_group_game --seed {seed}` "
        "and paste its output into the section " + repr(SECTION)
    )


def test_the_format_example_starts_a_game_at_160x128_too(tmp_path: Path) -> None:
    """Regression: at 160x128 setup came in two parts, so the example's first host ok turned to the second part and
    every later press fell one screen behind. Now it starts the game and Blue's ballot locks in, at any size."""
    text = (ROOT / "docs" / "scripted-input.md").read_text()
    example = text.split("## Format", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    (tmp_path / "example.txt").write_text(example)
    config = tmp_path / "no-config" / "doge-companion" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[display]\ndriver = "st7735"\n')
    result = companion(
        [
            "doge-companion",
            "run",
            "--hardware",
            "mock",
            "--seed",
            "7",
            "--script",
            "example.txt",
            "--record",
            "x.jsonl",
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
    assert len(lines) == 3 and "shuffle" in lines[-1], "a game started (header and both shuffles)"
    assert json.loads((tmp_path / "x.jsonl").read_text().splitlines()[0])["export"]["locked_in"] == ["blue"]
