"""Nothing lost (docs/architecture.md "A restart"): the store, resuming, bad stores, a full disk, exports."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from companion.app import App
from companion.engine import dump_header, private_view, replay_text, snapshot
from companion.flow.autoplay import Table
from companion.store import APPLICATION_ID, FILENAME, SCHEMA_VERSION, Store, StoreError, default_directory
from companion.store.export import public_record
from hardware.events import InputEvent
from tests.helpers import anyone_locked_in, app_settings, random_game, without_stamps

ROOT = Path(__file__).resolve().parents[1]
HEADER = '{"doge": 1, "players": ["red", "blue", "green"]}'


def test_state_directory_order() -> None:
    assert default_directory("~/games", {}) == Path("~/games").expanduser()
    assert default_directory("", {"STATE_DIRECTORY": "/var/lib/doge:/other"}) == Path("/var/lib/doge")
    assert default_directory("", {"XDG_STATE_HOME": "/x"}) == Path("/x/doge-companion")
    assert default_directory("", {"HOME": "/home/p"}) == Path("/home/p/.local/state/doge-companion")


def test_lines_are_committed_durably(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = store.new_game(HEADER, {"phone1": "d1", "2": "d2"})  # which phone holds a seat, with the game
    store.append(game, 2, ['{"shuffle": []}', '{"x": 1}'], {"year": 2})
    store.close()
    db = sqlite3.connect(tmp_path / FILENAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    again = Store(tmp_path)
    assert again.lines(game) == [HEADER, '{"shuffle": []}', '{"x": 1}']
    info = again.games()[0]
    assert (info.players, info.status, info.year, info.lines) == (["red", "blue", "green"], "playing", 2, 3)
    assert again.unfinished() == game
    assert again.phones(game) == {"phone1": "d1", "2": "d2"}
    with sqlite3.connect(":memory:") as probe:  # synchronous is per connection: check ours
        assert probe is not None
    # NORMAL: the journal beside it is the commit point, synced in each acknowledgement (companion/store/journal.py)
    assert again._db.execute("PRAGMA synchronous").fetchone()[0] == 1
    assert [
        json.loads(line[9:])["n"] for line in (tmp_path / "games.journal").read_text().rstrip("\0").splitlines()
    ] == [1, 2, 3]


def test_undo_truncates(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = store.new_game(HEADER)
    store.append(game, 2, ["a", "b", "c"], {})
    store.truncate(game, 2, {})
    assert store.lines(game) == [HEADER, "a"]


def test_schema_1_is_migrated_forward(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / FILENAME)
    db.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT NOT NULL, players TEXT NOT NULL, "
        "status TEXT NOT NULL DEFAULT 'playing', year INTEGER NOT NULL DEFAULT 1, winners TEXT NOT NULL DEFAULT '[]', "
        "updated TEXT NOT NULL);"
        "CREATE TABLE lines (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, text TEXT NOT NULL, "
        "PRIMARY KEY (game, seq));"
        f"PRAGMA user_version = 1; PRAGMA application_id = {APPLICATION_ID};"
        "INSERT INTO games (started, players, updated) VALUES ('2026-01-01T00:00:00Z', '[\"a\",\"b\",\"c\"]', 'x');"
        f"INSERT INTO lines VALUES (1, 1, '{HEADER}');"
    )
    db.close()
    store = Store(tmp_path)
    assert store.problem is None and store.lines(1) == [HEADER]
    store.save_screen(1, {"notices": []})
    assert store.screen(1) == {"notices": []}
    assert store.phones(1) == {}  # schema 3: which phone holds each seat (docs/web-pads.md)
    store.give_seat(1, "2", "d1")
    store.give_seat(1, "2", "d2")  # the host gave the seat to another phone: one holder a seat
    assert store.phones(1) == {"2": "d2"}
    assert store.hidden(1) == set()  # schema 4: whether a seat's locked-in ballot is hidden from its phone
    store.give_seat(1, "3", "d3", hidden=True)
    assert store.hidden(1) == {"3"}
    store.unhide(1, "3")
    assert store.hidden(1) == set() and store.phones(1) == {"2": "d2", "3": "d3"}


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"this is not a database at all, just some bytes" * 100, "file is not a database"),
        ("another program's store", "not a Doge Companion store"),
        ("a newer schema", "made by a newer version"),
    ],
)
def test_a_store_that_cannot_be_used_is_moved_aside_never_deleted(
    tmp_path: Path, content: bytes | str, why: str
) -> None:
    path = tmp_path / FILENAME
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        db = sqlite3.connect(path)
        if content == "a newer schema":
            db.executescript(f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 99; CREATE TABLE t(x);")
        else:
            db.executescript("CREATE TABLE notes (text); INSERT INTO notes VALUES ('keep me');")
        db.close()
    original = path.read_bytes()
    store = Store(tmp_path)
    assert store.problem is not None and why in store.problem and "kept as" in store.problem
    aside = [p for p in tmp_path.iterdir() if ".broken-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == original
    assert store.saving
    game = store.new_game(HEADER)
    assert store.lines(game) == [HEADER], "a fresh store works"


def test_damaged_stores_moved_aside_in_the_same_second_are_all_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a service restarting within one second renamed the second damaged file over the first."""
    monkeypatch.setattr("companion.store.files.stamp", lambda: "20260101-120000")
    contents = []
    for number in range(3):
        content = f"damaged store {number} ".encode() * 100
        (tmp_path / FILENAME).write_bytes(content)
        for suffix in ("-wal", "-shm"):
            Path(f"{tmp_path / FILENAME}{suffix}").unlink(missing_ok=True)
        contents.append(content)
        store = Store(tmp_path)
        assert store.problem is not None and "kept as" in store.problem
        store.close()
    aside = sorted(p for p in tmp_path.iterdir() if ".broken-" in p.name and p.name.endswith(".sqlite3"))
    assert sorted(p.read_bytes() for p in aside) == sorted(contents), [p.name for p in aside]


