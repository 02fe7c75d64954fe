"""Counts and winners read as people say them, with plurals and lists, in all three languages."""

from __future__ import annotations

import pytest

from companion.engine import Count
from companion.flow.narration import count_notice
from companion.flow.views import final_view
from companion.i18n import and_list, set_language

PLAYERS = ("red", "blue", "green")


@pytest.fixture(autouse=True)
def english() -> object:
    yield
    set_language("en")


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Red, Blue and Green"), ("de", "Rot, Blau und Grün"), ("it", "Rosso, Blu e Verde")],
)
def test_lists_of_names(language: str, expected: str) -> None:
    set_language(language)
    names = expected.replace(" and ", ", ").replace(" und ", ", ").replace(" e ", ", ").split(", ")
    assert and_list(names) == expected
    assert (
        and_list(names[:2])
        == expected.split(", ")[0] + {"en": " and ", "de": " und ", "it": " e "}[language] + names[1]
    )
    assert and_list(names[:1]) == names[0]


def test_a_three_way_tie_for_first() -> None:
    count = Count(6, (2, 2, 2), None, (0, 1, 2), (), (0, 1, 0), (1, 1, 1))
    text = "\n".join(line.text for line in count_notice(count, PLAYERS).lines)
    assert "Red, Blue and Green tie for first" in text and "no winner" not in text
    assert "All Quarantia advisors go neutral; each tied player may move up to 2 houses." in text  # rules.md 10.5
    district = count._replace(area=2)
    text = "\n".join(line.text for line in count_notice(district, PLAYERS).lines)
    assert "The advisor goes neutral; each tied player may place 2 houses here." in text  # rules.md 10.2.2
    assert "Blue: 2 votes (1 from markers + 1 advisor)" in text


def test_an_advisor_alone_is_one_vote_from_one_advisor() -> None:
    count = Count(0, (3, 1, 0), 0, (0,), (1,), (0, 1, 0), (1, 0, 0))
    text = "\n".join(line.text for line in count_notice(count, PLAYERS).lines)
    assert "Blue: 1 vote (from 1 advisor)" in text and "advisors" not in text and "0 in markers" not in text


def test_a_shared_win_lists_every_winner() -> None:
    set_language("it")
    screen = final_view(("red", "blue", "green"), "", {}, ())
    assert screen.lines[0].text == "Vincono Rosso, Blu e Verde!"


def test_each_count_says_what_follows() -> None:
    winner = Count(3, (5, 2, 0), 0, (0,), (1,), (0, 0, 0), (2, 1, 0))
    text = "\n".join(line.text for line in count_notice(winner, PLAYERS).lines)
    assert "Red decides on the advisor and may place 2 houses; Blue may place 1." in text
    quarantia = Count(6, (5, 0, 0), 0, (0,), (), (0, 0, 0), (2, 0, 0))
    text = "\n".join(line.text for line in count_notice(quarantia, PLAYERS).lines)
    assert "Quarantia advisors go neutral; Red decides on two of them." in text
    tie = Count(6, (3, 3, 0), None, (0, 1), (), (0, 0, 0), (1, 1, 0))
    notice = count_notice(tie, PLAYERS)
    assert notice.rule == "10.5" and "each tied player may move up to 2 houses" in notice.lines[-1].text


def test_a_players_done_ticks_their_instruction_never_their_votes() -> None:
    """A count headed by a card and joined by the move made on it: Red's ok ticks Red's board line, not "Red: 3
    votes" on the first part (a tick once landed there, far from the instruction it confirmed)."""
    from dataclasses import replace

    from companion.flow.between import Between
    from companion.flow.notice import Notice
    from companion.flow.views import notice_lines
    from display.screen import TICK, Line

    count = Count(0, (3, 1, 0), 0, (), (1,), (0, 0, 0), (3, 1, 0))
    notice = replace(count_notice(count, PLAYERS), passive=True)
    between = Between()
    between.notices.append(notice)
    move = Notice("On the board", (Line("Red: place 2 houses in Cannaregio", "normal", "red"),), owners=("red",))
    assert between.join_count(move, "On the board:")
    notice = between.confirm_top("red")
    ticked = [line.text for line in notice_lines(notice) if line.text.startswith(TICK)]
    assert ticked == [TICK + "Red: place 2 houses in Cannaregio"]
    assert any(line.text == "Red: 3 votes" for line in notice_lines(notice)), "the votes are shown, unticked"
