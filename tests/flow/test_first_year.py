"""The first year's reminder (how to set up the table, what the device does instead of cards and markers),
read page by page before "Year 1", once per game: a power cut while it is read shows the unread pages again; once
read it never comes back, not on resume and not later in the game. The next game of the evening shows only
how to set up the board, and offers the rest."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.app import App
from companion.engine.changes import TurnCard
from companion.flow.autoplay import Table
from companion.flow.board_text import change_text
from companion.flow.controller import Controller
from companion.flow.first_year import reminder_pages
from companion.i18n import LANGUAGES, set_language
from hardware.events import InputEvent
from tests.helpers import app_settings


def started(players: int, entry: str, seed: int = 1) -> Controller:
    controller = Controller(random.Random(seed), entry=entry)
    for pad in range(1, players + 1):
        controller.handle(InputEvent(str(pad), "ok"))
    controller.handle(InputEvent("host", "ok"))
    assert controller.stage == "game"
    return controller


def test_a_new_game_opens_with_the_reminder_pages_then_year_1() -> None:
    controller = started(3, "keypads")
    texts = []
    for page in range(1, 6):
        screen = controller.screen()
        assert screen.tags == ("reminder", f"page:{page}") and screen.footer == f"ok: go on ({page}/5)"
        texts.append(screen.text())
        controller.handle(InputEvent("1", "ok"))  # a player's ok is their own: it turns no page
        assert controller.screen() == screen
        controller.handle(InputEvent("host", "ok"))
    assert "Yellow's pieces stay in the box." in texts[0], "three players: the fourth colour is named"
    assert "§2.1" not in texts[0] and controller.screen().title == "Year 1" and controller.screen().rule == "2.2"
    assert "a palace in all 6 districts" in texts[1] and "year's end" in texts[1], "how to win (rules.md 9.2)"
    assert "own keypad" in texts[2] and "Area cards stay in the box" in texts[4], "the cards just before year 1"


def test_the_next_game_of_the_evening_offers_to_skip_the_intro_the_table_just_read() -> None:
    controller = started(3, "private")
    table = Table(controller, random.Random(2), ["1", "2", "3"], keypads=False)
    table.play()
    controller.handle(InputEvent("host", "back"))  # game over: the next game is offered
    assert "host right there shows the rest" in controller.screen().text()
    controller.handle(InputEvent("host", "ok"))
    controller.handle(InputEvent("host", "ok"))  # the same table, started
    screen = controller.screen()
    assert (
        screen.title == "Set up the board"
        and screen.tags == ("reminder",)
        and "Start with an empty board" in (screen.text())
    ), screen
    assert ("right", "the other introduction pages") in screen.keys and "(1/5)" not in screen.footer
    controller.handle(InputEvent("host", "right"))  # the rest, on request
    assert [n.page for n in controller.notices[1:5]] == [(2, 5), (3, 5), (4, 5), (5, 5)]
    controller.handle(InputEvent("host", "ok"))
    assert controller.screen().tags == ("reminder", "page:2")
    for _page in range(4):
        controller.handle(InputEvent("host", "ok"))
    assert controller.screen().title == "Year 1"


def test_without_a_request_the_next_game_goes_from_setting_up_the_board_to_year_1() -> None:
    controller = started(3, "private")
    for _page in range(5):
        controller.handle(InputEvent("host", "ok"))
    assert controller.intro_read and controller.screen().title == "Year 1", "the reminder's last page was read"
    controller.next_game()  # as the game-over screen's next game and the board check's abandon do
    controller.handle(InputEvent("host", "ok"))
    assert controller.screen().title == "Set up the board"
    controller.handle(InputEvent("host", "ok"))
    assert controller.screen().title == "Year 1"


def test_four_players_one_at_a_time_get_their_own_words() -> None:
    text = "\n".join(
        line.text for page in reminder_pages(("red", "blue", "green", "yellow"), "private") for line in page.lines
    )
    assert "pieces stay in the box" not in text
    assert "One player at a time chooses on this screen; the others look away." in text


def test_the_reminder_depends_on_the_seats_only_never_on_a_shuffle() -> None:
    """Nothing on it can be a secret (rules.md 11): another seed, other decks, the same pages."""
    one, other = started(4, "private", 1), started(4, "private", 2)
    assert one.state is not None and other.state is not None and one.state.this_order() != other.state.this_order()
    assert one.notices[:4] == other.notices[:4]


def test_a_power_cut_shows_the_unread_pages_again_and_a_read_reminder_never_returns(tmp_path: Path) -> None:
    """Also after a restart: a game resumed past its reminder counts it as read this evening (its next game offers
    only the board's setup), one resumed while it was read does not."""
    first = App(app_settings(tmp_path), seed=4)
    for event in (InputEvent("1", "ok"), InputEvent("2", "ok"), InputEvent("3", "ok"), InputEvent("host", "ok")):
        first.step(event)
    first.step(InputEvent("host", "ok"))  # page 1 read
    assert first.screen_tags == ("reminder", "page:2")
    page_two = first.controller.screen()
    first.close()  # the power goes
    second = App(app_settings(tmp_path), seed=4)
    assert second.resumed and second.controller.screen().tags == ("resume",), "first: which game goes on"
    assert not second.controller.intro_read, "pages unread: the next game would show them all"
    second.step(InputEvent("host", "ok"))
    assert second.controller.screen() == page_two, "the unread pages again, as they were"
    for _page in range(4):
        second.step(InputEvent("host", "ok"))
    assert second.controller.screen().title == "Year 1"
    second.close()
    third = App(app_settings(tmp_path), seed=4)
    seen: list[tuple[str, ...]] = []
    try:
        third.step(InputEvent("host", "ok"))  # the game in progress goes on
        assert third.resumed and third.controller.screen().title == "Year 1", "read once: not shown again"
        assert third.controller.intro_read, "read before the restart: the next game shows only the board's setup"
        table = Table(
            third.controller, random.Random(4), ["1", "2", "3"], keypads=False,
            watch=lambda controller, _event: seen.append(controller.screen().tags),
        )  # fmt: skip
        table.play()
    finally:
        third.close()
    assert len(seen) > 100 and not [tags for tags in seen if "reminder" in tags], "never again in the whole game"


# The words the card step (board_text.change_text of a TurnCard) and the cards page share, per language.
CARD_WORDS = {
    "en": "lay it face up as next year's next card",
    "de": "offen an die Reihe fürs nächste Jahr",
    "it": "scoperta all'ordine dell'anno prossimo",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cards_page_tells_the_card_step_in_its_own_words(language: str) -> None:
    """The reminder says where the named cards come from (the other deck, not a deck to turn up) and what
    the table does with each, as the card step after each election says it (rules.md 2.2, 5.2)."""
    set_language(language)
    try:
        step = change_text(TurnCard(1), ("red", "blue", "green"))
        page = " ".join(line.text for line in reminder_pages(("red", "blue", "green"), "private")[-1].lines)
    finally:
        set_language("en")
    shared = CARD_WORDS[language]
    assert shared in step, step
    assert shared.replace("lay it", "lay") in page, page
    if language == "en":  # the read-through: which deck is which, the area cards being a third kind
        assert "Lay out one voting-order deck" in page and "Keep the second voting-order deck aside" in page, page
