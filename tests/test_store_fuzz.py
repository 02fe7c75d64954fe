"""The fault fuzzer: what an SD card does to a store made by a real game, at random, then what the user
runs next. A store as a power cut leaves it (game 1 over, game 2 under way, its last lines in the -wal, the journal
beside) gets one random damage: a file cut short, cut to 0 bytes or gone, a flipped bit in the database, the -wal or
the journal, a row no version writes. Then ``games``, ``export`` of each game, and a restart. Each case must hold:

- never a traceback, and at most a line or two on stderr;
- never a write by a read-only command (every file's bytes and names as they were);
- never a silent loss: after the restart every acknowledged line of each game is in the store, or the screen says
  what happened (the journal brought it back, a file was moved aside, a game was set aside).

A fixed seeded loop (the suite's verdict is the same every run); ``DOGE_FUZZ_CASES`` and ``DOGE_FUZZ_SEED`` run more.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from companion.app import App
from companion.cli.command import main
from companion.flow.autoplay import Table
from companion.store import FILENAME, Store
from tests.helpers import app_settings, random_game

CASES = int(os.environ.get("DOGE_FUZZ_CASES", "200"))
FILES = (FILENAME, f"{FILENAME}-wal", "games.journal")
BAD_ROWS = (
    "UPDATE games SET players = 'red, blue' WHERE id = {game}",
    "UPDATE games SET status = 'zzz' WHERE id = {game}",
    "UPDATE games SET year = 'abc' WHERE id = {game}",
    "UPDATE lines SET text = '{{\"player\": ' WHERE game = {game} AND seq = {seq}",
    "UPDATE lines SET text = X'FF00FF' WHERE game = {game} AND seq = {seq}",
    "DELETE FROM lines WHERE game = {game} AND seq = {seq}",
    "DELETE FROM lines WHERE game = {game} AND seq >= {seq}",
    "DELETE FROM games WHERE id = {game}",
    'UPDATE screens SET state = \'{{"notices": [{{"title": "x", "lines": [["a", "huge", null]], '
    '"rule": null, "tag": "n", "line": 0}}]}}\'',
)


def files_of(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, list[str]]]:
    """The store as a power cut leaves it, made by the App and a simulated table; and what each game acknowledged."""
    live = tmp_path_factory.mktemp("live")
    finished, _snaps, state = random_game(3)
    store = Store(live)
    one = store.new_game(finished[0])
    store.append(one, 2, finished[1:], {"status": "over", "year": state.year, "winners": ["red"]})
    store.close()
    app = App(app_settings(live), seed=7)
    try:
        table = Table(app.controller, random.Random(7), ["1", "2", "3"], False, handle=app.step)
        table.setup()
        for _turn in range(150):
            table.turn()
        acknowledged = {1: finished, 2: list(app.controller.record)}
        assert app.saver.game == 2 and len(acknowledged[2]) > 20
        folder = tmp_path_factory.mktemp("base")
        for name in FILES:
            shutil.copy(live / name, folder / name)  # while the companion has them open: a power cut's files
    finally:
        app.close()
    assert (folder / f"{FILENAME}-wal").stat().st_size > 0
    return folder, acknowledged


def damage(folder: Path, rng: random.Random, acknowledged: dict[int, list[str]]) -> str:
    """One random damage; returns what it was."""
    kind = rng.choice(("cut", "zero", "delete", "flip", "flip", "flip", "row"))
    if kind == "row":
        game = rng.choice((1, 2))
        sql = rng.choice(BAD_ROWS).format(game=game, seq=rng.randint(2, len(acknowledged[game])))
        db = sqlite3.connect(folder / FILENAME, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys = OFF")
            db.execute(sql)
        finally:
            db.close()  # the last connection: SQLite checkpoints the -wal into the file and deletes it
        return f"row: {sql[:40]}"
    name = rng.choice(FILES)
    path = folder / name
    if kind == "delete":
        path.unlink()
    elif kind == "zero":
        path.write_bytes(b"")
    elif kind == "cut":
        data = path.read_bytes()
        path.write_bytes(data[: rng.randrange(len(data))])
    else:
        data = bytearray(path.read_bytes())
        spot = rng.randrange(len(data))
        data[spot] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
    return f"{kind} {name}"


def test_random_damage_to_a_real_games_store_is_never_a_traceback_a_write_by_a_read_or_a_silent_loss(
    base: tuple[Path, dict[int, list[str]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, acknowledged = base
    rng = random.Random(int(os.environ.get("DOGE_FUZZ_SEED", "42")))
    figures: Counter[str] = Counter()
    failures: list[str] = []
    for case in range(CASES):
        folder = tmp_path / f"case{case}"
        shutil.copytree(source, folder)
        what = damage(folder, rng, acknowledged)
        figures[what.split(":")[0].split()[0]] += 1
        config = tmp_path / f"config{case}.toml"
        config.write_text(f'[game]\nstate_dir = "{folder}"\n')
        before = files_of(folder)
        problems = []
        for args in (["games"], ["export", "1"], ["export", "2"]):
            try:
                main([*args, "--config", str(config)])
            except BaseException as error:
                problems.append(f"{args[0]} raised {error!r}")
            _out, err = capsys.readouterr()
            if "Traceback" in err or len(err.splitlines()) > 2:
                problems.append(f"{args} said {err!r}")
        if files_of(folder) != before:
            problems.append("a read-only command wrote")
        try:
            app = App(app_settings(folder))
        except BaseException as error:
            problems.append(f"the restart raised {error!r}")
        else:
            try:
                told = app.store.problem or ""
                lost = [g for g, lines in acknowledged.items() if app.store.record(g)[0] != lines]
                if lost:
                    figures["lost, and told"] += 1
                    if not told:
                        problems.append(f"games {lost} lost lines and nothing was said")
                elif told:
                    figures["told what came back"] += 1
                if app.resumed and app.saver.length != len(acknowledged[2]) and not told:
                    problems.append("resumed short, silently")
            finally:
                app.close()
        if problems:
            failures.append(f"case {case} ({what}): {'; '.join(problems)}")
        else:
            figures["held"] += 1
        shutil.rmtree(folder)
    print(f"fuzzer: {CASES} cases, {dict(figures)}")  # the fuzzer's figures (pytest -s shows them)
    assert not failures, "\n".join(failures)
    assert figures["held"] == CASES
    assert figures["lost, and told"] == 0, "one damage at a time, two copies: nothing acknowledged is lost at all"
