"""Every line of the board check tells its pieces apart. The three Quarantia advisors are identical
(rules.md 1.2), so two of Red's standing in Dorsoduro are counted on one line, never the same line twice; a
district's palaces are named with the printed spaces they stand on (rules.md 8.4); in every language."""

from __future__ import annotations

import pytest

from companion.engine import State, snapshot
from companion.flow.ending import ending_pages, summary_pages
from companion.flow.views import board_view
from companion.i18n import set_language
from tests.helpers import RGB, RGBY, place, random_game

PAGES = range(5)


def position() -> State:
    state = State(RGBY)
    place(
        state,
        houses={"dorsoduro": {"red": 3, "blue": 2}, "castello": {"blue": 5}},
        palaces={"castello": ["blue", "blue", "yellow"]},
        advisors={"castello": ("red", "dorsoduro")},
        quarantia=[("red", "dorsoduro"), ("red", "dorsoduro")],
    )
    return state


def texts(snap: dict[str, object]) -> list[list[str]]:
    return [[line.text for line in board_view(snap, page).lines] for page in PAGES]


def test_two_quarantia_advisors_of_one_player_in_one_district_are_counted() -> None:
    advisors = texts(snapshot(position()))[2]
    assert "Red: 2 Quarantia advisors in Dorsoduro" in advisors
    assert "Quarantia: 1 advisor at home" in advisors
    assert "Castello: Red in Dorsoduro" in advisors
    assert not any(text.startswith("Quarantia: Red") for text in advisors)


def test_a_districts_palaces_name_their_spaces() -> None:
    districts = texts(snapshot(position()))[1]
    assert "Castello: Blue 5 houses; palaces: Blue on 3 and 4, Yellow on 5" in districts


def test_a_districts_houses_are_counted_in_houses() -> None:
    """A read-through at a table: "Red 1" said nothing of what was counted."""
    snap = snapshot(position())
    snap["districts"]["san_marco"]["houses"] = {"red": 1, "blue": 2}  # type: ignore[index]
    districts = [line.text for line in board_view(snap, 1).lines]
    assert "San Marco: Red 1 house, Blue 2 houses" in districts


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_no_board_check_page_says_the_same_thing_twice(language: str) -> None:
    """Over whole random games (every position each reaches) and the built one: no page has two equal lines."""
    set_language(language)
    snaps = [snapshot(position())]
    for seed, players in ((1, RGB), (2, RGBY), (3, RGB)):
        snaps += random_game(seed, players)[1]
    for snap in snaps:
        for page, lines in enumerate(texts(snap)):
            assert len(lines) == len(set(lines)), (language, page, lines)
    if language == "de":
        assert "Rot: 2 Quarantia-Berater in Dorsoduro" in texts(snaps[0])[2]


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_the_ending_texts_name_each_player_once(language: str) -> None:
    """The game-over page and the summary's result: one line per player's condition and standing, each its own."""
    set_language(language)
    _lines, _snaps, state = random_game(2, RGBY)
    years = [{p: state.palaces_of(seat) for seat, p in enumerate(state.players)}] * 3
    for page in (*ending_pages(state, years), *summary_pages(state, years)):
        lines = [line.text for line in page.lines if line.text]
        headed = [text for text in lines if text[:2] in {f"{rank}." for rank in range(1, 5)}]
        assert len(headed) == len(set(headed))
        if page.tags[:1] == ("summary",) and "result" in page.tags:
            assert len(headed) == len(state.players), "every player's standing, once"
