"""``doge-companion screens``: every kind of screen, at every display size, as PNGs (docs/screens/).

Seeded games are played by the simulated table and the first screen of each kind is kept; help, board check and
undo are opened on purpose mid-game. The pictures are the real renderer's output for real game situations.
"""

from __future__ import annotations

import random
from datetime import UTC
from pathlib import Path

from display.pages import paginate
from display.render import render
from display.screen import Screen

from ..flow.autoplay import Table
from ..flow.controller import Controller
from ..flow.modes import ResumeOffer
from ..flow.modes.board_check import PAGES
from ..flow.paging import more_to_read
from ..flow.seats import Colour, Source
from ..flow.sound import Sound
from ..flow.undo_chain import undo_blocker, undo_chain
from ..i18n import LANGUAGES, set_language

SIZES = ((160, 128), (240, 240), (320, 240))


def kind(screen: Screen) -> str:
    """A screen's kind from its tags, whatever the language."""
    tags = screen.tags
    first = tags[0] if tags else "screen"
    marks = dict(tag.split(":", 1) for tag in tags if ":" in tag)
    if first == "decision":
        return f"decision-{marks['asks']}"
    if first == "private":
        return f"private-{marks['stage']}"
    if first == "reminder":
        return f"reminder-{marks.get('page', 'next-game')}"  # the next game's one page: setting up the board
    if first == "over" and "page" in marks:
        return f"over-{marks['page']}"
    if first == "board":
        if marks["page"] == "race":
            return "check-race"
        pages = ("check-map", "check-districts", "check-advisors", "check-supplies", "check-voting-order")
        return pages[int(marks["page"])]
    return first


def collect(seed: int = 3, notices: set[str] | None = None) -> dict[str, Screen]:
    """The first screen of each kind; ``notices`` (if given) gets the kinds whose ok reads on (a notice, a question),
    whose parts end in "ok: more" before the last (flow/paging.py's ``more_to_read``). Two seeded games: three
    players with ballots one at a time, and three on keypads with a computer player; then the next game's first
    screen."""
    found: dict[str, Screen] = {}

    def keep(controller: Controller, _event: object) -> None:
        name = kind(controller.screen())
        if name not in found:
            shot(controller, name, found, notices)

    def first(controller: Controller, name: str) -> None:
        if name not in found:
            shot(controller, name, found, notices)

    for keypads, computers in ((False, 0), (True, 1)):
        controller = Controller(random.Random(seed), entry="private")
        controller.sync_bots = True
        first(controller, "setup")
        table = Table(controller, random.Random(seed), ["1", "2", "3"], keypads, keep, computers=computers)
        table.setup()
        while controller.stage != "over":
            table.turn()
            screen = controller.screen()
            if "decision" in screen.tags and "help" not in found and controller.state and controller.state.year > 1:
                for key, kind_name in (("left", "help"), ("back", "check")):
                    table.press("host", key)
                    for _page in range(PAGES if key == "back" else 1):
                        first(controller, kind(controller.screen()) if key == "back" else kind_name)
                        table.press("host", "right" if key == "back" else "ok")
                    if key == "back":
                        table.press("host", "back")
                table.press("1", "back")  # a player's back: the year so far, on the shared screen
                shot(controller, "this-year-pad", found, notices)
                table.press("1", "left")
                sound_page(table, found)
            if controller.history and undo_blocker(controller) is None and "undo" not in found:
                table.press("host", "back", "hold")
                shot(controller, "undo", found, notices)
                table.press("host", "back")
            undo_pages(table, found, notices)
        first(controller, "over")
        for _page in range(2):
            table.press("host", "right")
            first(controller, kind(controller.screen()))
        table.press("host", "back")  # back closes the chart
        table.press("host", "back")  # the next game is offered
        first(controller, "next-game")
    table.press("host", "ok")
    table.press("host", "ok")  # the same table again: the introduction shows only how to set up the board
    first(controller, kind(controller.screen()))
    found["resume"] = resume_page(seed)
    if notices is not None:
        notices.add("resume")  # a question: its ok reads on
    return found


def sound_page(table: Table, found: dict[str, Screen]) -> None:
    """The sound page (left of the board check's map) as the host of a device with a working voice sees it."""
    controller = table.controller
    controller.seats.sound = Sound(80, None)
    table.press("host", "back")
    table.press("host", "left")
    shot(controller, "sound", found, None)
    table.press("host", "back")


