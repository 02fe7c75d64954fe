"""Parts cut where a reader would cut them (display/pages.py, display/render.py's rows, the notices' composition):
whole games played by the scripted table (three keypads and a computer player) in German and Italian at 160x128
and in English at 320x240, every screen the table was shown, with the board check's pages, the year so far and the
race as they stood at each step, read part by part and row by row as the renderer lays them out:

- a lead-in (a line ending in ":") is never the last line of a part while more follows;
- no part starts with a tail of a cut line shorter than ``pages.TAIL`` words, no row holds numbers alone;
- the race's key heads every part of the race;
- one election to a notice, under a heading that names it, and the voice says its result first;
- the game-over reason (the winner's condition, with its subject) on the first part;
- a menu of up to three options has them all in sight, a computer's too;
- under a year's end, the order that follows is named as next year's.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache

import pytest

from companion.cli.gallery import collect
from companion.engine.areas import AREA_NAMES
from companion.flow.modes.this_year import race_screen, year_screen
from companion.flow.narration import CONDITION_NAMES, NO_BREAK, Notice
from companion.flow.paging import Parts
from companion.flow.views import board_view, keep_names_together, notice_view
from companion.i18n import _, set_language
from display.pages import TAIL, lead_in, paginate
from display.render import render, rows_of
from display.screen import TICK, Screen
from tests.helpers import still_queued
from tests.scripted_table import ScriptedTable

READINGS = [("de", (160, 128), (1, 2, 3, 4)), ("it", (160, 128), (1, 2, 3, 4)), ("en", (320, 240), (1, 2))]
NUMBERS = re.compile(r"[\d\s·+\-\u2013.,;:()/]*\d[\d\s·+\-\u2013.,;:()/]*")  # a row of numbers alone


@dataclass
class Evening:
    """What the table was shown: every whole screen (one of each), every notice that reached the top."""

    screens: dict[tuple[object, ...], Screen] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)

    def keep(self, screen: Screen) -> None:
        menu = (screen.menu.options, screen.menu.cursor) if screen.menu else None
        texts = tuple(line.text.removeprefix(TICK) for line in screen.lines)
        self.screens.setdefault((screen.title, screen.footer, texts, menu), screen)


@cache
def evening(language: str, size: tuple[int, int], seeds: tuple[int, ...]) -> Evening:
    """Whole games to their end in ``language``, the table's display ``size``."""
    set_language(language)
    seen = Evening()
    show = Parts.show

    def kept(parts: Parts, screen: Screen, keep: bool = False) -> Screen:
        seen.keep(screen)
        return show(parts, screen, keep)

    Parts.show = kept  # type: ignore[method-assign]
    try:
        for seed in seeds:
            table = ScriptedTable(seed, size)
            table.setup()
            controller = table.controller
            while controller.stage != "over":
                table.turn()
                notices = controller.notices
                if notices and not still_queued(notices[0], seen.notices):
                    seen.notices.append(notices[0])
                if controller.stage == "game" and controller.state is not None:
                    pages = [board_view(controller.seen.board, page) for page in range(1, 5)]
                    for page in (race_screen(controller, ""), year_screen(controller, ""), *pages):
                        seen.keep(keep_names_together(page))
            controller.screen()
            table.ending()
            controller.screen()
    finally:
        Parts.show = show  # type: ignore[method-assign]
        set_language("en")
    return seen


def parts_of(screen: Screen, size: tuple[int, int]) -> tuple[Screen, ...]:
    return paginate(screen, size, "normal")


def cases() -> list[object]:
    return [pytest.param(lang, size, seeds, id=f"{lang}-{size[0]}x{size[1]}") for lang, size, seeds in READINGS]


@pytest.fixture
def in_language() -> Iterator[None]:
    yield
    set_language("en")


def cut_badly(screens: Iterable[Screen], size: tuple[int, int]) -> tuple[list[str], int]:
    """Parts that end with a lead-in while more follows, or start with a tail of a cut line; how many were cut."""
    problems: list[str] = []
    cut = 0
    for screen in screens:
        whole = [line.text for line in screen.lines]
        parts = parts_of(screen, size)
        for part in parts[:-1]:
            if part.lines and lead_in(part.lines[-1]):
                problems.append(f"{part.title} {part.part} ends with {part.lines[-1].text!r}")
        for before, part in itertools.pairwise(parts):
            first = part.lines[0].text if part.lines else ""
            if part.lines and first not in whole:
                cut += 1
                sentence = bool(before.lines) and before.lines[-1].text.endswith((".", "!", "?", ";"))
                if len(first.split()) < TAIL and not sentence:  # a whole sentence may be short
                    problems.append(f"{part.title} {part.part} starts with a tail: {first!r}")
    return problems, cut


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_no_part_ends_with_a_lead_in_or_starts_with_a_tail(
    language: str, size: tuple[int, int], seeds: tuple[int, ...]
) -> None:
    problems, cut = cut_badly(evening(language, size, seeds).screens.values(), size)
    assert problems == []
    assert cut > 0 or size != (160, 128), "some long line is cut across parts at 160x128 (the check checks)"


