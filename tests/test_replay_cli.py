"""``doge-companion replay`` exactly per record-format.md 3, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import TWO_ROUNDS, Table, random_game
from tests.twin import TableTwin

ROOT = Path(__file__).resolve().parents[1]


def replay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Table]:
    table = Table()
    table.ballots(TWO_ROUNDS)
    table.decide("red", "advisor", "san_marco")
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(table.lines) + "\n")
    return path, table


def test_prints_the_last_snapshot_as_one_json_line(game: tuple[Path, Table]) -> None:
    path, table = game
    result = replay(str(path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 1 and json.loads(lines[0]) == table.snap


def test_each_prints_a_snapshot_after_every_line_header_included(game: tuple[Path, Table]) -> None:
    path, table = game
    lines = replay(str(path), "--each").stdout.decode().splitlines()
    assert len(lines) == len(table.lines)
    assert json.loads(lines[0])["phase"] == "setup" and json.loads(lines[-1]) == table.snap


def test_reads_standard_input(game: tuple[Path, Table]) -> None:
    path, table = game
    result = replay("-", stdin=path.read_bytes())
    assert result.returncode == 0 and json.loads(result.stdout) == table.snap


def test_a_whole_random_game_matches_the_engine(tmp_path: Path) -> None:
    lines, snaps, _ = random_game(11)
    path = tmp_path / "random.jsonl"
    path.write_text("\n".join(lines))  # no LF after the last line: allowed
    result = replay(str(path), "--each")
    assert result.returncode == 0
    assert [json.loads(line) for line in result.stdout.decode().splitlines()] == snaps
    assert snaps[-1]["phase"] == "over"


def test_invalid_line_status_2_and_nothing_on_stdout(game: tuple[Path, Table]) -> None:
    path, table = game
    bad = len(table.lines) + 1
    path.write_text(path.read_text() + '{"player": "red", "houses": 7}\n{"player": "red", "houses": 0}\n')
    result = replay(str(path))
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode() == f"line {bad}: red may place at most 2 houses here (rule 10.2.1)\n"


def test_invalid_line_with_each_prints_the_lines_before(game: tuple[Path, Table]) -> None:
    path, table = game
    path.write_text(path.read_text() + '{"player": "red", "houses": 2.0}\n')
    result = replay(str(path), "--each")
    assert result.returncode == 2
    assert len(result.stdout.decode().splitlines()) == len(table.lines)
    assert result.stderr.decode().startswith(f"line {len(table.lines) + 1}: ")
    assert "whole number" in result.stderr.decode() and "Traceback" not in result.stderr.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "line 1: the record is empty"),
        (b"\xef\xbb\xbf{}", "line 1: the record starts with a byte-order mark"),
        (b'{"doge": 1, "players": ["a", "b", "c"]}\n\n', "line 2: blank lines are not allowed"),
        (b'{"doge": 1, "players": ["a", "b", "c"]}\r\n{"shuffle": []}\r\n', "line 2: a shuffle must list each"),
        (b"not json\n", "line 1: not valid JSON"),
    ],
)
def test_format_errors(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    result = replay(str(path))
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().startswith(message) and result.stderr.decode().count("\n") == 1


def test_crlf_record_is_accepted(game: tuple[Path, Table]) -> None:
    path, table = game
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    result = replay(str(path))
    assert result.returncode == 0 and json.loads(result.stdout) == table.snap


def test_unreadable_file_is_not_status_2(tmp_path: Path) -> None:
    result = replay(str(tmp_path / "missing.jsonl"))
    assert result.returncode not in (0, 2)
    assert result.stdout == b"" and b"missing.jsonl" in result.stderr and b"Traceback" not in result.stderr
    result = replay(str(tmp_path))  # a directory
    assert result.returncode not in (0, 2) and b"Traceback" not in result.stderr


def test_usage_error_is_not_status_2() -> None:
    result = replay()
    assert result.returncode not in (0, 2) and b"usage" in result.stderr
    result = replay("a.jsonl", "--bogus")
    assert result.returncode not in (0, 2)


def test_replay_imports_only_the_engine_and_the_standard_library(game: tuple[Path, Table]) -> None:
    path, _ = game
    code = (
        "import sys\n"
        "from companion.cli import main\n"
        f"status = main(['replay', {str(path)!r}, '--changes'])\n"
        "print(sorted(sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    modules = json.loads(result.stderr.strip().splitlines()[-1].replace("'", '"'))
    ours = {"companion", "companion.i18n", "companion.flow", "companion.flow.board_text"}
    ours |= {f"companion.cli{name}" for name in ("", ".command", ".common", ".parser", ".replay")}
    foreign = [
        name
        for name in modules
        if name.split(".")[0] not in sys.stdlib_module_names
        and name not in ours
        and not name.startswith("companion.engine")
        and not name.startswith("_")
    ]
    assert foreign == []
    assert "companion.engine.state" in modules


def test_argparse_refuses_what_replay_does_not_take() -> None:
    result = replay("a.jsonl", "--each", "--changes")
    assert result.returncode == 64 and b"not allowed with argument" in result.stderr
    result = replay("a.jsonl", "--lang", "fr")
    assert result.returncode == 64 and b"invalid choice" in result.stderr
    result = replay("--help")
    assert result.returncode == 0 and b"usage: doge-companion replay" in result.stdout


# ---------------------------------------------------------------------------------- --changes (record-format.md 4)


def test_changes_followed_by_a_rules_blind_table_rebuild_every_snapshot(tmp_path: Path) -> None:
    lines, snaps, _ = random_game(23, players=("red", "blue", "green", "yellow"))
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = replay(str(path), "--changes", "--lang", "en")
    assert result.returncode == 0 and result.stderr == b""
    out = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [entry["line"] for entry in out] == list(range(1, len(lines) + 1))
    twin = TableTwin(["red", "blue", "green", "yellow"])
    for entry, snap in zip(out, snaps, strict=True):
        for change in entry["changes"]:
            assert change.pop("text")
        twin.follow(entry["changes"])
        assert twin.differences(snap) == []
    assert out[0]["changes"] == []


def test_changes_sentences_in_the_chosen_language(game: tuple[Path, Table]) -> None:
    path, _table = game
    texts = {}
    for lang in ("en", "de", "it"):
        result = replay(str(path), "--changes", "--lang", lang)
        assert result.returncode == 0, result.stderr
        reveal = json.loads(result.stdout.decode().splitlines()[-1])["changes"]
        texts[lang] = [change["text"] for change in reveal]
        assert [change["do"] for change in reveal] == ["advisor"]
    assert texts["en"] == ["Red: put one of your rings on the Castello advisor and stand it in San Marco"]
    assert "Ring" in texts["de"][0] and "anello" in texts["it"][0]


def test_changes_stop_at_a_bad_line_with_status_2(game: tuple[Path, Table]) -> None:
    path, table = game
    path.write_text("\n".join([*table.lines, '{"player": "red", "houses": 9}']) + "\n")
    result = replay(str(path), "--changes")
    assert result.returncode == 2
    assert len(result.stdout.decode().splitlines()) == len(table.lines)
    assert result.stderr.decode().startswith(f"line {len(table.lines) + 1}: ")


def test_changes_and_each_do_not_go_together(game: tuple[Path, Table]) -> None:
    path, _table = game
    assert replay(str(path), "--changes", "--each").returncode not in (0, 2)
