"""One game, one process, one truth: the state directory's lock, scripts that never touch the saved game,
listings that never repair, private files, bounded config strings, a stop that always happens, public records."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app import App
from companion.cli.common import EXIT_IN_USE
from companion.cli.device import STOP_GRACE_S
from companion.engine import replay_text, snapshot
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.store import FILENAME, Store
from companion.store.export import locked_in, public_record
from companion.store.lock import LOCK_NAME, Locked, StateLock
from tests.helpers import anyone_locked_in, app_settings, without_stamps

ROOT = Path(__file__).resolve().parents[1]


def write_config(tmp_path: Path, state_dir: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'hardware = "mock"\n[game]\nstate_dir = "{state_dir}"\n[pads]\nserial = "off"\n')
    return path


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},  # `sim` needs a display (not only after the gallery's tests)
    )  # fmt: skip


def paused_game(state_dir: Path, turns: int = 60) -> list[str]:
    """A real table's game, paused mid-way in the store."""
    app = App(app_settings(state_dir), seed=3)
    try:
        table = Table(app.controller, random.Random(1), ["1", "2", "3"], keypads=False, handle=app.step)
        table.setup()
        for _ in range(turns):
            table.turn()
        return list(app.controller.record)
    finally:
        app.close()


# ---------------------------------------------------------------------- one process per state directory


