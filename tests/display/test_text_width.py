"""A text's width is the sum of its words' widths, to the 1/64 pixel: display/render.py measures new lines
that way, so every row break and every screen stays what FreeType's own layout of the whole line would give."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import ImageFont, features

from display import render

ROOT = Path(__file__).resolve().parents[2]
# The lines a game shows are put together from these (names, numbers, colours, punctuation), plus a few of those
# lines as they come out, and pairs DejaVu kerns inside a word.
SHOWN = (
    "Cannaregio: Green 3, Yellow 3, Blue 1",
    "Santa\u00a0Croce: markers Blue 1, Yellow 1",
    "Red: 0 palaces, 0 districts; 6 more for all 6",
    "ok: undo   back: keep",
    "AV Te To Yo f) 'f' W. j",
    "✓ Pass",
    "▶ ok (2/5)",
    " leading and trailing ",
)


def catalogue_texts() -> set[str]:
    """Every English text and its German and Italian translations."""
    texts = set(SHOWN)
    for path in sorted((ROOT / "companion" / "locale").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle):
                for text in (message.id, message.string):
                    for one in text if isinstance(text, tuple | list) else (text,):
                        if one:
                            texts.add(one.replace("\n", " "))
    return texts


def sizes_in_use() -> set[int]:
    """Every type size the screens are drawn in (``tight`` and ``large_type`` are flags, not sizes)."""
    return {
        size
        for classes in render._SIZES.values()
        for sizes in classes.values()
        for name, size in sizes.items()
        if name not in ("tight", "large_type")
    }


def layouts() -> list[ImageFont.Layout]:
    """Pillow's basic layout always; raqm's where Pillow has it (a Pi's Pillow may not)."""
    return [ImageFont.Layout.BASIC, *([ImageFont.Layout.RAQM] if features.check("raqm") else [])]


@pytest.mark.parametrize("folder", [render.SYSTEM_FONT_DIRS[0], render.FONT_DIR], ids=["system", "shipped"])
def test_a_line_is_as_wide_as_its_words_with_their_spaces(folder: Path) -> None:
    if not (folder / "DejaVuSans.ttf").exists():
        pytest.skip(f"no DejaVu in {folder} (the other case checks the font the companion would use)")
    texts = catalogue_texts()
    assert len(texts) > 1000, "the catalogues were read"
    wrong = []
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        for size in sorted(sizes_in_use()):
            face = ImageFont.truetype(str(folder / name), size)
            width = functools.cache(lambda text, face=face: face.getlength(text, mode="L"))
            for text in texts:
                words = text.split(" ")
                summed = sum(width(word + " ") for word in words[:-1]) + width(words[-1])
                if summed != face.getlength(text, mode="L"):
                    wrong.append((name, size, text))
    assert wrong == []


def test_the_renderer_measures_a_new_line_by_its_words() -> None:
    """A line never measured before gets FreeType's width for the whole line, and FreeType measures only words: a
    longer line after it only its new ones."""
    face = render.font(17)
    line = "Dorsoduro: markers Red 2, Green 11, Yellow 4"
    render._word_length.cache_clear()
    render._length.cache_clear()
    assert render._length(line, face) == face.getlength(line, mode="L")
    assert render._word_length.cache_info().misses == len(line.split(" ")) == 8
    longer = f"{line} Blue 1"
    assert render._length(longer, face) == face.getlength(longer, mode="L")
    assert render._word_length.cache_info().misses == 8 + 3, "'4 ', 'Blue ' and '1' are new"


@pytest.mark.parametrize("layout", layouts(), ids=lambda layout: layout.name)
def test_no_letter_is_kerned_against_a_space(layout: ImageFont.Layout) -> None:
    """What makes the sum exact in either layout (a Pi's Pillow may lack raqm): every letter the catalogues use is
    as wide beside a space as the two apart, in the shipped fonts at every size in use."""
    letters = sorted({letter for text in catalogue_texts() for letter in text} - {" "})
    wrong = []
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        for size in sorted(sizes_in_use()):
            face = ImageFont.truetype(str(render.FONT_DIR / name), size, layout_engine=layout)
            space = face.getlength(" ", mode="L")
            for letter in letters:
                alone = face.getlength(letter, mode="L")
                for pair in (f" {letter}", f"{letter} "):
                    if face.getlength(pair, mode="L") != alone + space:
                        wrong.append((name, size, pair))
    assert wrong == []


@pytest.mark.parametrize("layout", layouts(), ids=lambda layout: layout.name)
def test_the_renderers_width_is_freetypes_for_every_catalogue_text(layout: ImageFont.Layout) -> None:
    """render._length itself (not a sum made here) against FreeType's layout of the whole text."""
    texts = sorted(catalogue_texts())
    wrong = []
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        for size in (12, 17, 24):
            face = ImageFont.truetype(str(render.FONT_DIR / name), size, layout_engine=layout)
            wrong += [(name, size, text) for text in texts if render._length(text, face) != face.getlength(text)]
    assert wrong == []
