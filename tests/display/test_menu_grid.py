"""Short options a column cannot hold go side by side, so a ballot's markers and areas are all in sight at 160x128
(they were two at a time in a column, the rest out of sight): display/render.py's ``_grid``. An option is in sight
when its label is drawn: changing the label changes the picture."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.cli.gallery import collect
from companion.i18n import set_language
from display.render import render
from display.screen import MenuView, Screen


@pytest.fixture(scope="module")
def screens() -> Any:
    found = {}
    try:
        for language in ("en", "de", "it"):
            set_language(language)
            found[language] = collect()
    finally:
        set_language("en")
    return found


def out_of_sight(screen: Screen, size: tuple[int, int]) -> list[str]:
    """The options whose label is not drawn, with the highlight where the screen has it."""
    assert screen.menu is not None
    drawn = render(screen, size).tobytes()
    hidden = []
    for index, option in enumerate(screen.menu.options):
        options = (*screen.menu.options[:index], "X", *screen.menu.options[index + 1 :])
        if render(replace(screen, menu=replace(screen.menu, options=options)), size).tobytes() == drawn:
            hidden.append(option)
    return hidden


@pytest.mark.parametrize("language", ["en", "de", "it"])
@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_ballots_markers_are_all_in_sight(screens: Any, language: str, size: tuple[int, int]) -> None:
    screen = screens[language]["private-markers"]
    assert screen.menu is not None and len(screen.menu.options) >= 7, "the markers of a whole hand, and done"
    assert out_of_sight(screen, size) == []


@pytest.mark.parametrize("language", ["en", "de", "it"])
@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_ballots_seven_areas_are_all_in_sight(screens: Any, language: str, size: tuple[int, int]) -> None:
    """At 160x128 side by side (the highlighted area's hint gives way to them)."""
    screen = screens[language]["private-area"]
    assert screen.menu is not None and len(screen.menu.options) == 7
    assert out_of_sight(screen, size) == []


def test_options_too_long_to_go_side_by_side_stay_one_column_scrolled() -> None:
    """What the check above would see: six moves, each too long to share a row at 160x128, scroll (▲▼)."""
    options = tuple(f"from Cannaregio to Santa Croce {n}" for n in range(6))
    screen = Screen("Red's turn", (), footer="left/right, ok: pick", menu=MenuView(options))
    assert 0 < len(out_of_sight(screen, (160, 128))) < len(options)


def test_every_menu_of_a_german_game_has_all_its_options_in_sight_at_160x128() -> None:
    """A whole seeded game of four in German, the longest words there are: every distinct menu it shows (ballots,
    decisions, the house moves whose "aus Santa Croce" options once scrolled two at a time) drawn at 160x128."""
    import random

    from companion.flow.autoplay import Table
    from companion.flow.controller import Controller

    menus: dict[tuple[object, ...], Screen] = {}

    def keep(controller: Controller, _event: object) -> None:
        screen = controller.screen()
        if screen.menu is not None and len(screen.menu.options) > 1:
            menus.setdefault((screen.lines, screen.menu.options, screen.menu.hints), screen)

    set_language("de")
    try:
        controller = Controller(random.Random(25))
        table = Table(controller, random.Random(25), ["1", "2", "3", "4"], False, keep)
        table.setup()
        table.play()
        hidden = [(screen.lines[0].text, out_of_sight(screen, (160, 128))) for screen in menus.values()]
    finally:
        set_language("en")
    assert len(menus) > 100, "the game showed its ballots and decisions"
    assert [(question, options) for question, options in hidden if options] == []