def many_games(directory: Path, games: int = 12) -> int:
    """A store of several pages, closed cleanly (no -wal); returns its page size."""
    store = Store(directory)
    for _ in range(games):
        game = store.new_game(HEADER)
        store.append(game, 2, [json.dumps({"x": "y" * 200, "n": n}) for n in range(40)], {})
    store.close()
    return int(sqlite3.connect(directory / FILENAME).execute("PRAGMA page_size").fetchone()[0])


def test_a_store_damaged_beyond_its_header_is_moved_aside_and_games_says_so_in_one_line(tmp_path: Path) -> None:
    """Regression: its header was fine, so it was opened, and the game failed later ("database disk image is
    malformed"): the service restarted forever and `games` printed a traceback."""
    page = many_games(tmp_path)
    path = tmp_path / FILENAME
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * page
    data[3 * page : 4 * page] = bytes(page)  # a page a torn copy never wrote
    path.write_bytes(bytes(data))
    config_file = tmp_path / "config.toml"
    config_file.write_text(f'[game]\nstate_dir = "{tmp_path}"\n')
    listing = cli(config_file, "games")
    assert listing.returncode == 0 and "Traceback" not in listing.stderr
    assert len(listing.stderr.strip().splitlines()) == 1 and "read from the journal" in listing.stderr, listing.stderr
    journal = (tmp_path / "games.journal").read_bytes()
    (tmp_path / "games.journal").rename(tmp_path / "journal.kept")  # a store from before the journal: no second copy
    listing = cli(config_file, "games")
    assert listing.returncode == 1 and "Traceback" not in listing.stderr
    assert len(listing.stderr.strip().splitlines()) == 1 and "moves it aside" in listing.stderr, listing.stderr
    (tmp_path / "journal.kept").rename(tmp_path / "games.journal")
    store = Store(tmp_path)
    try:
        assert store.problem is not None and "kept as" in store.problem and "\n" not in store.problem
        assert "brought back from the journal" in store.problem, store.problem
        aside = [p for p in tmp_path.iterdir() if ".broken-" in p.name and p.name.endswith(".sqlite3")]
        assert len(aside) == 1 and aside[0].read_bytes() == bytes(data)
        assert (tmp_path / "games.journal").read_bytes().rstrip(b"\0") == journal.rstrip(b"\0"), "intact: the truth"
        assert len(store.games()) == len(
            {json.loads(line[9:])["g"] for line in journal.rstrip(b"\0").decode().splitlines()}
        )
    finally:
        store.close()


