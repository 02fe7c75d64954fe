"""A store SQLite finds nothing wrong with but whose content is damaged: every command says what it can in
one line, in bounded time, and nothing is lost. The file's shape wrong: moved aside, a fresh store; one game's row
or record wrong: that game set aside, the rest kept; the screens row wrong: only the screen lost (tests/store_damage.py
makes the cases: those first found and their neighbours)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app import App
from companion.cli.command import main
from companion.flow.autoplay import Table
from companion.store import FILENAME
from tests.helpers import app_settings
from tests.store_damage import CASES, UNFINISHED_AT, damaged_copy, make_base

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_base(tmp_path_factory.mktemp("base"))


def listing(rows: str) -> dict[int, str]:
    return {int(line.split()[0]): line for line in rows.splitlines()[1:]}


@pytest.mark.parametrize("case", CASES)
def test_a_damaged_store_costs_one_line_and_loses_nothing(
    case: str, base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kind = CASES[case][0]
    folder = tmp_path / "state"
    store = damaged_copy(base, case, folder)
    damaged = store.read_bytes()
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{folder}"\n')

    # games and export: one line at most on stderr, never a traceback, and they write nothing
    said = {}
    for args in (["games"], ["export", "1"], ["export", "2"]):
        status = main([*args, "--config", str(config)])
        out, err = capsys.readouterr()
        assert len(err.splitlines()) <= 1 and len(err) < 300 and "Traceback" not in err, err
        said[args[-1]] = (status, out, err)
    assert store.read_bytes() == damaged and os.listdir(folder) == [FILENAME], "read only"
    if kind == "store":
        for status, _out, err in said.values():
            assert status == 1 and "cannot be read (damaged" in err and "moves it aside when it next starts" in err
    else:
        assert said["games"][0] == 0 and sorted(listing(said["games"][1])) == [1, 2]
        for game in ("1", "2"):
            status, out, err = said[game]
            if kind == f"record {game}" and case.startswith(("no-lines", "header")):  # nothing readable
                assert status == 1 and f"game {game}'s record is damaged" in err and out == "", err
            elif kind == f"record {game}":  # its readable lines, marked cut short (docs/export.md)
                assert status == 0 and f"game {game}'s record is damaged" in err and "cut short" in err, err
                assert json.loads(out.splitlines()[0])["export"]["cut_short"]["why"], out
            else:
                assert status == 0 and out.startswith('{"doge": 1') and err == "", err
        if kind.startswith("row"):
            row = listing(said["games"][1])[int(kind[-1])]
            assert "damaged" in row and "not readable" in row, row

    # the companion itself: it starts, and only what is damaged is set aside
    app = App(app_settings(folder))
    try:
        games = {game.id: game for game in app.store.games()}
        if kind == "store":
            (aside,) = folder.glob("games.broken-*.sqlite3")
            assert aside.read_bytes() == damaged, "moved aside as it was"
            assert games == {} and not app.resumed and aside.name in (app.store.problem or "")
            return
        assert games[1].lines == len(random_game_lines(base, 1)) and games[2].id == 2, "both kept"
        if kind in ("row 2", "record 2"):
            assert not app.resumed and games[2].status == "damaged", "set aside, not resumed"
            if not case.startswith("status"):  # one whose status cannot be read is not known to be unfinished
                assert "game 2 is set aside as damaged" in (app.store.problem or ""), "the table is told"
                assert "doge-companion recover 2" in (app.store.problem or ""), "and how to go on"
            table = Table(app.controller, random.Random(1), ["1", "2", "3"], False, handle=app.step)
            table.setup()
            table.turn()
            assert app.store.unfinished() == 3 and app.saver.game == 3, "a new game starts, and is saved"
        else:
            assert app.resumed and app.saver.length == UNFINISHED_AT, "game 2 goes on where it stopped"
            assert games[2].status == "playing" and (games[1].status == "over") == (kind != "row 1")
            assert len(app.controller.notices) == (0 if kind == "screen" else 1), "a bad screens row loses the screen"
    finally:
        app.close()


def random_game_lines(base: Path, game: int) -> list[str]:
    import sqlite3

    with sqlite3.connect(base) as db:
        return [row[0] for row in db.execute("SELECT text FROM lines WHERE game = ? ORDER BY seq", (game,))]


def test_run_says_so_in_one_line_never_that_the_hardware_failed(base: Path, tmp_path: Path) -> None:
    """Regression: with `user_version = -5`, `run` said "cannot start the hardware: -4" and moved nothing."""
    folder = tmp_path / "state"
    damaged = damaged_copy(base, "user-version-minus-5", folder).read_bytes()
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{folder}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n')
    script = tmp_path / "script.txt"
    script.write_text("1 ok\n2 ok\n3 ok\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--config", str(config), "--hardware", "mock", "--script",
         str(script), "--resume"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert result.returncode == 0 and "hardware" not in result.stderr and "Traceback" not in result.stderr
    assert "moved aside" in result.stderr, result.stderr
    (aside,) = folder.glob("games.broken-*.sqlite3")
    assert aside.read_bytes() == damaged