def test_a_second_companion_on_the_same_state_directory_says_who_holds_it_and_exits(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    held = StateLock(state)
    assert held.acquire()
    try:
        for command in ("run", "sim"):
            result = cli(command, "--config", str(write_config(tmp_path, state)))
            assert result.returncode == EXIT_IN_USE, result.stderr
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and f"process {os.getpid()}" in lines[0] and str(state) in lines[0], lines
        assert not (state / FILENAME).exists(), "the second one touched nothing"
    finally:
        held.release()
    with pytest.raises(Locked):  # the lock is per process: a second holder in this one is refused as well
        first, second = StateLock(state), StateLock(state)
        first.acquire()
        try:
            second.acquire()
        finally:
            first.release()


def test_the_lock_goes_with_a_killed_process(tmp_path: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from companion.store.lock import StateLock\n"
        f"StateLock(Path({str(tmp_path)!r})).acquire(); print('held', flush=True); sys.stdin.read()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "held\n"
        with pytest.raises(Locked) as caught:
            StateLock(tmp_path).acquire()
        assert caught.value.pid == child.pid
    finally:
        child.kill()
        child.wait()
    lock = StateLock(tmp_path)
    assert lock.acquire(), "SIGKILL released it: no stale lock ever blocks a start"
    assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"
    lock.release()


# ---------------------------------------------------------------------- scripts never spoil a paused game


def test_a_script_plays_a_new_game_and_never_touches_the_paused_one_unless_resume(tmp_path: Path) -> None:
    state = tmp_path / "state"
    paused = paused_game(state)
    controller = Controller(random.Random(7), entry="private")
    controller.parts.size = (320, 240)  # the run's display: a notice in parts takes an ok more a part
    table = Table(controller, random.Random(2), ["1", "2", "3"], keypads=False)
    table.setup()
    for _ in range(40):
        table.turn()
    script = tmp_path / "demo.txt"
    script.write_text("\n".join(str(event) for event in table.events) + "\n")
    config_file = write_config(tmp_path, state)
    runs = []
    for _ in range(2):
        record = tmp_path / f"demo-{len(runs)}.jsonl"
        result = cli("run", "--config", str(config_file), "--seed", "7", "--script", str(script),
                     "--record", str(record))  # fmt: skip
        assert result.returncode == 0, result.stderr
        runs.append(record.read_text().splitlines())
    # the public record: not from a line whose reveals no screen has shown yet (rules.md 11.4.1)
    public = without_stamps(public_record(controller.public_record()))
    assert without_stamps(runs[0]) == without_stamps(runs[1]) == public
    store = Store(state, read_only=True)
    try:
        assert store.lines(store.unfinished() or 0) == paused and len(store.games()) == 1, "the paused game as it was"
    finally:
        store.close()
    resumed = cli("run", "--config", str(config_file), "--script", str(script), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    store = Store(state, read_only=True)
    try:
        assert store.lines(1)[: len(paused)] == paused and len(store.lines(1)) > len(paused), "--resume goes on"
    finally:
        store.close()


# ---------------------------------------------------------------------- listings never repair; files are private


def test_games_never_moves_a_damaged_store_aside_only_the_companion_does_and_says_so(tmp_path: Path) -> None:
    (tmp_path / FILENAME).write_bytes(b"this is not a database" * 100)
    config_file = write_config(tmp_path, tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    for command in (("games",), ("export", "1")):
        result = cli(*command, "--config", str(config_file))
        assert result.returncode == 1
        assert len(result.stderr.strip().splitlines()) == 1 and "moves it aside" in result.stderr, result.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == before, "nothing moved, nothing created"
    app = App(app_settings(tmp_path), seed=1)
    try:
        assert any(".broken-" in p.name for p in tmp_path.iterdir())
        app.show(app.controller.screen())
        assert app.screen is not None and "could not be read" in app.screen.text(), "said on the first screen"
    finally:
        app.close()


def test_the_state_directory_and_the_store_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        store = Store(tmp_path / "new" / "state")
        store.new_game('{"doge": 1, "players": ["red", "blue", "green"]}')
        assert stat.S_IMODE((tmp_path / "new" / "state").stat().st_mode) == 0o700
        files = [p for p in (tmp_path / "new" / "state").iterdir() if p.name.startswith(FILENAME)]
        assert {p.name for p in files} >= {FILENAME, f"{FILENAME}-wal"}
        assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files), [oct(p.stat().st_mode) for p in files]
        store.close()
        os.chmod(tmp_path / "new" / "state" / FILENAME, 0o644)  # a store made by an older version
        Store(tmp_path / "new" / "state").close()
        assert stat.S_IMODE((tmp_path / "new" / "state" / FILENAME).stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_on_a_read_only_disk_the_saved_game_is_resumed_and_played_on_unsaved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = paused_game(tmp_path)
    monkeypatch.setattr("companion.store.files.read_only", lambda path: True)
    app = App(app_settings(tmp_path), seed=5)
    try:
        assert app.resumed and app.controller.record == record
        assert not app.store.saving
        app.show(app.controller.screen())
        assert app.screen is not None and "not being saved" in app.screen.text()
        assert "New game" not in app.screen.text()
        table = Table(app.controller, random.Random(8), ["1", "2", "3"], keypads=False, handle=app.step)
        for _ in range(20):
            table.turn()
        assert len(app.controller.record) > len(record), "play goes on"
    finally:
        app.close()
    monkeypatch.undo()
    store = Store(tmp_path, read_only=True)
    try:
        assert store.lines(1) == record, "nothing was written"
    finally:
        store.close()


def test_acks_never_acknowledge_lines_a_read_only_store_keeps_only_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--acks means "committed to disk" (the crash harness counts on it): a read-only store commits nothing."""
    record = paused_game(tmp_path)
    monkeypatch.setattr("companion.store.files.read_only", lambda path: True)
    acks = io.StringIO()
    app = App(app_settings(tmp_path), seed=5, acks=acks)
    try:
        assert app.resumed and not app.store.saving
        table = Table(app.controller, random.Random(8), ["1", "2", "3"], keypads=False, handle=app.step)
        for _ in range(20):
            table.turn()
        assert len(app.store.lines(1)) > len(record), "lines were kept (in memory)"
    finally:
        app.close()
    assert acks.getvalue().startswith("resumed 1 ")
    assert "ack " not in acks.getvalue(), "nothing acknowledged that is not on disk"


def test_an_existing_state_directory_is_tightened_to_0700(tmp_path: Path) -> None:
    """systemd's StateDirectory= makes it 0755, as did older versions: it holds ballots not yet revealed."""
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    os.chmod(state, 0o755)
    Store(state).close()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    os.chmod(state, 0o750)
    config_file = write_config(tmp_path, state)
    result = cli("run", "--config", str(config_file), "--script", os.devnull, "--resume")
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(state.stat().st_mode) == 0o700, "the lock's directory too, before the store opens"


# ---------------------------------------------------------------------- bounded config; a stop always happens


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ('[game]\nstate_dir = "/tmp/' + "a" * 100_000 + '"\n', "game.state_dir: is 100005 characters long (at most"),
        ('[game]\nstate_dir = "/tmp/a\\nb"\n', 'game.state_dir: must not contain control characters, not "/tmp/a\\nb"'),
        ('[pads]\nserial = ["/dev/' + "x" * 5000 + '"]\n', "pads.serial: is 5005 characters long"),
        ('[game]\nlanguage = "' + "x" * 5000 + '"\n', 'game.language: unknown value "xxxxxxxx'),
        ('"' + "k" * 5000 + '" = 1\n', ": unknown key"),
        # Past Python's int-str limit (4300 digits) tomllib raises ValueError, not TOMLDecodeError.
        ("[game]\nbot_work = " + "9" * 5000 + "\n", "a number in it has too many digits (at most 4300)"),
        ("[game]\nbot_work = " + "9" * 4000 + "\n", "game.bot_work: must be from 0 to 1000000000, not 99999"),
        ("[buttons]\nbounce_ms = -" + "9" * 2600 + "\n", "buttons.bounce_ms: must be from 0 to 500, not -9999"),
    ],
)
def test_check_config_rejects_over_long_strings_in_one_short_line(tmp_path: Path, toml: str, expected: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(toml)
    for command in (("check-config", str(path)), ("run", "--config", str(path))):
        result = cli(*command)
        assert result.returncode == 78
        first = result.stderr.splitlines()[0]
        assert expected in first and len(first) < 300, first
        assert "Traceback" not in result.stderr


def test_a_stop_request_ends_even_a_stuck_companion() -> None:
    """A loop that never comes back to look at its stop flag (as `run` once did for minutes) ends STOP_GRACE_S
    after SIGTERM with status 0 (it was once killed by SIGALRM); the verdict is how it ended, not how fast."""
    assert STOP_GRACE_S < 1
    code = (
        "import signal\n"
        "from companion.cli.device import _stop_within_grace\n"
        "signal.signal(signal.SIGTERM, lambda *a: _stop_within_grace())\n"
        "print('stuck', flush=True)\n"
        "while True:\n"
        "    pass\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "stuck\n"
    child.send_signal(signal.SIGTERM)
    try:
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()


# ---------------------------------------------------------------------- the public record, locked-in ballots


def test_run_record_and_export_write_the_same_public_history_with_who_locked_in(tmp_path: Path) -> None:
    controller = Controller(random.Random(11), entry="private")
    table = Table(controller, random.Random(3), ["1", "2", "3"], keypads=True)
    table.setup()
    while not (controller.state and controller.state.round == 2 and anyone_locked_in(controller.state)):
        table.turn()
    state = controller.state
    waiting = [controller.players[seat] for seat in range(state.player_count) if state._pending[seat] is not None]
    script = tmp_path / "part.txt"
    script.write_text("\n".join(str(event) for event in table.events) + "\n")
    record = tmp_path / "part.jsonl"
    result = cli("run", "--config", str(write_config(tmp_path, tmp_path)), "--seed", "11", "--script", str(script),
                 "--record", str(record))  # fmt: skip
    assert result.returncode == 0, result.stderr
    written = record.read_text().splitlines()
    assert without_stamps(written) == without_stamps(public_record(controller.record))
    assert len(written) < len(controller.record), "the locked-in ballots are not in it"
    assert locked_in(written) == waiting and json.loads(written[0])["export"]["locked_in"] == waiting
    replayed, live = snapshot(replay_text(written)), snapshot(state)
    shown = [a for a in replayed.pop("awaiting") if a.get("player") not in locked_in(written)]
    assert shown == live.pop("awaiting") and replayed == live, "the same public state, told who has locked in"
    assert locked_in(controller.record) == [], "a record that is not an export says nothing"


def test_a_sqlite_file_left_by_a_crash_is_read_with_its_wal(tmp_path: Path) -> None:
    """Read-only reading sees lines committed to the -wal file of a process that was killed."""
    store = Store(tmp_path)
    game = store.new_game('{"doge": 1, "players": ["red", "blue", "green"]}')
    store.append(game, 2, ['{"shuffle": ["cannaregio"]}'])
    assert (tmp_path / f"{FILENAME}-wal").exists()
    reader = Store(tmp_path, read_only=True)  # the writer still has it open, as after a crash
    try:
        assert len(reader.lines(game)) == 2
    finally:
        reader.close()
        store.close()
    assert sqlite3.connect(tmp_path / FILENAME).execute("SELECT count(*) FROM lines").fetchone()[0] == 2
