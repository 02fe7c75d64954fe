"""What the voice says goes through the catalogs too: pgettext/npgettext with the context "spoken" (the form written
for the ear, beside the screen's own text) and numbers as words (spoken_number), extracted by Babel with their
context and translated like every other text."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import npgettext, pgettext, set_language, spoken_number

ROOT = Path(__file__).resolve().parents[2]
WORDS = {
    "en": ("zero", "one", "two", "seven", "twelve", "twenty"),
    "de": ("null", "eins", "zwei", "sieben", "zwölf", "zwanzig"),
    "it": ("zero", "uno", "due", "sette", "dodici", "venti"),
}


BEYOND = {  # a long game's year 21, the voice's level at 100 percent
    "en": ("twenty-one", "twenty-three", "fifty-eight", "sixty", "a hundred"),
    "de": ("einundzwanzig", "dreiundzwanzig", "achtundfünfzig", "sechzig", "hundert"),
    "it": ("ventuno", "ventitré", "cinquantotto", "sessanta", "cento"),
}


@pytest.mark.parametrize("language", sorted(WORDS))
def test_numbers_up_to_a_hundred_are_words_in_the_tables_language_and_digits_beyond(language: str) -> None:
    set_language(language)
    assert tuple(spoken_number(n) for n in (0, 1, 2, 7, 12, 20)) == WORDS[language]
    assert tuple(spoken_number(n) for n in (21, 23, 58, 60, 100)) == BEYOND[language]
    words = [spoken_number(n) for n in range(101)]
    assert len(set(words)) == 101 and not any(character.isdigit() for word in words for character in word)
    assert (spoken_number(101), spoken_number(-1)) == ("101", "-1")


def test_a_context_keeps_the_spoken_form_apart_from_the_screens() -> None:
    set_language("de")
    assert pgettext("spoken", "The voice at {level} percent.") == "Die Stimme auf {level} Prozent."
    assert pgettext("spoken", "Not in any catalog") == "Not in any catalog"
    set_language("en")
    assert [npgettext("spoken", "one vote", "{n} votes", n) for n in (1, 2)] == ["one vote", "{n} votes"]


@pytest.mark.parametrize("language", ["de", "it"])
def test_babel_extracts_the_context_with_each_text(language: str) -> None:
    with (ROOT / "companion" / "locale" / f"{language}.po").open("rb") as handle:
        catalog = read_po(handle)
    numbers = [message for message in catalog if message.context == "number"]
    assert len(numbers) == 30 and all(message.string for message in numbers)  # to twenty, the tens, "{tens}-{ones}"
    assert catalog.get("one", context="number").string == WORDS[language][1]
    assert catalog.get("one") is None, "the number word is its own entry, not any screen's 'one'"