@pytest.mark.parametrize("language", ["de", "it"])
def test_the_gallerys_undo_screens_and_help_are_cut_alike(language: str, in_language: None) -> None:
    """The screens a scripted game without undos never shows (an undo's question, its result, a refusal naming
    what was revealed: "…kann nicht zurückgenommen werden. Sie hat aufgedeckt:" stays with its list; the rule
    help), as ``doge-companion screens`` collects them."""
    set_language(language)
    screens = collect()
    assert {"undo-refused", "undone", "help"} <= set(screens)
    problems, cut = cut_badly(screens.values(), (160, 128))
    assert problems == [] and cut > 0


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_no_row_holds_numbers_alone(language: str, size: tuple[int, int], seeds: tuple[int, ...]) -> None:
    seen = evening(language, size, seeds)
    set_language(language)
    try:
        problems = [
            f"{part.title}: {rows}"
            for screen in seen.screens.values()
            for part in parts_of(screen, size)
            for rows in rows_of(part, size)
            if any(NUMBERS.fullmatch(row) for row in rows[1:])
        ]
    finally:
        set_language("en")
    assert problems == []


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_the_race_key_heads_every_part_of_the_race(
    language: str, size: tuple[int, int], seeds: tuple[int, ...], in_language: None
) -> None:
    seen = evening(language, size, seeds)
    set_language(language)
    races = [s for s in seen.screens.values() if "page:race" in s.tags]
    assert races
    cut = 0
    for race in races:
        key = race.lines[0]
        assert key.key and key.text.startswith(_("Palaces to go for: {conditions}").split("{")[0])
        parts = parts_of(race, size)
        cut += len(parts) > 1
        assert all(part.lines[0] == key for part in parts), [p.lines[0].text for p in parts]
        players = [line.text for part in parts for line in part.lines[1:]]
        assert players == [line.text for line in race.lines[1:]], "every player once, in order"
    assert cut or size != (160, 128), "at 160x128 the race comes in parts"


def card_text(language: str) -> re.Pattern[str]:
    set_language(language)
    card = _("Take the {area} card and lay it face up as next year's next card")
    return re.compile(re.escape(card).replace(re.escape("{area}"), ".+"))


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_one_election_to_a_notice_under_its_name(
    language: str, size: tuple[int, int], seeds: tuple[int, ...], in_language: None
) -> None:
    """A count's notice is titled by its area and holds that election alone: no other area's result before its
    votes (a "Dorsoduro" once opened with Cannaregio's no-vote result and a card); a card turned before it heads it
    at most once (the election before, decided in an earlier line), led by that election's name; one nobody
    voted in has its own card after its result. The voice says the notice's own result first."""
    seen = evening(language, size, seeds)
    card = card_text(language)
    names = [name.replace(" ", NO_BREAK) for name in AREA_NAMES] + list(AREA_NAMES)
    counts = [n for n in seen.notices if n.tag in ("count", "empty")]
    empties = [n for n in counts if n.tag == "empty"]
    assert counts and empties, "the games had counts and an election nobody voted in"
    for notice in counts:
        assert notice.title in AREA_NAMES
        texts = [line.text for line in notice.lines]
        leading = 0
        while leading < len(texts) and card.fullmatch(texts[leading]):
            leading += 1
        assert leading <= 1, texts
        assert not leading or (notice.lead is not None and notice.lead[1] == 1), texts  # led by its election
        result = texts[leading] if leading < len(texts) else ""
        assert not any(result.startswith(f"{name}:") for name in names), texts  # another area's result
        others = [t for t in texts[leading + 1 :] if card.fullmatch(t)]
        assert len(others) <= (notice.tag == "empty"), texts
        spoken = notice.spoken[0] if notice.spoken else ""
        assert spoken.startswith(notice.title), (notice.title, notice.spoken)
    led = [n for n in seen.notices if n.lead is not None]
    assert led, "a card turned as an election ended headed the notice after it"
    for notice in led:  # the card is the election before's (5.2): its part is titled by that one, not this one
        assert notice.lead is not None and notice.lead[0] in AREA_NAMES and notice.lead[0] != notice.title
        shown = [line.text for part in parts_of(notice_view(notice), size) for line in part.lines]
        led = [text for text in shown if text.startswith(f"{notice.lead[0]}: ")]
        assert led and card.fullmatch(led[0].removeprefix(f"{notice.lead[0]}: ")), shown
        assert not any(card.fullmatch(text) for text in shown[: shown.index(led[0])]), shown


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_the_game_over_says_who_won_and_by_which_condition_on_its_first_part(
    language: str, size: tuple[int, int], seeds: tuple[int, ...], in_language: None
) -> None:
    seen = evening(language, size, seeds)
    set_language(language)
    overs = [s for s in seen.screens.values() if s.tags == ("over",)]
    assert len(overs) >= len(seeds)
    conditions = [_(name) for name in CONDITION_NAMES.values()]
    for over in overs:
        first = parts_of(over, size)[0]
        text = [line.text for line in first.lines]
        winner = first.lines[0].colour
        assert winner is not None and first.lines[0].size == "large"
        said = [t for t in text[1:] if any(t.endswith(f": {condition}") for condition in conditions)]
        assert said, f"no condition under who won: {text}"
        assert said[0].split(":")[0] in text[0], "the winner's own condition, named by its colour"


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_a_short_menu_has_every_option_in_sight_a_computers_too(
    language: str, size: tuple[int, int], seeds: tuple[int, ...], in_language: None
) -> None:
    seen = evening(language, size, seeds)
    set_language(language)
    menus = [s for s in seen.screens.values() if s.menu is not None and len(s.menu.options) <= 3]
    decisions = [s for s in menus if "decision" in s.tags]
    assert decisions
    problems = []
    for screen in [*menus, *(replace(s, footer=_("the computer is deciding")) for s in decisions)]:
        found: list[str] = []
        render(screen, size, found)
        problems += [f"{screen.menu.options}: {p}" for p in found if "options" in p]  # type: ignore[union-attr]
    assert problems == []


