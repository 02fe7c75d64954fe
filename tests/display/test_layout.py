"""Every screen fits every display: nothing shortened, nothing left out, at 160x128, 240x240 and 320x240 (a screen
too long for a display in parts, display/pages.py, each part checked)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.gallery import SIZES, collect
from companion.i18n import LANGUAGES, set_language
from display.pages import paginate
from display.render import render
from display.screen import Screen


def _collect_all() -> dict[str, dict[str, Screen]]:
    found = {}
    for language in LANGUAGES:
        set_language(language)
        found[language] = collect()
    set_language("en")
    return found


ALL = _collect_all()
SCREENS = ALL["en"]


def test_the_gallery_has_every_kind_of_screen() -> None:
    expected = {
        "setup", "notice", "ballot-gate", "private-area", "private-markers", "ballot-wait", "reveal", "count",
        "empty", "decision-advisor", "decision-houses", "decision-build", "decision-move", "instructions", "year",
        "over", "help", "undo", "check-districts", "check-advisors", "check-supplies", "check-voting-order",
        "reminder-1", "reminder-2", "reminder-3", "reminder-4", "reminder-5",
    }  # fmt: skip
    assert expected <= set(SCREENS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_kind_of_screen(language: str) -> None:
    assert set(ALL[language]) == set(SCREENS)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", sorted(SCREENS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_is_cut(language: str, name: str, size: tuple[int, int]) -> None:
    problems: list[str] = []
    for screen in paginate(ALL[language][name], size):  # each part of a screen too long for the display
        render(screen, size, problems)
        if screen.menu is not None:  # every option, as it looks when highlighted
            for cursor in range(len(screen.menu.options)):
                render(replace(screen, menu=replace(screen.menu, cursor=cursor)), size, problems)
    assert problems == []


def test_the_renderer_reports_what_it_cuts() -> None:
    """Guard for the test above: an over-long text is reported, not silently cut."""
    problems: list[str] = []
    render(Screen("A title far too long for a small screen to hold", ()), (160, 128), problems)
    assert problems and problems[0].startswith("too wide:")
