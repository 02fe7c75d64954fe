"""The game teaches itself. Every option of every decision menu carries one line of what it does, in every
language, and the screen shows the highlighted option's line (it follows the cursor)."""

from __future__ import annotations

import random

import pytest

from companion.cli.gallery import kind
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.i18n import LANGUAGES, set_language
from display.render import render
from display.screen import MenuView, Screen
from hardware.events import InputEvent
from tests.flow.builders import play_until, press, table

# Every menu the games below show, by kind: the top menus and the submenus they open (the move tree's two levels,
# where to stand an advisor, abstaining's choice, the private ballot's area and markers).
KINDS = {"decision-advisor", "decision-houses", "decision-build", "decision-move", "private-area", "private-markers"}


class Menus:
    """Every distinct menu shown while a table plays, with its kind."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str, tuple[str, ...]], MenuView] = {}

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        screen = controller.screen()
        if screen.menu is not None:
            title = screen.lines[0].text if screen.lines else screen.title
            self.seen.setdefault((kind(screen), title, screen.menu.options), screen.menu)


def menus_of_games(language: str) -> Menus:
    set_language(language)
    try:
        menus = Menus()
        for players, entry, seed in ((3, "private", 12), (4, "private", 25)):
            controller = Controller(random.Random(seed), entry=entry)
            at = Table(controller, random.Random(seed), [str(n) for n in range(1, players + 1)], False, menus)
            at.setup()
            at.play()
        return menus
    finally:
        set_language("en")


@pytest.fixture(scope="module")
def english() -> Menus:
    return menus_of_games("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_of_every_menu_has_a_hint_in_every_language(language: str, english: Menus) -> None:
    menus = english if language == "en" else menus_of_games(language)
    assert {k for k, _title, _options in menus.seen} >= KINDS
    titles = {title for _k, title, _options in menus.seen}
    for level in ("Stand", "Abstain on", "Abstain: move which house?", "Move a house from"):  # the submenus
        assert language != "en" or any(title.startswith(level) for title in titles), level
    english_hints = {hint for menu in english.seen.values() for hint in menu.hints}
    for (name, title, options), menu in menus.seen.items():
        assert len(menu.hints) == len(options) and all(menu.hints), (name, title, options, menu.hints)
        if language != "en":  # translated: none of them is left in English
            assert not english_hints & set(menu.hints), (name, title, menu.hints)


def test_the_decisions_hints_say_what_each_choice_leads_to() -> None:
    at = table(seed=5)
    controller = at.controller
    play_until(at, lambda: "asks:advisor" in controller.screen().tags and controller.screen().menu is not None)
    menu = controller.screen().menu
    assert menu is not None
    if menu.options == ("Take control", "Abstain"):
        assert menu.hint in ("Put your ring on it, then stand it", "Your ring stays; stand it anew")
        assert menu.hints[1] == "It goes neutral; you may move a house"
    else:  # no free ring: the abstain menu itself (rules.md 7.3)
        assert menu.hints[0] == "The advisor goes neutral; nothing else"


def test_the_hint_shown_follows_the_cursor_on_the_screen_and_in_the_picture() -> None:
    at = table(seed=3)
    controller = at.controller
    play_until(at, lambda: controller.screen().menu is not None and "decision" in controller.screen().tags)
    own = controller.source_of(controller.state.awaiting()[0].player)  # type: ignore[union-attr]
    before = controller.screen()
    press(controller, own, "right")
    after = controller.screen()
    assert before.menu is not None and after.menu is not None
    assert before.menu.hint == before.menu.hints[before.menu.cursor]
    assert after.menu.hint == after.menu.hints[after.menu.cursor] and after.menu.cursor != before.menu.cursor


def _hint_band(screen: Screen, size: tuple[int, int]) -> bytes:
    """The pixels just above the footer, where the hint is drawn."""
    image = render(screen, size)
    width, height = size
    return image.crop((0, height * 2 // 3, width, height - height // 8)).tobytes()


@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)])
def test_moving_the_cursor_redraws_the_hint_and_a_too_long_hint_is_reported(size: tuple[int, int]) -> None:
    menu = MenuView(("Take control", "Abstain"), 0, hints=("Put your ring on it", "It goes neutral"))
    screen = Screen("Red decides", menu=menu, footer="your pad: left/right, ok")
    moved = Screen("Red decides", menu=MenuView(menu.options, 1, hints=menu.hints), footer=screen.footer)
    assert _hint_band(screen, size) != _hint_band(moved, size)
    problems: list[str] = []
    render(Screen("Red decides", menu=MenuView(menu.options, 0, hints=("word " * 40, "x"))), size, problems)
    assert any(problem.startswith("hint too long") for problem in problems)
    problems = []
    render(screen, size, problems)
    assert problems == []


def test_a_house_option_promises_a_palace_only_where_one_can_follow() -> None:
    """rules.md 8.4: placing houses is a palace check, which passes only with a palace in supply, a free space and
    at least the district's cost in houses there; "Then you may build here" was once on every option, even where
    none of it held (a fluent reader stumbled on it)."""
    from companion.flow.menus import decision_menu

    seen: dict[str, int] = {}

    def watch(controller: Controller, _event: InputEvent) -> None:
        state = controller.state
        if state is None or state.phase != "election" or not state.awaiting():
            return
        awaited = state.awaiting()[0]
        if awaited.decision != "houses" or awaited.district is None:
            return
        seat, district = awaited.player, awaited.district
        menu = decision_menu(state)
        for option in menu.options:
            n, hint = option.value.number, option.hint
            room = state.palace_supply(seat) > 0 and not state.district_full(district)
            can = n > 0 and room and state.houses(district, seat) + n >= state.palace_cost(district)
            assert (hint == "Then you may build here") == can, (option, hint)
            seen[hint] = seen.get(hint, 0) + 1

    for seed in (5, 12):
        controller = Controller(random.Random(seed), entry="private")
        at = Table(controller, random.Random(seed), ["1", "2", "3"], False, watch)
        at.setup()
        at.play()
    assert seen.get("Then you may build here") and seen.get("Not enough for a palace"), seen