def resume_page(seed: int) -> Screen:
    """The first screen of a start with a game in progress (a fixed game: the gallery has no store)."""
    controller = Controller(random.Random(seed))
    controller.seats.joined = [(Source(s), Colour(c)) for s, c in (("1", "red"), ("2", "blue"), ("cpu1", "green"))]
    controller.seats.bot_levels = {Source("cpu1"): "normal"}
    return ResumeOffer(3, "2026-11-24T19:40:00Z", 4, zone=UTC).view(controller)  # the same on any machine


def shot(controller: Controller, name: str, found: dict[str, Screen], notices: set[str] | None) -> None:
    """Keep the screen shown as ``name``, noting whether its ok reads on (its parts' footers differ: more_to_read)."""
    found[name] = controller.screen()
    if notices is not None and controller.top().ok_reads_on(controller):
        notices.add(name)


def undo_pages(table: Table, found: dict[str, Screen], notices: set[str] | None = None) -> None:
    """rules.md 11.4 in pictures: the question naming a decision that changed the board (and one naming a computer
    player's decisions taken back with a person's), the notice putting the board back, and a refusal naming what
    was shown (each the first time it can be shown)."""
    controller = table.controller
    if controller.notices or controller.stage != "game" or not controller.history:
        return
    chain = undo_chain(controller)
    if not isinstance(chain, str) and len(chain) > 1 and "undo-chain" not in found:  # a computer's with a person's
        table.press("host", "back", "hold")
        shot(controller, "undo-chain", found, notices)
        table.press("host", "ok")
        shot(controller, "undone-chain", found, notices)
    elif not isinstance(chain, str) and "undone" not in found and any(step.undone.changes for step in chain):
        table.press("host", "back", "hold")
        shot(controller, "undo-decision", found, notices)
        table.press("host", "ok")
        shot(controller, "undone", found, notices)
    elif isinstance(chain, str) and "undo-refused" not in found and controller.state and controller.state.year > 1:
        table.press("host", "back", "hold")
        shot(controller, "undo-refused", found, notices)


def write(out: Path, seed: int = 3) -> list[Path]:
    """English at every size in ``out/<size>/``; German and Italian at the smallest and the default size in
    ``out/<lang>/<size>/`` (160x128 is where a language's longer words first run out of room). A screen too
    long for a display shows its first part, as the device does (display/pages.py)."""
    written = []
    for language in LANGUAGES:
        set_language(language)
        notices: set[str] = set()
        screens = collect(seed, notices)
        sizes = SIZES if language == "en" else ((160, 128), (320, 240))
        for width, height in sizes:
            folder = (out if language == "en" else out / language) / f"{width}x{height}"
            folder.mkdir(parents=True, exist_ok=True)
            for name, screen in sorted(screens.items()):
                path = folder / f"{name}.png"
                first = more_to_read(paginate(screen, (width, height))[0], name in notices)
                render(first, (width, height)).save(path, optimize=True)
                written.append(path)
    set_language("en")
    window = out.parent / "simulator.png"
    simulator_picture(str(window))
    written.append(window)
    return written


def simulator_picture(path: str, seed: int = 5) -> None:
    """A picture of the simulator in the middle of a game (for the README), drawn without any display."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.simulator import Simulator

    from ..app import App
    from ..store import Store
    from ..system import config

    data = config.load(search=False).data
    data["pads"]["serial"] = "off"
    data["sound"]["voice"] = "off"  # a picture needs no voice (nor a line about a missing one)
    app = App(config.Settings(data, None), seed=seed, store=Store(None, memory=True))
    simulator = Simulator(app, clock=lambda: 0.0)  # a frozen clock: a pad's flash shows however slow the machine
    try:
        table = Table(app.controller, random.Random(seed), ["1", "2", "3", "4"], keypads=True, handle=app.step)
        table.setup()
        while not (app.controller.state and app.controller.state.year == 2 and "ballot-wait" in app.screen_tags):
            table.turn()
        table.press("2", "area:san_marco")  # blue keys in a ballot: their pad's LEDs light, the screen stays silent
        table.press("2", "marker:3")
        simulator.focus = "2"  # as if typed on the keyboard: blue's keypad has the area and marker keys
        simulator.draw()
        simulator.save(path)
    finally:
        simulator.close()
        app.close()
