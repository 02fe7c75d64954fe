"""What a Raspberry Pi's SD card does to files: a database cut to 0 bytes beside its -wal, a flipped bit
in the -wal, a saved screen that holds what no version wrote, a game set aside as damaged, reading commands that
wrote, and input without bounds. Each test is one of these problems as the user meets it."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app import App
from companion.cli.command import main
from companion.store import FILENAME, Store
from tests.helpers import app_settings, random_game

ROOT = Path(__file__).resolve().parents[1]
UNFINISHED_AT = 60


def snapshot_files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def live_copy(tmp_path: Path) -> tuple[Path, dict[int, list[str]]]:
    """A store as a power cut leaves it: game 1 over, game 2 unfinished, every line still in the -wal (the files
    copied while the companion had them open), and the lines each game acknowledged."""
    finished, _snaps, state = random_game(1)
    unfinished = random_game(2)[0][:UNFINISHED_AT]
    live = tmp_path / "live"
    store = Store(live)
    one = store.new_game(finished[0])
    store.append(one, 2, finished[1:], {"status": "over", "year": state.year, "winners": ["red"]})
    two = store.new_game(unfinished[0])
    for seq, line in enumerate(unfinished[1:], 2):
        store.append(two, seq, [line], {"year": 1})
    folder = tmp_path / "state"
    folder.mkdir(mode=0o700)
    for path in live.iterdir():
        if not path.name.endswith("-shm"):
            shutil.copy(path, folder / path.name)
    store.close()
    assert Path(f"{folder / FILENAME}-wal").stat().st_size > 100_000, "the games are in the -wal"
    return folder, {1: finished, 2: unfinished}


def config_for(tmp_path: Path, folder: Path) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{folder}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n')
    return config


def command(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


# ---------------------------------------------------------------- 1: a database cut to 0 bytes beside its -wal


def test_a_database_cut_to_zero_beside_its_wal_is_damage_and_the_journal_brings_both_games_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, acknowledged = live_copy(tmp_path)
    (folder / FILENAME).write_bytes(b"")
    config = config_for(tmp_path, folder)
    before = snapshot_files(folder)
    status, out, err = command(["games", "--config", str(config)], capsys)
    assert snapshot_files(folder) == before, "games deleted or wrote a file"
    assert status == 0 and "Traceback" not in err
    rows = out.splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["1", "2"], out
    assert "journal" in err and len(err.splitlines()) == 1, err
    status, out, err = command(["export", "1", "--config", str(config)], capsys)
    assert status == 0 and out.splitlines() == acknowledged[1], err
    assert snapshot_files(folder) == before

    app = App(app_settings(folder))
    try:
        assert app.resumed and app.saver.game == 2 and app.saver.length == UNFINISHED_AT
        assert app.store.lines(1) == acknowledged[1] and app.store.lines(2) == acknowledged[2]
        told = app.controller.screen()
        assert any("journal" in line.text for line in told.lines), told
    finally:
        app.close()
    assert list(folder.glob("games.broken-*.sqlite3-wal")), "the damaged files are kept"


# ---------------------------------------------------------------- 2: a flipped bit in the -wal


@pytest.mark.parametrize("where", ["frame", "header"])
def test_a_flipped_bit_in_the_wal_loses_no_acknowledged_line_and_the_screen_says_what_came_back(
    where: str, tmp_path: Path
) -> None:
    folder, acknowledged = live_copy(tmp_path)
    wal = Path(f"{folder / FILENAME}-wal")
    data = bytearray(wal.read_bytes())
    spot = 20 if where == "header" else len(data) * 2 // 3
    data[spot] ^= 0x10
    wal.write_bytes(bytes(data))
    app = App(app_settings(folder))
    try:
        assert app.resumed and app.saver.game == 2 and app.saver.length == UNFINISHED_AT
        assert app.store.lines(2) == acknowledged[2] and app.store.lines(1) == acknowledged[1]
        assert "journal" in (app.store.problem or ""), app.store.problem
    finally:
        app.close()
    again = App(app_settings(folder))  # repaired: the next start has nothing to say
    try:
        assert again.store.lines(2) == acknowledged[2] and again.store.problem is None
    finally:
        again.close()


# ---------------------------------------------------------------- 3: a saved screen is data from disk


def saved_screen(folder: Path, notice: dict[str, object]) -> None:
    with sqlite3.connect(folder / FILENAME) as db:
        db.execute("INSERT OR REPLACE INTO screens VALUES (2, ?)", (json.dumps({"notices": [notice]}),))


GOOD_NOTICE = {"title": "Blue: put 2 houses", "lines": [["Take 2 houses", "normal", "blue"]], "rule": "6.1",
               "tag": "notice", "page": None}  # fmt: skip


@pytest.mark.parametrize(
    "bad",
    [
        {"lines": [["Take 2 houses", "gigantic", "blue"]]},
        {"line": 0, "reveals": [["ballots", "x"]]},
        {"line": -3},
        {"line": True},
        {"page": [1, "x"]},
        {"owners": "red"},
        {"lines": [["Take 2 houses", "normal", 7]]},
        {"seen": "yes"},
        {"tag": ["x"]},
        {"confirmed": [1]},
        {"lines": [["a", "normal", None, "yes"]]},
    ],
)
def test_a_saved_screen_with_a_field_no_version_writes_is_dropped_and_the_game_goes_on(
    bad: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _acknowledged = live_copy(tmp_path)
    App(app_settings(folder)).close()  # checkpointed: a plain file to edit
    saved_screen(folder, {**GOOD_NOTICE, **bad})
    config = config_for(tmp_path, folder)
    status, out, err = command(["export", "2", "--config", str(config)], capsys)
    assert status == 0 and "Traceback" not in err and len(out.splitlines()) >= 2, err
    app = App(app_settings(folder))
    try:
        assert app.resumed and app.controller.notices == [], "the screen is dropped, the game goes on"
        from hardware.events import InputEvent

        for key in ("ok", "ok", "right", "ok"):
            app.step(InputEvent("host", key))
    finally:
        app.close()


def test_a_good_saved_screen_is_still_restored(tmp_path: Path) -> None:
    folder, _acknowledged = live_copy(tmp_path)
    App(app_settings(folder)).close()
    saved_screen(folder, GOOD_NOTICE)
    app = App(app_settings(folder))
    try:
        assert [n.title for n in app.controller.notices] == ["Blue: put 2 houses"]
    finally:
        app.close()


# ---------------------------------------------------------------- 4: damage told until someone deals with it


def damage_line(folder: Path, game: int, seq: int) -> None:
    """A line SQLite keeps as text but that is no line of Doge, and no journal or entries to mend it (a store from
    before either)."""
    with sqlite3.connect(folder / FILENAME) as db:
        db.execute("UPDATE lines SET text = '{\"player\": ' WHERE game = ? AND seq = ?", (game, seq))
        db.execute("DELETE FROM entries")
    for journal in folder.glob("games.journal*"):
        journal.unlink()


def test_a_damaged_game_is_told_at_every_start_listed_with_its_reason_exported_cut_short_and_recovered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, acknowledged = live_copy(tmp_path)
    App(app_settings(folder)).close()
    damage_line(folder, 2, 40)
    damage_line(folder, 1, 50)
    config = config_for(tmp_path, folder)
    for _start in range(2):  # not only the first start after the damage is found
        app = App(app_settings(folder))
        try:
            assert not app.resumed
            told = " ".join(line.text for line in app.controller.screen().lines)
            assert "game 2" in told and "recover" in told, told
        finally:
            app.close()
    status, out, err = command(["games", "--config", str(config)], capsys)
    rows = {int(row.split()[0]): row for row in out.splitlines()[1:]}
    assert "damaged" in rows[2] and "line 40" in rows[2], rows[2]
    assert "damaged" in rows[1] and "line 50" in rows[1], "a finished game's damage is marked too"
    status, out, err = command(["export", "2", "--config", str(config)], capsys)
    assert status == 0 and 30 < len(out.splitlines()) <= 39, err  # a round's unrevealed ballots stay secret
    header = json.loads(out.splitlines()[0])
    assert header["export"]["cut_short"]["line"] == 40 and header["export"]["cut_short"]["why"], header
    assert "cut short" in err and len(err.splitlines()) == 1
    status, out, err = command(["recover", "2", "--config", str(config)], capsys)
    assert status == 0 and "as game 3" in out, out + err
    app = App(app_settings(folder))
    try:
        assert app.resumed and app.saver.game == 3 and app.saver.length == 39
        assert app.store.lines(3) == acknowledged[2][:39]
        told = " ".join(line.text for line in app.controller.screen().lines)
        assert "game 2" not in told, "dealt with: told no more"
    finally:
        app.close()


# ---------------------------------------------------------------- 5: reading never writes; a full disk stops


def test_games_and_export_leave_a_wal_and_its_shm_as_they_were(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _acknowledged = live_copy(tmp_path)
    shm = Path(f"{folder / FILENAME}-shm")
    shm.write_bytes(b"\0" * 32768)
    config = config_for(tmp_path, folder)
    before = snapshot_files(folder)
    stamps = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    for args in (["games"], ["export", "1"], ["export", "2"]):
        status, _out, err = command([*args, "--config", str(config)], capsys)
        assert status == 0, err
    assert snapshot_files(folder) == before
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == stamps


def test_a_full_disk_with_a_leftover_wal_stops_run_with_74(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _acknowledged = live_copy(tmp_path)
    Path(f"{folder / FILENAME}-shm").write_bytes(b"\0" * 32768)
    config = config_for(tmp_path, folder)
    script = tmp_path / "script.txt"
    script.write_text("host ok\n")
    real = os.statvfs

    class Full:
        def __init__(self, path: object) -> None:
            self._real = real(path)  # type: ignore[arg-type]

        def __getattr__(self, name: str) -> int:
            return 0 if name in ("f_bavail", "f_bfree", "f_favail") else getattr(self._real, name)  # type: ignore[no-any-return]

    monkeypatch.setattr(os, "statvfs", Full)
    before = snapshot_files(folder)
    status, _out, err = command(
        ["run", "--config", str(config), "--hardware", "mock", "--script", str(script), "--resume"], capsys
    )
    assert status == 74 and "full" in err, err
    monkeypatch.undo()
    after = snapshot_files(folder)
    after.pop("companion.lock", None)
    assert after == before, "nothing moved or written"


# ---------------------------------------------------------------- 6: bounded input


def test_export_of_a_game_number_beyond_any_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = config_for(tmp_path, tmp_path / "state")
    with pytest.raises(SystemExit) as stop:
        main(["export", "9" * 30, "--config", str(config)])
    _out, err = capsys.readouterr()
    assert stop.value.code == 64 and "Traceback" not in err and "game" in err.splitlines()[-1]


def limited(seconds: int = 20) -> dict[str, object]:
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # a runaway cannot take the shared machine

    return {"preexec_fn": limits, "timeout": seconds, "capture_output": True, "cwd": ROOT}


@pytest.mark.parametrize("source", ["/dev/zero", "/dev/urandom"])
def test_replay_and_a_script_from_an_endless_file_are_refused_in_one_line(source: str, tmp_path: Path) -> None:
    replay = subprocess.run([sys.executable, "-m", "companion", "replay", source], **limited())  # type: ignore[call-overload]
    assert replay.returncode == 2 and b"Traceback" not in replay.stderr, replay.stderr[-500:]
    assert len(replay.stderr.splitlines()) == 1 and len(replay.stderr) < 300, replay.stderr[-300:]
    config = config_for(tmp_path, tmp_path / "state")
    run = subprocess.run(  # type: ignore[call-overload]
        [sys.executable, "-m", "companion", "run", "--config", str(config), "--hardware", "mock", "--script", source],
        **limited(),
    )
    assert run.returncode == 2 and b"Traceback" not in run.stderr, run.stderr[-500:]
    assert b"script" in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr[-300:]


def test_a_long_line_on_keys_is_skipped_clipped_in_the_log_and_sigterm_still_exits_0(tmp_path: Path) -> None:
    config = config_for(tmp_path, tmp_path / "state")
    fifo = tmp_path / "keys"
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--config", str(config), "--hardware", "mock", "--keys", str(fifo)],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        for _ in range(600):  # a hang guard: the companion starting
            if fifo.is_fifo() or child.poll() is not None:
                break
            time.sleep(0.05)
        with fifo.open("wb") as keys:
            keys.write(b"host " + b"x" * 10_000_000 + b"\nhost rihgt\n")
        time.sleep(1)
        child.send_signal(signal.SIGTERM)
        _out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 0, err[-500:]
    assert max(len(line) for line in err.splitlines()) < 1000, "a clipped log line"
    assert b"line 2: unknown key 'rihgt'" in err, "the line after it is read"


def test_a_sound_device_like_an_option_is_refused_by_check_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[sound]\ndevice = "--help"\n')
    assert main(["check-config", str(config)]) == 78
