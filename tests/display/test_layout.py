"""Every screen fits every display: nothing shortened, nothing left out, at 160x128, 240x240 and 320x240."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.gallery import SIZES, collect
from display.render import render
from display.screen import Screen

SCREENS = collect()


def test_the_gallery_has_every_kind_of_screen() -> None:
    expected = {
        "setup", "notice", "ballot-gate", "private-area", "private-markers", "ballot-wait", "reveal", "count",
        "empty", "decision-advisor", "decision-houses", "decision-build", "decision-move", "instructions", "year",
        "over", "help", "undo", "check-districts", "check-advisors", "check-supplies", "check-voting-order",
    }  # fmt: skip
    assert expected <= set(SCREENS)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_nothing_is_cut(name: str, size: tuple[int, int]) -> None:
    screen = SCREENS[name]
    problems: list[str] = []
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
