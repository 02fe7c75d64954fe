"""Every screen fits every display: nothing shortened, nothing left out, at 160x128, 240x240 and 320x240 (a screen
too long for a display in parts, display/pages.py, each part checked), with either ``[display] text_size``; and at
160x128 no text is smaller than the renderer's ``LEGIBLE`` x-height."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.cli.gallery import SIZES, collect
from companion.i18n import LANGUAGES, set_language
from display.board_map import CUTS
from display.pages import paginate
from display.render import LEGIBLE, font, render, smallest_text, type_sizes, x_height
from display.screen import TEXT_SIZES, Line, Screen


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
        "decision-advisor", "decision-houses", "decision-build", "decision-move", "instructions", "year",
        "over", "help", "undo", "check-districts", "check-advisors", "check-supplies", "check-voting-order",
        "reminder-1", "reminder-2", "reminder-3", "reminder-4", "reminder-5", "reminder-next-game", "sound",
        "check-race", "this-year", "this-year-pad", "undo-chain", "next-game",
    }  # fmt: skip
    assert expected <= set(SCREENS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_kind_of_screen(language: str) -> None:
    assert set(ALL[language]) == set(SCREENS)


@pytest.mark.parametrize("text_size", TEXT_SIZES)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", sorted(SCREENS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_is_cut(language: str, name: str, size: tuple[int, int], text_size: str) -> None:
    problems: list[str] = []
    heights = []
    for screen in paginate(ALL[language][name], size, text_size):  # each part of a screen too long for the display
        render(screen, size, problems, text_size)
        heights.append(smallest_text(screen, size, text_size) or LEGIBLE)
        if screen.menu is not None:  # every option, as it looks when highlighted
            for cursor in range(len(screen.menu.options)):
                render(replace(screen, menu=replace(screen.menu, cursor=cursor)), size, problems, text_size)
    if size == (160, 128) and text_size == "large":  # four lines of body: a menu under a question scrolls
        problems = [p for p in problems if not p.startswith("room for only")]
    assert problems == []
    assert size != (160, 128) or min(heights) >= LEGIBLE


def test_the_smallest_text_is_measured_and_the_old_sizes_would_fail() -> None:
    """Guard for the check above: the measure is the smallest face drawn (a footer counts), and the 9 px footer of
    before the type sizes were measured (a 5 px x-height) is below the minimum."""
    assert x_height(font(9)) < LEGIBLE <= x_height(font(type_sizes((160, 128))["small"]))
    bare = Screen("Board", (Line("Palace in San Polo", "large"),))
    assert smallest_text(bare, (160, 128)) == x_height(font(type_sizes((160, 128))["title"], bold=True))
    footed = replace(bare, footer="ok: go on")
    assert smallest_text(footed, (160, 128)) == x_height(font(type_sizes((160, 128))["small"]))
    assert smallest_text(Screen(""), (160, 128)) is None


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_large_type_is_larger_at_every_size(size: tuple[int, int]) -> None:
    normal, large = type_sizes(size), type_sizes(size, "large")
    assert large["normal"] > normal["normal"] and large["small"] > normal["small"]
    assert x_height(font(large["small"])) > x_height(font(normal["small"]))


@pytest.mark.parametrize("text_size", TEXT_SIZES)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_map_keeps_names_numbers_and_rings(size: tuple[int, int], text_size: str) -> None:
    """At 160x128 the map once cut names ("Cannareg") and dropped the palace spaces' numbers; where the grid
    cannot hold them the map comes in parts (rows), and the renderer reports any name, number or ring it shrinks."""
    board = SCREENS["check-map"]
    parts = paginate(board, size, text_size)
    assert len(parts) == 1 or len(parts) in CUTS
    for part in parts:
        problems: list[str] = []
        render(part, size, problems, text_size)
        assert problems == []
    cut: list[str] = []
    render(board, (160, 128), cut)  # whole, as before: what it cuts is reported
    assert any("name cut: Cannaregio" in p or "no room for the grid" in p for p in cut)  # with its key, no room at all
    assert paginate(board, (160, 128)) != (board,)


def test_the_renderer_reports_what_it_cuts() -> None:
    """Guard for the test above: an over-long text is reported, not silently cut."""
    problems: list[str] = []
    render(Screen("A title far too long for a small screen to hold", ()), (160, 128), problems)
    assert problems and problems[0].startswith("too wide:")
