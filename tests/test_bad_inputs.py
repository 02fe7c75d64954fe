"""Every bad input gets one line, in bounded time, and loses nothing: config files that are not files,
numbers TOML allows but Python will not print, keys of any length, nesting a thousand deep, a home directory that
does not exist; record lines that quote what they refuse (escaped, clipped); and symbolic links where the state
directory's files belong. In-process and quick; waits are hang guards only."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app import App
from companion.cli.command import main
from companion.cli.replay import replay_stream
from companion.engine import LineError
from companion.store import FILENAME, Store, StoreError
from companion.store.lock import LOCK_NAME, StateLock
from tests.helpers import app_settings

HEADER = '{"doge": 1, "players": ["red", "blue", "green"]}'
LINE_LIMIT = 300  # a quoted value is at most 120 characters (companion/i18n.py SHOWN), the line around it short


def one_line(text: str) -> str:
    assert text.endswith("\n") and text.count("\n") == 1, text[:500]
    line = text[:-1]
    assert line.isprintable() and len(line) <= LINE_LIMIT and "Traceback" not in line, line[:500]
    return line


def guarded(call: Callable[[], int], seconds: float = 20) -> int:
    """CALL's result; a hang guard (never a verdict on time): a call that blocks fails the test, not the suite."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert result, "it never returned"
    return result[0]


