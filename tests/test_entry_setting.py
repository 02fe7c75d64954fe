"""The config's ``game.entry`` wins unless the host presses (docs/config.md): setup starts with it and says it on
its "Ballots" line, the host's right switches it and the line says so at once, and the next start of the companion
begins with the config's again. (The README once told every reader to press right to choose keypads, which with
``entry = "keypads"`` switched it back to one at a time.)"""

from __future__ import annotations

from pathlib import Path

from companion.app import App
from companion.store import Store
from hardware.events import InputEvent
from tests.helpers import app_settings


def ballots_line(app: App) -> str:
    screen = app.controller.screen()
    return next(line.text for line in screen.lines if "Ballots" in line.text)


def test_setup_starts_with_the_configs_entry_and_only_the_hosts_right_changes_it(tmp_path: Path) -> None:
    settings = app_settings(tmp_path)
    settings.data["game"]["entry"] = "keypads"
    app = App(settings, seed=1, store=Store(None, memory=True))
    try:
        assert app.controller.seats.entry == "keypads" and ballots_line(app) == "▶ Ballots: keypads"
        for pad in ("1", "2", "3"):
            app.step(InputEvent(pad, "ok"))
        app.step(InputEvent("host", "left"))  # the language, not the entry
        assert app.controller.seats.entry == "keypads"
        app.step(InputEvent("host", "left"))
        app.step(InputEvent("host", "left"))  # English again
        app.step(InputEvent("host", "right"))
        assert app.controller.seats.entry == "private" and ballots_line(app) == "▶ Ballots: one at a time"
    finally:
        app.close()
    again = App(settings, seed=1, store=Store(None, memory=True))
    try:
        assert again.controller.seats.entry == "keypads", "a new start begins with the config's"
    finally:
        again.close()