@pytest.mark.parametrize(("language", "size", "seeds"), cases())
def test_under_a_years_end_the_order_that_follows_is_next_years(
    language: str, size: tuple[int, int], seeds: tuple[int, ...], in_language: None
) -> None:
    seen = evening(language, size, seeds)
    set_language(language)
    lead = _("Year {year}'s voting order:")
    ends = [n for n in seen.notices if n.tag == "year"]
    joined = 0
    for notice in ends:
        year = int(re.findall(r"\d+", notice.title)[0])
        orders = [line.text for line in notice.lines if lead_in(line)]
        joined += bool(orders)
        assert orders in ([], [lead.format(year=year + 1)]), (notice.title, orders)
    assert joined, "a year's end told the next year's order"


def test_the_cards_heading_and_a_counts_votes_are_kept_with_the_saved_screen() -> None:
    """A power cut while a card heads the next election's notice: the resumed screen still titles the card by the
    election that turned it; a saved heading for more lines than the notice has is no screen any version wrote."""
    import json

    from companion.flow.notice_store import restore_screen, screen_state
    from display.screen import Line

    card = Line("Take the Castello card and lay it face up as next year's next card", "small")
    votes = Line("Red: 3 votes", "normal", "red", result=True)  # never ticked (test_count_texts.py): kept so
    notice = Notice("San Marco", (card, votes, Line("Red wins", "large")), tag="count", lead=("Dorsoduro", 1))
    stored = json.loads(json.dumps(screen_state([notice])))
    (back,) = restore_screen(stored)
    assert back.lead == ("Dorsoduro", 1) and back.lines == notice.lines
    (shown,) = parts_of(notice_view(back), (320, 240))  # one screen, the card led by the election that turned it
    assert shown.title == "San Marco" and shown.lines[0].text == f"Dorsoduro: {card.text}"
    stored["notices"][0]["lead"] = ["Dorsoduro", 4]
    assert restore_screen(stored) == []
    stored["notices"][0].update(lead=["Dorsoduro", 1], tag="gossip")  # a kind of notice no version has
    assert restore_screen(stored) == []


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_a_secret_ballots_gate_is_one_part_at_160x128(language: str, in_language: None) -> None:
    """Whose ballot it is, that the others look away and that the player presses ok are read at once: "Blau: ok am
    eigenen Tastenfeld drücken" was once alone on a part 2 (large text), after the others had looked away."""
    from companion.flow.views import gate_view

    set_language(language)
    for colour in ("red", "blue", "green", "yellow"):
        for text_size in ("normal", "large"):
            parts = paginate(gate_view({"year": 12, "round": 3}, colour), (160, 128), text_size)
            assert len(parts) == 1, (colour, text_size, [[line.text for line in part.lines] for part in parts])
