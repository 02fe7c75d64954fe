"""Short options a column cannot hold go side by side, so a ballot's markers are all in sight at 160x128 (they were
two at a time in a column, the rest out of sight): display/render.py's ``_grid``. An option is in sight when its
label is drawn: changing the label changes the picture."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.cli.gallery import collect
from companion.i18n import set_language
from display.render import render
from display.screen import Screen


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
def test_the_areas_are_all_in_sight_where_two_columns_fit(screens: Any, language: str) -> None:
    screen = screens[language]["private-area"]
    assert screen.menu is not None and len(screen.menu.options) == 7
    assert out_of_sight(screen, (320, 240)) == []
    # At 160x128 two area names side by side are wider than the screen: one column, scrolled (▲▼), and the check
    # above would see it.
    assert len(out_of_sight(screen, (160, 128))) >= 4