def test_an_io_error_at_start_moves_nothing_and_says_which_directory(tmp_path: Path) -> None:
    """SQLite's real "disk I/O error" when the -shm cannot grow (as on a full disk), met unprivileged: the child
    may write no file past 16 KiB (RLIMIT_FSIZE: less than the store, which it need not write to open), so the 32 KiB
    -shm fails. The store is kept."""
    store = Store(tmp_path)
    store.new_game(HEADER)
    store.close()
    before = (tmp_path / FILENAME).read_bytes()
    code = (
        "import resource, signal, sys\n"
        "from pathlib import Path\n"
        "from companion.store import Store, StoreUnavailable\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))\n"
        "try:\n"
        f"    Store(Path({str(tmp_path)!r}))\n"
        "except StoreUnavailable as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "disk I/O error" in result.stdout and str(tmp_path) in result.stdout and "nothing was moved" in result.stdout
    assert not [p for p in tmp_path.iterdir() if ".broken-" in p.name], "nothing moved aside"
    assert (tmp_path / FILENAME).read_bytes() == before
    store = Store(tmp_path)  # without the limit: the saved game is there
    try:
        assert store.problem is None and store.unfinished() == 1 and store.lines(1) == [HEADER]
    finally:
        store.close()


def test_autoplay_on_a_full_disk_stops_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: it pressed ok on the "Not saved" notice for ever, at 100% CPU, a log line each time."""
    app = App(app_settings(tmp_path), seed=4)
    try:
        pages = app.store._db.execute("PRAGMA page_count").fetchone()[0]
        app.store._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLite's own "database or disk is full"
        status: list[int] = []
        thread = threading.Thread(target=lambda: status.append(app.run(threading.Event(), autoplay=7)), daemon=True)
        thread.start()
        thread.join(timeout=300)  # a hang guard, not a verdict on speed
        assert not thread.is_alive(), "autoplay kept trying"
        assert status == [1]
        said = capsys.readouterr().err.splitlines()
        assert said == ["doge-companion: autoplay stopped: the disk is full"]
        assert app.store.lines(app.saver.game) == app.controller.record  # type: ignore[arg-type]
    finally:
        app.close()


def test_a_directory_that_cannot_be_made_means_no_saving_and_a_message(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = Store(blocker / "games")
    assert not store.saving and store.problem and "not being saved" in store.problem
    game = store.new_game(HEADER)  # the game still runs, in memory
    assert store.lines(game) == [HEADER]


def test_a_read_only_disk_means_no_saving_and_a_message() -> None:
    # Outside pytest's private temporary root, so that the unprivileged child below can reach it.
    tmp_path = Path(tempfile.mkdtemp(prefix="doge-ro-"))
    os.chmod(tmp_path, 0o755)
    store = Store(tmp_path / "ro")
    store.new_game(HEADER)
    store.close()
    os.chmod(tmp_path / "ro" / FILENAME, 0o444)
    os.chmod(tmp_path / "ro", 0o555)
    # Root ignores permissions: the child drops to nobody (as the service's own user would be), after its imports.
    code = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from companion.store import Store\n"
        "if os.geteuid() == 0:\n"
        "    os.setgid(65534)\n"
        "    os.setuid(65534)\n"
        f"store = Store(Path({str(tmp_path / 'ro')!r}))\n"
        "print(store.saving, store.problem)\n"
        "print(len(store.games()), store.unfinished(), len(store.lines(1)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    os.chmod(tmp_path / "ro", 0o755)
    try:
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("False games are not being saved:") and "read-only" in result.stdout
        # One truth: the saved game is there to resume, list and export, though nothing can be written.
        assert result.stdout.splitlines()[1] == "1 1 1", result.stdout
        config_file = tmp_path / "config.toml"
        config_file.write_text(f'[game]\nstate_dir = "{tmp_path / "ro"}"\n')
        os.chmod(tmp_path / "ro", 0o555)
        listing = cli(config_file, "games")
        assert listing.returncode == 0 and "red, blue, green" in listing.stdout and "playing" in listing.stdout
        exported = cli(config_file, "export", "1")
        assert exported.returncode == 0 and json.loads(exported.stdout.splitlines()[0])["players"][0] == "red"
        assert sorted(p.name for p in (tmp_path / "ro").iterdir()) == ["games.journal", FILENAME], "nothing written"
        assert (tmp_path / "ro" / FILENAME).exists(), "nothing was moved or deleted"
    finally:
        shutil.rmtree(tmp_path)


def test_disk_full_is_said_on_screen_and_the_decision_is_not_acknowledged(tmp_path: Path) -> None:
    app = App(app_settings(tmp_path), seed=4)
    try:
        table = Table(app.controller, random.Random(1), ["1", "2", "3"], keypads=False, handle=app.step)
        table.setup()
        while app.controller.notices:
            table.press("host", "ok")
        pages = app.store._db.execute("PRAGMA page_count").fetchone()[0]
        app.store._db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk full"
        state_before = snapshot(app.controller.state)  # type: ignore[arg-type]
        record_before = list(app.controller.record)
        for _ in range(5000):  # play on until a line needs a page the disk does not have
            table.turn()
            if app.screen is not None and "error" in app.screen.tags:
                break
        assert app.screen is not None and "Not saved: the disk is full." in app.screen.text()
        stored = app.store.lines(app.saver.game)  # type: ignore[arg-type]
        assert stored == app.controller.record, "what the controller counts is exactly what is stored"
        assert len(app.controller.record) >= len(record_before)
        app.store._db.execute("PRAGMA max_page_count = 1073741823")
        table.press("host", "ok")
        for _ in range(300):  # play on with room again: every line is saved again (a whole game adds nothing)
            table.turn()
        assert without_stamps(app.store.lines(app.saver.game)) == without_stamps(app.controller.record)  # type: ignore[arg-type]
        assert state_before["phase"] == "ballot"
    finally:
        app.close()


def test_an_unfinished_game_resumes_exactly_where_it_stopped(tmp_path: Path) -> None:
    first = App(app_settings(tmp_path), seed=9, entry="keypads")
    table = Table(first.controller, random.Random(2), ["1", "2", "3", "4"], keypads=True, handle=first.step)
    table.setup()
    for _ in range(600):
        table.turn()
    while not (
        first.controller.state and first.controller.state.phase == "ballot" and anyone_locked_in(first.controller.state)
    ):
        table.turn()  # stop with a ballot locked in but not revealed
    screen, record = first.controller.screen(), list(first.controller.record)
    state = first.controller.state
    first.close()  # as if the power went
    second = App(app_settings(tmp_path), seed=99)
    try:
        assert second.resumed
        resumed = second.controller
        assert resumed.record == record
        assert resumed.state is not None and state is not None
        assert snapshot(resumed.state) == snapshot(state)
        assert [private_view(resumed.state, s) for s in range(state.player_count)] == [
            private_view(state, s) for s in range(state.player_count)
        ], "locked-in ballots are still locked in, and still secret"
        assert "resume" in resumed.screen().tags, "first: which game goes on"
        second.step(InputEvent("host", "ok"))
        assert resumed.screen() == screen
        assert resumed.players == first.controller.players and resumed.seats.entry == "keypads"
        Table(resumed, random.Random(3), ["1", "2", "3", "4"], keypads=True, handle=second.step).play()
        assert snapshot(replay_text(resumed.record))["winners"]
    finally:
        second.close()
    third = App(app_settings(tmp_path), seed=5)
    assert not third.resumed, "a finished game is not resumed"
    third.close()


def test_a_power_cut_between_the_header_and_its_shuffle_resumes_and_saves_the_shuffle(tmp_path: Path) -> None:
    """The header is committed, then the year's shuffles: a cut between them leaves a record that stops where a
    shuffle is due. Resuming draws it and saves it to the game (it was drawn before the game was bound, and "Not
    saved" stopped the table; found by the torn copies of tests/test_crash.py once the phones' seats joined the
    store)."""
    first = App(app_settings(tmp_path), seed=9)
    for source in ("1", "2", "3"):
        first.step(InputEvent(source, "ok"))
    header = dump_header(first.controller.players, **first.controller.seats.header_extra())
    first.close()
    Store(tmp_path).new_game(header)  # the header alone: the power went before the shuffles were saved
    second = App(app_settings(tmp_path), seed=9)
    try:
        assert second.resumed and second.saver.game is not None
        record = second.controller.record
        assert len(record) > 1 and "error" not in second.controller.screen().tags
        assert second.store.lines(second.saver.game) == record, "the shuffles drawn on resume are saved"
    finally:
        second.close()


def test_export_of_a_finished_game_is_its_record() -> None:
    lines, _, state = random_game(4)
    assert state.is_over and public_record(lines) == lines


@pytest.mark.parametrize("seed", range(6))
def test_export_of_an_unfinished_game_hides_every_secret_and_replays_the_same(seed: int) -> None:
    lines, snaps, _ = random_game(seed)
    cut = random.Random(seed).randrange(4, len(lines) - 1)
    partial = lines[: cut + 1]
    exported = public_record(partial)
    header = json.loads(exported[0])
    assert header["export"]["unfinished"] is True
    replayed = [snapshot(replay_text(exported[: i + 1])) for i in range(1, len(exported))]
    assert replayed == snaps[1 : len(exported)], "the same public states, line by line"
    assert len(exported) <= len(partial)
    # The same export whatever the secrets were: export the export (its secrets are different stand-ins).
    assert public_record(exported)[1:] == exported[1:]


def cli(config_file: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args, "--config", str(config_file)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_games_and_export_commands(tmp_path: Path) -> None:
    app = App(app_settings(tmp_path), seed=2)
    table = Table(app.controller, random.Random(2), ["1", "2", "3"], keypads=False, handle=app.step)
    table.setup()
    table.play()
    app.close()
    config_file = tmp_path / "config.toml"
    config_file.write_text(f'[game]\nstate_dir = "{tmp_path}"\n')

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion.cli", *args, "--config", str(config_file)],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    listing = cli("games")
    assert listing.returncode == 0 and "over" in listing.stdout and "red, blue, green" in listing.stdout
    out = tmp_path.with_name(tmp_path.name + "-export") / "game.jsonl"  # export refuses the state directory
    out.parent.mkdir()
    assert cli("export", "1", "--out", str(out)).returncode == 0
    assert snapshot(replay_text(out.read_text().splitlines()))["winners"]
    missing = cli("export", "7")
    assert missing.returncode == 1 and "there is no game 7" in missing.stderr
    broken = Store(None, memory=True)
    broken._db.close()
    with pytest.raises(StoreError):
        broken.append(1, 2, ["x"], {})
