"""The screens of whole games fit every display in every language: no text outside its box, no name split.

The gallery (test_layout.py) shows the first screen of each kind; here four whole seeded games (3 and 4 players,
ballots one at a time and on keypads) are played by the simulated table in each language, and the screens they show
are drawn at every display size with the renderer's own report of what it had to cut (``render(..., problems)``).
On top of the games' own screens the host opens, at the first screen of each kind and whenever a new rule is cited,
the rule's help, the five board-check pages and the undo question; at the end the standings and chart pages.

How it stays fast (a game shows thousands of screens): screens that would draw the same text in the same places are
drawn once (the key ignores colours, tags and the menu's cursor, since every menu is drawn with the cursor on each of
its options in turn). Then, of each kind of screen (``companion.gallery.kind``), at most ``PER_KIND`` are drawn: the
ones with the most text, the longest title, the longest menu option and the longest word first (what overflows
first), then a seeded random sample. Every kind the games showed is drawn; a new kind of screen is drawn as soon as
a game shows it.

Each is drawn with both ``[display] text_size`` settings, and at 160x128 no text of any part may be smaller than
the renderer's ``LEGIBLE`` x-height (its ``smallest_text`` measure): a long screen comes in parts instead.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from companion.cli.gallery import SIZES, kind
from companion.flow.autoplay import Table
from companion.flow.board_text import NAMES
from companion.flow.controller import Controller
from companion.flow.modes.board_check import PAGES
from companion.flow.undo_chain import undo_blocker
from companion.i18n import LANGUAGES, set_language
from display.pages import JOINS, paginate
from display.render import LEGIBLE, font, margin_of, render, smallest_text, type_sizes, wrap
from display.screen import TEXT_SIZES, Line, Screen
from hardware.events import InputEvent

# (players, ballots on keypads, seed): seeds of shorter games (2,100 to 3,900 presses, 15 to 17 years)
GAMES = ((3, False, 2), (3, True, 21), (4, False, 25), (4, True, 4))
PER_KIND = 40
NBSP = "\u00a0"


def layout_key(screen: Screen) -> tuple[Any, ...]:
    """What decides where text goes and whether it fits: not colours, tags or the cursor."""
    menu = (screen.menu.options, screen.menu.chosen, screen.menu.hints) if screen.menu else None
    lines = tuple((line.text, line.size) for line in screen.lines)
    return (screen.title, screen.rule, screen.footer, lines, menu, screen.chart, screen.legend, screen.board)


class Watcher:
    """Keeps every distinct screen shown, by kind, and opens the host's overlays the first time a kind or a rule
    shows up (help, board check, undo question), closing them again without touching the game."""

    def __init__(self) -> None:
        self.screens: dict[str, dict[tuple[Any, ...], Screen]] = {}
        self.looked: set[str | None] = set()
        self.busy = False

    def keep(self, screen: Screen) -> None:
        self.screens.setdefault(kind(screen), {}).setdefault(layout_key(screen), screen)

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        screen = controller.screen()
        self.keep(screen)
        if self.busy or controller.stage != "game" or controller.overlays:
            return
        first_of_kind = kind(screen) not in self.looked
        if first_of_kind or screen.rule not in self.looked:
            self.looked |= {kind(screen), screen.rule}
            self.busy = True
            try:
                self.look_around(controller, first_of_kind)
            finally:
                self.busy = False

    def look_around(self, controller: Controller, board: bool) -> None:
        def press(key: str, how: str = "press") -> None:
            controller.handle(InputEvent("host", key, how))  # type: ignore[arg-type]
            self.keep(controller.screen())

        press("left")  # the rule's help; any host key closes it
        press("ok")
        if board:
            press("back")  # the board check: the map, pages of detail, the race, the year so far
            for _page in range(PAGES - 1):
                press("right")
            press("back")
            if undo_blocker(controller) is None:
                press("back", "hold")  # the undo question, answered "keep"
                press("back")


class UndoingWatcher(Watcher):
    """A host who also takes decisions back now and then (rules.md 11.4), so that the undo questions, the undo
    notices (the board put back) and the refusals naming what became public are drawn too."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.length = 0

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        super().__call__(controller, event)
        decided, self.length = len(controller.record) > self.length, len(controller.record)  # a player's press ended
        quiet = controller.stage == "game" and not controller.overlays
        if self.busy or not decided or not quiet or not controller.history or self.rng.random() > 0.3:
            return
        self.busy = True
        try:
            allowed = undo_blocker(controller) is None
            controller.handle(InputEvent("host", "back", "hold"))
            self.keep(controller.screen())  # the question naming the decision, or the refusal naming the reveal
            if allowed:
                controller.handle(InputEvent("host", "ok"))
                self.keep(controller.screen())  # how to put the board back (when anything is to put back)
            self.length = len(controller.record)
        finally:
            self.busy = False


