"""What the device's screen says about phones fits every display, in every language and text size: the
takeover question (who asks, the seat's ballot, left then right), the board check's phones page, a seat open on two
devices, and the join code beside setup (a full table) and the start-up question after a restart. Each is paged as
the controller pages it (the App's additions come before the cut: flow/context.py)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest

from companion.app import App
from companion.cli.gallery import SIZES
from companion.flow.composition import keys_of
from companion.flow.controller import Controller
from companion.flow.modes import ResumeOffer
from companion.flow.modes.board_check import PAGES
from companion.flow.views import keep_names_together, setup_view
from companion.i18n import LANGUAGES, set_language
from companion.store import Store
from companion.web.join import copied_banner, fits, phones_view, with_join_code
from companion.web.publisher import WebDevices, WebHello
from companion.web.takeover import TakeoverConfirm
from display.pages import paginate
from display.render import render
from display.screen import TEXT_SIZES, Screen
from hardware.events import InputEvent
from tests.helpers import app_settings
from tests.web.memory import Pages

URL = "http://192.168.100.200:8080/#j=" + "x" * 22  # as long as a real link's


def takeovers(ctx: Controller) -> list[Screen]:
    screens = []
    for lost, locked, armed in product((None, "yellow"), (False, True), (False, True)):
        question = TakeoverConfirm("blue", lost, locked, lambda granted: None)
        question.armed = armed
        screens.append(replace(question.view(ctx), keys=keys_of(question, ctx)))
    return screens


def paged(ctx: Controller) -> list[Screen]:
    status = {"red": "phone", "blue": "away", "green": "pad", "yellow": "phone"}
    return [
        *takeovers(ctx),
        phones_view(status, URL),
        copied_banner(Screen("Year 2, round 1"), ["red", "yellow"]),
        with_join_code(setup_view(ctx.seats), URL),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phone_screen_fits(language: str) -> None:
    set_language(language)
    try:
        ctx = Controller(random.Random(1))
        ctx.seats.joined = [("phone1", "red"), ("2", "blue"), ("phone3", "green"), ("phone4", "yellow")]
        problems: list[str] = []
        for size, text_size in product(SIZES, TEXT_SIZES):
            for screen in paged(ctx):
                for part in paginate(keep_names_together(screen), size, text_size):
                    render(part, size, problems, text_size)
        assert problems == []
        # the start-up question after a restart gets the code where it fits whole (the phones page has it too)
        resume = keep_names_together(ResumeOffer(3, "2026-01-01T20:00:00Z", 2).view(ctx))
        assert fits(with_join_code(resume, URL), (320, 240), "normal")  # the default display
    finally:
        set_language("en")


def test_the_board_check_has_a_phones_page_with_the_code_before_the_way_out(tmp_path: Path) -> None:
    """A phone that joins during a game (its owner's phone died) finds the code on the device: board check (host
    back), right past the board's pages."""
    app = App(app_settings(tmp_path), seed=3, store=Store(None, memory=True))
    try:
        Pages(app, ["a", "b", "c"])
        for phone in "abc":
            app.step(WebHello(phone))  # each sits down
        app.step(WebDevices("a", 1, 1))  # a's page is open; b's and c's are not (any more)
        app.step(InputEvent("host", "right"))
        while app.controller.stage == "setup" or app.controller.notices:
            app.step(InputEvent("host", "ok"))
        app.step(InputEvent("host", "back"))
        seen: list[tuple[str, ...]] = []
        while "phones" not in app.screen_tags and len(seen) < 30:  # the board's own pages (some in parts) first
            seen.append(app.screen_tags)
            app.step(InputEvent("host", "right"))
        assert len(set(seen)) == PAGES, seen  # each of the board check's own pages once
        assert app.screen is not None and "phones" in app.screen_tags and app.screen.qr
        text = " ".join(line.text for line in app.screen.lines)
        assert "Red: phone connected" in text and "Blue: phone away" in text and "Green: phone away" in text
        app.step(InputEvent("host", "right"))
        assert "abandon" in app.screen_tags  # then, as before, the way out of the game
        app.step(InputEvent("host", "left"))
        assert "phones" in app.screen_tags
    finally:
        app.close()


def test_setup_names_a_phones_seat_as_a_phone_and_a_keypads_by_its_number() -> None:
    """A phone's own source ("phone1") is nothing a player can match; a keypad's number is printed on it."""
    ctx = Controller(random.Random(1))
    ctx.seats.joined = [("phone1", "red"), ("2", "blue")]
    texts = [line.text for line in setup_view(ctx.seats).lines]
    assert "Red: phone" in texts and "Blue: pad 2" in texts and not any("phone1" in text for text in texts)
