"""One word for one piece in each language: the German edition's "Palazzo/Palazzi" (never "Palast/Paläste", which
the catalogue once mixed in), the Italian "palazzo/palazzi"; in the catalogs and in the web pages' own texts."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build_support"))
import catalogs  # noqa: E402 - build_support is not a package

WORD = {"de": "Palazz", "it": "alazz"}  # Palazzo, Palazzi / (P|p)alazzo, (p|P)alazzi
FORBIDDEN = {"de": re.compile(r"pal(a|ä)st", re.IGNORECASE), "it": re.compile(r"edifici|palazzin", re.IGNORECASE)}


def entries(language: str) -> list[tuple[str, str]]:
    """(English, translation) for every form of every entry."""
    with catalogs.catalog(language).open("rb") as source:
        catalog = read_po(source)
    pairs = []
    for message in catalog:
        if not message.id:
            continue
        ids = list(message.id) if message.pluralizable else [message.id]
        forms = list(message.string) if message.pluralizable else [message.string]
        pairs.extend((ids[min(i, len(ids) - 1)], form) for i, form in enumerate(forms))
    return pairs


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_every_palace_is_called_by_the_editions_word(language: str) -> None:
    pairs = entries(language)
    wrong = [text for _english, text in pairs if FORBIDDEN[language].search(text)]
    assert wrong == []
    palaces = [(english, text) for english, text in pairs if re.search(r"\bpalace", english, re.IGNORECASE)]
    assert len(palaces) > 10, "the check reads the palace texts"
    assert [pair for pair in palaces if WORD[language] not in pair[1]] == []


def test_the_web_pages_german_says_palazzi_too() -> None:
    text = (ROOT / "companion" / "web" / "static" / "common.js").read_text(encoding="utf-8")
    assert not FORBIDDEN["de"].search(text)
    assert "Palazzi im Vorrat" in text


def test_the_german_texts_say_gerat_and_tastenfeld_never_host_or_pad() -> None:
    """Five German texts once kept "Host" and about ten "Pad"; the German for the device is "Gerät", for a
    pad "Tastenfeld" (or its keys: "deine Tasten"). Placeholders such as {pad} and config keys such as pads.serial
    are not words of the text."""
    leftover = re.compile(r"\b(host|pads?)\b", re.IGNORECASE)
    names = re.compile(r"\{[a-z_]+\}|\b[a-z_]+\.[a-z_.]+\b")
    found = [text for _english, text in entries("de") if leftover.search(names.sub("", text))]
    assert found == []
    assert sum("Tastenfeld" in text for _english, text in entries("de")) >= 5
