"""German and Italian letters are drawn even on a machine without DejaVu."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageFont

from display import render

LETTERS = "äöüÄÖÜßàèéìòù§…"
MISSING = "\u4e00"  # a CJK letter: no font here has it, so it draws the "missing glyph" box


def draws_every_letter(font: Any) -> bool:
    missing = bytes(font.getmask(MISSING))
    return all(bytes(font.getmask(letter)) != missing for letter in LETTERS)


@pytest.fixture
def no_system_dejavu(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every font outside the companion's own folder is 'not installed'."""
    real = ImageFont.truetype
    opened: list[str] = []

    def truetype(path: Any, size: int = 10, *args: Any, **kwargs: Any) -> Any:
        if not str(path).startswith(str(render.FONT_DIR)):
            raise OSError(f"cannot open resource {path}")
        opened.append(str(path))
        return real(path, size, *args, **kwargs)

    monkeypatch.setattr(ImageFont, "truetype", truetype)
    render.font.cache_clear()
    yield opened
    render.font.cache_clear()


def test_pillows_own_font_lacks_them_so_the_check_means_something() -> None:
    try:
        own = ImageFont.load_default(size=18)
    except TypeError:  # Pillow before 10.1 (Debian bookworm's 9.4, the floor lock): only a bitmap font, Latin-1
        pytest.skip("this Pillow has no scalable font of its own to compare with")
    assert not draws_every_letter(own)


@pytest.mark.parametrize("bold", [False, True])
def test_without_dejavu_the_shipped_font_has_every_letter(no_system_dejavu: list[str], bold: bool) -> None:
    font = render.font(18, bold=bold)
    assert no_system_dejavu and no_system_dejavu[-1].startswith(str(render.FONT_DIR))
    assert draws_every_letter(font)


def test_the_screens_render_in_german_without_dejavu(no_system_dejavu: list[str]) -> None:
    from display.screen import Line, Screen

    screen = Screen("Stimm-Marke für Dorsoduro", (Line("Größe, Berater, Palazzo: così", "normal"),))
    problems: list[str] = []
    render.render(screen, (320, 240), problems)
    assert no_system_dejavu and problems == []


def gaps(font: Any, text: str) -> int:
    """How many dark valleys a text's drawing has between inked columns: a column under 100 of 255 parts the
    letters either side of it for the eye (an "rn" keeps one; an "m" has none)."""
    mask = font.getmask(text, mode="L")
    width, height = mask.size
    inked = [max(mask.getpixel((x, y)) for y in range(height)) >= 100 for x in range(width)]
    first, last = inked.index(True), len(inked) - 1 - inked[::-1].index(True)
    return sum(1 for x in range(first + 1, last + 1) if inked[x] and not inked[x - 1])


@pytest.mark.parametrize("bold", [False, True])
def test_r_and_n_stay_apart_so_rn_never_reads_as_m(bold: bool) -> None:
    """ "Sternen" once read "Stemen" on a 160x128 footer (raqm's layout drew the pair touching): in every word the
    catalogues have with an "rn", at every type size in use, the pair shows one valley more than an "m" there."""
    from tests.display.test_text_width import catalogue_texts, sizes_in_use

    words = sorted({word for text in catalogue_texts() for word in re.findall(r"\w*rn\w*", text)})
    assert {"Häusern", "ändern", "giorno"} <= set(words), "the catalogues were read"
    merged = [
        (size, word)
        for size in sorted(sizes_in_use())
        for word in words
        if gaps(render.font(size, bold), word) <= gaps(render.font(size, bold), word.replace("rn", "m"))
    ]
    assert merged == []
