"""A screen too long for the display is shown in parts (flow/paging.py): the host's ok turns a notice's parts before
clearing it, right and left turn a board-check page's parts before paging on; keypad rounds go on under a reveal."""

from __future__ import annotations

import re

import pytest

from companion.flow.narration import Notice
from companion.flow.paging import Parts
from display.screen import Line, Screen
from tests.flow.builders import press, read_notices, table
from tests.helpers import same_notice, still_queued

SENTENCE = "Red: take 4 houses from Santa Croce back to your supply and put a palace on the space marked 4"


def long_notice() -> Notice:
    return Notice("On the board", tuple(Line(f"{n}. {SENTENCE}", "normal") for n in range(4)), tag="instructions")


def test_the_host_ok_shows_a_long_notices_next_part_before_clearing_it() -> None:
    controller = table().controller
    controller.parts.size = (160, 128)
    notice = long_notice()
    controller.notices.insert(0, notice)
    parts = []
    while controller.notices and same_notice(controller.notices[0], notice):
        screen = controller.screen()
        assert screen.part is not None and screen.part[0] == len(parts) + 1
        parts.append(screen)
        press(controller, "1", "ok")  # a player's ok turns nothing
        assert controller.screen() == screen
        press(controller, "host", "ok")
    assert len(parts) == parts[0].part[1] > 1  # type: ignore[index]
    assert [line.text.replace("\u00a0", " ") for part in parts for line in part.lines] == [x.text for x in notice.lines]
    # ok says what it does: the next part, then on (as a first read-through at a table asked)
    assert [part.footer for part in parts] == ["ok: more"] * (len(parts) - 1) + ["ok: go on"]


def test_a_paged_notices_counter_waits_for_its_last_part() -> None:
    """A reminder page in parts showed two counters at once ("ok: go on (2/5)" and the part's "1/3"): before its
    last part the footer says "ok: more", and the last says "ok: go on" beside its part's counter alone (the
    page's "(2/5)" there was a second one)."""
    controller = table().controller
    controller.parts.size = (160, 128)
    page = Notice("How to win", long_notice().lines, rule="9.2", tag="reminder", page=(2, 5))
    controller.notices.insert(0, page)
    footers = []
    while controller.notices and same_notice(controller.notices[0], page):
        footers.append(controller.screen().footer)
        press(controller, "host", "ok")
    assert len(footers) > 1 and footers == ["ok: more"] * (len(footers) - 1) + ["ok: go on"], footers


def test_without_a_display_size_nothing_is_cut() -> None:
    controller = table().controller
    notice = long_notice()
    controller.notices.insert(0, notice)
    assert controller.screen().part is None and len(controller.screen().lines) == 4
    press(controller, "host", "ok")
    assert not still_queued(notice, controller.notices)


def test_the_board_check_turns_a_pages_parts_before_the_next_page() -> None:
    controller = table().controller
    read_notices(controller)
    controller.parts.size = (160, 80)  # a display so small that the districts page is cut (the map too)
    press(controller, "host", "back")
    assert controller.screen().part is not None, "the map comes in parts at this size"
    while controller.screen().title != "Board: districts":  # the map's parts, then the districts
        press(controller, "host", "right")
    first = controller.screen()
    assert first.title == "Board: districts" and first.part == (1, first.part[1]) and first.part[1] > 1  # type: ignore[index]
    for _part in range(first.part[1] - 1):  # type: ignore[index]
        press(controller, "host", "right")
        assert controller.screen().title == "Board: districts"
    press(controller, "host", "left")
    assert controller.screen().part is not None and controller.screen().part[0] == first.part[1] - 1  # type: ignore[index]
    press(controller, "host", "right")
    press(controller, "host", "right")
    assert controller.screen().title == "Board: advisors"


def test_a_keypad_rounds_reveal_is_a_notice_and_the_next_round_is_keyed_under_it() -> None:
    at = table("keypads")
    controller = at.controller
    read_notices(controller)
    while "reveal" not in controller.screen().tags:
        at.keypad_ballot()
    state = controller.state
    assert state is not None and state.round == 2 and "Round 1 revealed" in controller.screen().title
    press(controller, "1", "area:castello")
    assert controller.keying.keypad[0].area == 1 and "reveal" in controller.screen().tags, (
        "keyed while the reveal shows"
    )


def test_the_host_ok_shows_a_long_setups_next_part_before_starting() -> None:
    """Where a setup takes two parts (at 160x128 only in the larger type now), ok shows the
    second (the settings) before it starts the game, so no setting goes unseen."""
    import random

    from companion.flow.controller import Controller

    controller = Controller(random.Random(1))
    controller.parts.size = (160, 128)
    controller.parts.text_size = "large"
    for pad in "1234":
        controller.seats.pad_status(pad, True)
        press(controller, pad, "ok")
    first = controller.screen()
    assert first.part == (1, 2) and ("ok", "more") in first.keys
    press(controller, "host", "ok")
    second = controller.screen()
    assert second.part == (2, 2) and controller.stage == "setup"
    assert any(line.text.startswith("◀ Language:") for line in second.lines)
    press(controller, "host", "ok")
    assert controller.stage == "game"


def test_a_screen_changed_in_place_keeps_its_part_and_another_kind_starts_at_the_first() -> None:
    """Setup: a setting changed on the second part stays on it; a setup after another screen's second
    part (the next game offered at game over) starts at its first."""
    lines = tuple(Line(f"line {n}: a setting", "normal") for n in range(12))
    setup = Screen("New game", lines, tags=("setup",))
    other = Screen("Standings", lines, tags=("over",))
    parts = Parts()
    parts.size = (160, 128)
    parts.show(setup, keep=True)
    assert parts.turn("next")
    changed = Screen("Neues Spiel", lines, tags=("setup",))
    assert parts.show(changed, keep=True).part == (2, parts.count)
    parts.show(other)
    assert parts.turn("next")
    assert parts.show(setup, keep=True).part == (1, parts.count)


@pytest.mark.parametrize("language", ["en", "de", "it"])
@pytest.mark.parametrize("size", [(160, 128), (240, 240), (320, 240)])
def test_a_screen_in_parts_has_one_page_counter(language: str, size: tuple[int, int]) -> None:
    """A reminder page in parts once showed "ok: go on (1/5)" beside the part's "2/2"; the part's counter alone
    now (the page's number is in its place in the reading order)."""
    import random

    from companion.flow.controller import Controller
    from companion.i18n import set_language

    set_language(language)
    try:
        controller = Controller(random.Random(1))
        controller.parts.size = size
        for pad in "123":
            press(controller, pad, "ok")
        press(controller, "host", "ok")
        seen = 0
        while controller.notices and controller.notices[0].tag == "reminder":
            screen = controller.screen()
            assert screen.part is None or not re.search(r"\(\d+/\d+\)", screen.footer), (screen.part, screen.footer)
            seen += screen.part is not None
            press(controller, "host", "ok")
        assert seen or size != (160, 128), "at 160x128 some reminder page comes in parts"
    finally:
        set_language("en")


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_the_help_on_tied_runners_up_says_what_they_do(language: str) -> None:
    """Once "a tie for second: tied runners-up" explained nothing."""
    from companion.flow.rules_text import rule_text
    from companion.i18n import set_language

    set_language(language)
    try:
        text = rule_text("6.4")
    finally:
        set_language("en")
    assert {"en": "house", "de": "Haus", "it": "casa"}[language] in text and "10.2.1" in text and "10.4" in text
