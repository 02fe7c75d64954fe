"""Every setup the host can reach fits every display in every language (options, keys and footer uncut),
and the renderer never breaks a line inside a name; with either text size, and a setup too long for the
display in parts (display/pages.py; the host's ok shows the next before it starts the game) that together show every
seat and setting, with no text below the legible x-height at 160x128."""

from __future__ import annotations

from itertools import product

import pytest
from PIL import Image, ImageDraw

from companion.cli.gallery import SIZES
from companion.flow.seats import Seats
from companion.flow.views import keep_names_together, setup_view
from companion.i18n import LANGUAGES, set_language
from display.pages import paginate
from display.render import LEGIBLE, font, render, smallest_text, wrap
from display.screen import TEXT_SIZES, Screen


def setups() -> list[Seats]:
    """Pads joined (0-4), computers among them, pads waiting to join, both ballot entries."""
    found = []
    for humans, bots, waiting, entry in product(range(5), range(5), range(3), ("private", "keypads")):
        if humans + bots > 4 or humans + waiting > 4:
            continue
        seats = Seats(entry=entry)
        for pad in range(1, humans + 1):
            seats.pad_status(str(pad), True)
            seats.pad_key(str(pad), "ok")
        for pad in range(humans + 1, humans + waiting + 1):
            seats.pad_status(str(pad), True)
        for _bot in range(bots):
            seats.add_or_clear_bots()
        found.append(seats)
    return found


def screens(language: str) -> list[Screen]:
    set_language(language)
    try:
        return [keep_names_together(setup_view(seats)) for seats in setups()]
    finally:
        set_language("en")


@pytest.mark.parametrize("text_size", TEXT_SIZES)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_setup_fits(language: str, size: tuple[int, int], text_size: str) -> None:
    problems: list[str] = []
    for screen in screens(language):
        parts = paginate(screen, size, text_size)
        for part in parts:
            render(part, size, problems, text_size)
            assert size != (160, 128) or (smallest_text(part, size, text_size) or LEGIBLE) >= LEGIBLE
        assert [line for part in parts for line in part.lines] == list(screen.lines)  # every setting, in order
    assert problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_setup_fits_one_part_at_160x128(language: str) -> None:
    """Four seats and every setting with its key once took two parts at 160x128, so the documented example
    script's first ok turned to the second part instead of starting the game. With the normal text size every
    setup now fits at once (the large size may still come in parts, which the host's ok shows first)."""
    assert all(len(paginate(screen, (160, 128))) == 1 for screen in screens(language))


def test_settings_read_as_settings_with_the_key_that_changes_them() -> None:
    text = setup_view(Seats(entry="private")).text()
    assert "▶ Ballots: one at a time" in text and "◀ Language: English" in text
    assert "right: ballots" not in text


def test_a_cut_footer_of_the_setup_would_be_caught() -> None:
    """Guard: a footer too long for one line takes two (so it keeps the body's size) and whatever still does
    not fit is reported, so the test above cannot miss a cut footer again."""
    problems: list[str] = []
    footer = "ok: start   left: language   right: ballots"
    one = render(Screen("New game", (), footer=footer[:9]), (160, 128), problems)
    two = render(Screen("New game", (), footer=footer), (160, 128), problems)
    rows = [y for y in range(20, 128) if any(two.getpixel((x, y)) != two.getpixel((0, 0)) for x in range(160))]
    assert problems == [] and one.tobytes() != two.tobytes() and rows[0] < 128 - 2 * 12
    render(Screen("New game", (), footer="ok:start,left:language,right:ballots"), (160, 128), problems)
    assert problems and problems[0].startswith("too wide:")


def test_a_name_is_never_split_across_lines() -> None:
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    face = font(11)
    text = "The palace in Santa\u00a0Croce goes to Red"
    lines = wrap(draw, text, face, int(draw.textlength("The palace in Santa", font=face)) + 2)
    assert "Santa\u00a0Croce" in "\n".join(lines) and not any(line.endswith("Santa") for line in lines)
