"""A screen too long for the display comes in parts that fit (display/pages.py): whole lines, in order, marked k/n."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from display import render as render_module
from display.pages import paginate
from display.render import fits, render
from display.screen import Line, MenuView, Screen

SENTENCE = "Red: take 4 houses from Santa\u00a0Croce back to your supply and put a palace on the space marked 4"
LONG = Screen("On the board", tuple(Line(f"{n}. {SENTENCE}", "normal") for n in range(5)), footer="ok: go on")


def test_a_long_screen_comes_in_parts_that_each_fit() -> None:
    parts = paginate(LONG, (160, 128))
    assert len(parts) > 2 and [p.part for p in parts] == [(k, len(parts)) for k in range(1, len(parts) + 1)]
    assert [line for part in parts for line in part.lines] == list(LONG.lines), "every line once, in order"
    for part in parts:
        problems: list[str] = []
        render(part, (160, 128), problems)
        assert problems == [] and part.title == LONG.title and part.footer == LONG.footer


def test_a_screen_that_fits_is_left_whole_and_menus_are_never_cut() -> None:
    assert paginate(LONG, (320, 240)) != (LONG,) and len(paginate(LONG, (320, 240))) < len(paginate(LONG, (160, 128)))
    short = Screen("Year 1", (Line("This year's voting order:", "small"),))
    assert paginate(short, (160, 128)) == (short,)
    menu = Screen("Red decides", LONG.lines, menu=MenuView(("Take control", "Abstain")))
    assert paginate(menu, (160, 128)) == (menu,)


def test_the_part_is_drawn_where_the_footer_ends() -> None:
    """The mark takes room from the footer: the longest footer that fits alone is too wide beside it (reported)."""

    def problems(screen: Screen) -> list[str]:
        found: list[str] = []
        render(screen, (160, 128), found)
        return found

    footer = next("x" * n for n in range(60, 0, -1) if not problems(Screen("T", (), footer="x" * n)))
    assert problems(Screen("T", (), footer=footer, part=(1, 2)))[0].startswith("too wide:")


WORDS = ("Red", "take", "4", "houses", "from", "Santa\u00a0Croce", "palace", "Quarantia", "✓", "Stimm-Marke", "für")
LINES = st.builds(
    Line,
    st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join),
    st.sampled_from(("large", "normal", "small")),
)
SIZES = st.sampled_from(((160, 128), (240, 240), (320, 240)))


@given(
    st.lists(LINES, max_size=9),
    st.sampled_from(("", "ok: go on", "done? ok on your pad", "host ok: undo   back: keep")),
    st.sampled_from((None, (1, 2), (10, 12))),
    st.booleans(),
    SIZES,
    st.sampled_from(("normal", "large")),
)
def test_measuring_a_screen_says_what_drawing_it_says(
    lines: list[Line],
    footer: str,
    part: tuple[int, int] | None,
    qr: bool,
    size: tuple[int, int],
    text_size: str,
) -> None:
    """Parts are cut by measuring (``fits``: no painting), and that must be the drawing's own verdict, or a
    part would lose its last line or leave room unused (docs/screens would change)."""
    screen = Screen("Notice", tuple(lines), footer=footer, part=part, qr=("1010", "0101") * 5 if qr else None)
    problems: list[str] = []
    render(screen, size, problems, text_size)
    assert fits(screen, size, text_size) == (not any(p.startswith("no room for") for p in problems))


def test_cutting_a_notice_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fit check is no drawing: each was once a whole drawing (12-14 of them per notice on a Pi)."""
    drawn: list[Screen] = []
    monkeypatch.setattr(render_module, "_draw", lambda screen, *args: drawn.append(screen))
    notice = replace(LONG, title="Cut without drawing")
    assert len(paginate(notice, (160, 128))) > 2
    assert drawn == []
