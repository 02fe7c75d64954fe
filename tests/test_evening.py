"""A whole evening by buttons: a game to its end, the next game started from the game-over screen, a game
abandoned half-way, a restart that offers the game in progress; the archive (`doge-companion games`, `export`)
lists all three as they are."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from companion.app import App
from companion.flow.autoplay import Table
from companion.flow.modes.board_check import PAGES
from companion.store import Store
from hardware.events import InputEvent
from tests.helpers import app_settings
from tests.test_one_process import paused_game

ROOT = Path(__file__).resolve().parents[1]
PADS = ["1", "2", "3"]


def press(app: App, key: str, kind: str = "press") -> None:
    app.step(InputEvent("host", key, kind))  # type: ignore[arg-type]


def tags(app: App) -> tuple[str, ...]:
    return app.controller.screen().tags


def test_an_evening_of_three_games_by_buttons(tmp_path: Path) -> None:
    app = App(app_settings(tmp_path), seed=4)
    try:
        table = Table(app.controller, random.Random(4), PADS, keypads=False, handle=app.step)
        table.setup()
        seats = list(app.controller.seats.joined)
        table.play()  # the first game, to its end
        assert app.controller.stage == "over" and app.summary is not None
        first_summary = app.summary

        press(app, "back")  # at the end: the next game is offered; a stray key stays
        assert "next-game" in tags(app) and "Red, Blue, Green" in app.controller.screen().text()
        press(app, "left")
        assert app.controller.stage == "over" and "next-game" not in tags(app)
        press(app, "back")
        press(app, "ok")  # the next game: setup, with the same table offered
        assert app.controller.stage == "setup" and app.controller.seats.joined == seats
        press(app, "ok")  # and it starts as it was
        assert app.controller.stage == "game" and app.controller.record[0] != ""

        for _turn in range(150):  # the second game, half-way
            table.turn()
        length = len(app.controller.record)
        press(app, "back")  # the board check; right past its last page: the way out of the game
        for _press in range(3 * PAGES):  # a page too long for the display turns its parts first
            if "abandon" in tags(app):
                break
            press(app, "right")
        assert "abandon" in tags(app) and ("hold:back", "abandon the game") in app.controller.screen().keys
        assert ("hold:back", "undo") not in app.controller.screen().keys
        press(app, "ok")  # not by accident: any key but a held back keeps playing
        assert app.controller.stage == "game" and not app.controller.overlays
        press(app, "back")
        press(app, "left")  # left from the map: the sound page, then the last page (the year so far), never the way out
        assert "sound" in tags(app)
        press(app, "left")
        assert "abandon" not in tags(app)
        while "abandon" not in tags(app):  # its parts, then the way out
            press(app, "right")
        press(app, "back", "hold")  # given up: a new game is set up at the same table
        assert app.controller.stage == "setup" and app.controller.seats.joined == seats
        press(app, "ok")
        for _turn in range(40):  # the third game: it will be in progress at the next start
            table.turn()
        third = list(app.controller.record)
    finally:
        app.close()

    app = App(app_settings(tmp_path), seed=5)
    try:
        screen = app.controller.screen()
        assert "resume" in screen.tags, screen
        text = screen.text()
        assert "Game 3, started" in text and "Year 1: Red, Blue, Green" in text
        assert app.controller.record == third
        press(app, "right")  # a new game instead? then it asks for the held back
        assert "abandon" in tags(app)
        press(app, "left")  # no: the game in progress goes on
        assert app.controller.stage == "game" and app.controller.record == third and not app.controller.overlays
    finally:
        app.close()

    games = Store(tmp_path, read_only=True).games()
    assert [(g.id, g.status) for g in games] == [(1, "over"), (2, "abandoned"), (3, "playing")]
    assert games[0].winners and games[1].lines == length and first_summary.exists()
    config = tmp_path / "config.toml"
    config.write_text(f'hardware = "mock"\n[game]\nstate_dir = "{tmp_path}"\n[pads]\nserial = "off"\n')
    listing = run("games", "--config", str(config))
    rows = listing.stdout.splitlines()[1:]
    assert [
        (row.split()[0], status in row) for row, status in zip(rows, ("over", "abandoned", "playing"), strict=True)
    ] == [
        ("1", True),
        ("2", True),
        ("3", True),
    ], listing.stdout
    exported = run("export", "2", "--config", str(config))
    assert exported.returncode == 0 and len(exported.stdout.splitlines()) == length


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_only_the_host_answers_the_start_up_question(tmp_path: Path) -> None:
    """Regression: after a power cut a player's habitual ok answered the host's question (and at 160x128, in parts,
    the host never reached "right: a new game"). A player's key is their own; the question waits for the host."""
    record = paused_game(tmp_path, 30)
    app = App(app_settings(tmp_path), seed=6)
    try:
        assert "resume" in tags(app)
        table = Table(app.controller, random.Random(7), PADS, keypads=False, handle=app.step)
        for pad in PADS:
            table.press(pad, "ok")
        assert "resume" in tags(app) and app.controller.record == record
        table.press("host", "ok")
        assert "resume" not in tags(app) and app.controller.record == record
    finally:
        app.close()