def play(players: int, keypads: bool, seed: int, watcher: Watcher) -> None:
    controller = Controller(random.Random(seed))
    watcher.keep(controller.screen())
    table = Table(controller, random.Random(seed), [str(n) for n in range(1, players + 1)], keypads, watcher)
    table.setup()
    table.play()
    for _page in range(2):  # the standings and the chart
        table.press("host", "right")


def sample(screens: Iterable[Screen], seed: int) -> list[Screen]:
    """At most PER_KIND screens of one kind: the likeliest to overflow first, then a seeded random few."""
    pool = list(screens)
    if len(pool) <= PER_KIND:
        return pool
    measures: list[Callable[[Screen], int]] = [
        lambda s: len(s.title) + len(s.footer) + sum(len(line.text) for line in s.lines),
        lambda s: len(s.title),
        lambda s: max((len(o) for o in s.menu.options), default=0) if s.menu else 0,
        lambda s: max((len(word) for line in s.lines for word in line.text.split(" ")), default=0),
    ]
    chosen: dict[int, Screen] = {}
    for measure in measures:
        for index in sorted(range(len(pool)), key=lambda i: -measure(pool[i]))[: PER_KIND // 8]:
            chosen.setdefault(index, pool[index])
    rest = [i for i in range(len(pool)) if i not in chosen]
    for index in random.Random(seed).sample(rest, PER_KIND - len(chosen)):
        chosen[index] = pool[index]
    return list(chosen.values())


def split_names(screen: Screen, size: tuple[int, int], text_size: str = "normal") -> list[str]:
    """Names of more than one word ("Santa Croce") broken across two lines as the renderer wraps them."""
    sizes = type_sizes(size, text_size)  # the renderer's type sizes and margin (display/render.py)
    room = size[0] - 2 * margin_of(size, sizes)
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    names = [name for name in NAMES.values() if " " in name]
    found = []
    for line in screen.lines:
        parts = [
            p.replace(NBSP, " ") for p in wrap(draw, line.text, font(sizes[line.size], line.size == "large"), room)
        ]
        for before, after in itertools.pairwise(parts):
            for name in names:
                words = name.split(" ")
                for cut in range(1, len(words)):
                    head, tail = " ".join(words[:cut]), " ".join(words[cut:])
                    if (before == head or before.endswith(" " + head)) and after.startswith(tail):
                        found.append(f"{name!r} split in {line.text!r}")
    return found


def mid_sentence(whole: Screen, parts: tuple[Screen, ...]) -> list[str]:
    """Parts after the first that start in the middle of a sentence where they need not (a part once
    started "card."): a line too long for a whole part may be cut inside a sentence only if its piece on the part
    before holds no end of a sentence to cut after (a sentence longer than a whole part is cut somewhere), and then
    at a clause if it can ("…advisor" / "and move a house…"), then after a colon (display/pages.py)."""
    found = []
    for before, part in itertools.pairwise(parts):
        first = part.lines[0].text if part.lines else ""
        if not before.lines or any(line.text.startswith(first) for line in whole.lines):
            continue  # the part starts a line of the screen
        head = before.lines[-1].text.split(" ")
        clause = head[-1].endswith(",") or first.split(" ")[0].lower() in JOINS
        if not head[-1].endswith((".", ";")) and any(w.endswith((".", ";")) for w in head[1:-1]):
            found.append(f"part {part.part} starts mid-sentence: {first[:30]!r}")
        elif not (head[-1].endswith((".", ";")) or clause) and any(w.endswith((",", ":")) for w in head[1:-1]):
            found.append(f"part {part.part} starts mid-clause: {first[:30]!r}")
    return found


def check(
    whole: Screen, size: tuple[int, int], text_size: str = "normal", heights: list[int] | None = None
) -> list[str]:
    """What does not fit, in each part the display shows of the screen (display/pages.py); the x-height of the
    smallest text of each part goes to ``heights``."""
    problems: list[str] = []
    parts = paginate(whole, size, text_size)
    problems += mid_sentence(whole, parts)
    for screen in parts:
        cursors = range(len(screen.menu.options)) if screen.menu else (None,)
        for cursor in cursors:  # every option, as it looks when highlighted (and the window of options around it)
            shown = screen if screen.menu is None else replace(screen, menu=replace(screen.menu, cursor=cursor))
            render(shown, size, problems, text_size)
            if heights is not None:
                heights.append(smallest_text(shown, size, text_size) or LEGIBLE)
        problems += split_names(screen, size, text_size)
    if size == (160, 128) and text_size == "large":  # four lines of body: a menu under a question scrolls
        problems = [p for p in problems if not p.startswith("room for only") or p.startswith("room for only 0")]
    return [f"{kind(whole)} {whole.title!r}: {p}" for p in problems]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_of_whole_games_fits_every_display(language: str) -> None:
    set_language(language)
    try:
        watcher = Watcher()
        for players, keypads, seed in GAMES:
            play(players, keypads, seed, watcher)
        undoing = UndoingWatcher(7)
        play(3, True, 21, undoing)  # a game with undos: its undo screens join the others
        undo_screens = {k: v for k, v in undoing.screens.items() if k in ("undo", "instructions")}
        for name, screens in undo_screens.items():
            watcher.screens.setdefault(name, {}).update(screens)
        problems = []
        drawn = 0
        heights: dict[str, list[int]] = {text_size: [] for text_size in TEXT_SIZES}  # at 160x128
        for name, screens in sorted(watcher.screens.items()):
            for screen in sample(screens.values(), sum(map(ord, name))):
                drawn += 1
                for size, text_size in itertools.product(SIZES, TEXT_SIZES):
                    small = heights[text_size] if size == (160, 128) else None
                    found = check(screen, size, text_size, small)
                    problems += [f"{language} {size[0]}x{size[1]} {text_size} {p}" for p in found]
    finally:
        set_language("en")
    kinds = set(watcher.screens)
    assert {"setup", "reminder-1", "ballot-gate", "private-markers", "ballot-wait", "count", "instructions"} <= kinds
    assert {"decision-advisor", "decision-houses", "decision-build", "decision-move", "year", "over-chart"} <= kinds
    assert {"help", "check-map", "check-voting-order", "undo"} <= kinds and drawn > 300
    undone = [s for s in undo_screens.get("instructions", {}).values() if s.rule == "11.4"]
    assert len(undone) > 10 and len(undo_screens.get("undo", {})) > 10  # notices; questions and refusals
    assert problems == []
    assert min(heights["normal"]) >= LEGIBLE and min(heights["large"]) >= LEGIBLE  # no text too small to read


def test_a_split_name_is_caught() -> None:
    """Guard: a name the views forgot to glue is reported once the renderer wraps it at its space; glued, never."""
    found = []
    for words in range(1, 40):
        text = "word " * words + "Santa{}Croce"
        found += split_names(Screen("Board", (Line(text.format(" "), "normal"),)), (160, 128))
        assert not split_names(Screen("Board", (Line(text.format(NBSP), "normal"),)), (160, 128))
    assert found