# ---------------------------------------------------------------------------------------------- config


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ("[display]\nwidth = 0x" + "f" * 3600 + "\n", "display.width: must be from 0 to 1024, not a number of about"),
        ("[[pads.gpio]]\nleft = 5\nright = 20\nok = 21\n" + "k" * 4000 + " = 6\n", "unknown key"),
        ("x = " + "[" * 1000 + "]" * 1000 + "\n", "not valid TOML: nested too deeply"),
        ("[game]\nstate_dir = " + "[" * 1000 + "]" * 1000 + "\n", "not valid TOML: nested too deeply"),
        ('[game]\nstate_dir = "~nosuchuser35/games"\n', 'game.state_dir: "~nosuchuser35/games": this machine has no'),
    ],
    ids=["hex-3600-digits", "pad-key-4000-chars", "nested-1000", "state-dir-nested", "home-of-no-user"],
)
def test_a_config_problem_is_one_short_line_and_exit_78_from_every_command(
    toml: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(toml)
    for args in (
        ["check-config", str(path)],
        ["games", "--config", str(path)],
        ["print-config", "--config", str(path)],
    ):
        assert main(args) == 78
        out, err = capsys.readouterr()
        assert out == "" and said in err and "Traceback" not in err, err[:500]
        for line in err.splitlines(keepends=True):
            one_line(line)


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "symlink-loop", "directory"])
def test_a_config_that_is_not_a_file_is_refused_at_once(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """/dev/zero never ends and a FIFO with no writer never opens: both once hung check-config."""
    path = Path("/dev/zero") if kind == "/dev/zero" else tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink-loop":
        path.symlink_to(path)
    elif kind == "directory":
        path.mkdir()
    assert guarded(lambda: main(["check-config", str(path)])) == 78
    line = one_line(capsys.readouterr().err)
    expected = {
        "/dev/zero": "is not a file (a device, a FIFO or a socket)",
        "fifo": "is not a file (a device, a FIFO or a socket)",
        "symlink-loop": "cannot be read (Too many levels of symbolic links)",
        "directory": "is a directory",
    }[kind]
    assert line == f"{path}: {expected}" or line.startswith(f"{path}: {expected}"), line


def test_the_state_directory_check_config_accepts_is_one_run_can_use(tmp_path: Path) -> None:
    """check-config said OK to "~nosuchuser/x" and `run` then failed with a traceback; now both refuse it, and a
    home directory that exists is fine."""
    path = tmp_path / "config.toml"
    path.write_text('[game]\nstate_dir = "~/games"\n')
    assert main(["check-config", str(path)]) == 0
    path.write_text('[game]\nstate_dir = "~nosuchuser35"\n')
    assert main(["check-config", str(path)]) == 78


# ---------------------------------------------------------------------------------------------- replay


def replay_error(*lines: str) -> str:
    with pytest.raises(LineError) as raised:
        replay_stream(f"{line}\n".encode() for line in lines)
    return one_line(f"{raised.value}\n")


def test_replay_errors_quote_a_huge_value_in_a_short_line() -> None:
    line = replay_error(HEADER, json.dumps({"shuffle": ["x" * 10_000_000]}))
    assert line.startswith('line 2: unknown area "xxxx') and "(10000000 characters)" in line
    line = replay_error(HEADER, json.dumps({"player": "red", "k" * 1_000_000: 1}))
    assert line.startswith('line 2: unknown key "kkk') and "(1000000 characters)" in line


def test_replay_errors_escape_what_a_terminal_would_obey() -> None:
    line = replay_error('{"doge": 1, "players": ["bl\\u001b[31mue", "red", "green"]}')
    assert '"bl\\x1b[31mue"' in line, "the ESC shown, not sent"
    line = replay_error(HEADER, json.dumps({"player": "red", "houses": 1, "t": "2026-11-22T20:15:03Z\nrm -rf"}))
    assert line.endswith('not "2026-11-22T20:15:03Z\\nrm -rf"'), "one line, the newline shown"


@settings(max_examples=150)
@given(
    where=st.sampled_from(["area", "player", "t", "key", "houses"]),
    text=st.text(st.characters(codec="utf-8"), max_size=400),
)
def test_any_text_in_a_record_line_gives_one_printable_line(where: str, text: str) -> None:
    line = {
        "area": {"player": "red", "ballot": {"area": text, "markers": [1]}},
        "player": {"player": text, "houses": 1},
        "t": {"player": "red", "houses": 1, "t": text},
        "key": {"player": "red", text: 1},
        "houses": {"player": "red", "houses": text},
    }[where]
    try:
        replay_stream([f"{HEADER}\n".encode(), json.dumps(line).encode() + b"\n"])
    except LineError as error:
        one_line(f"{error}\n")


# ---------------------------------------------------------------------------------------------- symbolic links


@pytest.mark.parametrize("name", [FILENAME, f"{FILENAME}-wal", f"{FILENAME}-shm"])
@pytest.mark.parametrize("dangling", [True, False])
def test_the_store_never_follows_a_symbolic_link(name: str, dangling: bool, tmp_path: Path) -> None:
    """A dangling link at games.sqlite3 once had the store made at its target, outside the 0700 directory."""
    state, elsewhere = tmp_path / "state", tmp_path / "elsewhere"
    state.mkdir(mode=0o700)
    elsewhere.mkdir()
    target = elsewhere / "target"
    if not dangling:
        target.write_bytes(b"precious")
    (state / name).symlink_to(target)
    with pytest.raises(StoreError, match="is a symbolic link; the companion does not follow links"):
        Store(state, read_only=True)  # games and export: one line, nothing moved
    assert (state / name).is_symlink()
    store = Store(state)  # the companion: the link moved aside as it is, a fresh store
    try:
        store.new_game(HEADER)
    finally:
        store.close()
    assert os.listdir(elsewhere) == ([] if dangling else ["target"]) and (
        dangling or target.read_bytes() == b"precious"
    )
    assert (state / FILENAME).is_file() and not (state / FILENAME).is_symlink()
    (aside,) = state.glob(f"games.broken-*.sqlite3{name[len(FILENAME) :]}")
    assert aside.is_symlink() and os.readlink(aside) == str(target), "the link itself kept"


def test_the_lock_never_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    """A link at companion.lock had the file it named truncated and overwritten with a process id."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (state / LOCK_NAME).symlink_to(precious)
    lock = StateLock(state)
    assert lock.acquire()
    lock.release()
    assert precious.read_text() == "keep me\n"
    assert not (state / LOCK_NAME).is_symlink() and (state / LOCK_NAME).read_text().strip().isdigit()
    (aside,) = state.glob(f"{LOCK_NAME}.link-*")
    assert os.readlink(aside) == str(precious)


def test_the_companion_starts_beside_a_dangling_link_and_keeps_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / FILENAME).symlink_to(tmp_path / "elsewhere.sqlite3")
    app = App(app_settings(state))
    try:
        assert "is a symbolic link" in (app.store.problem or "") and not (tmp_path / "elsewhere.sqlite3").exists()
    finally:
        app.close()
