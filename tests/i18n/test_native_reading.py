"""German and Italian as a native reader writes them (docs/translations.md): what a fluent reader once stumbled on at
the table, and can be checked, stays out.

- Under a year's end heading ("Jahr 1 endet") the voting order shown is the new year's: it never says "this year".
- No "(r)", "(in)" forms: a sentence is turned to need none (docs/translations.md "German words").
- A footer's sentence starts with a capital ("Fertig? Drück dein ok", never "fertig? dein ok"); a key's name before
  its colon ("ok: weiter", "zurück: schließen") is a label and stays as the key is printed.
- The game's own words are spelt one way ("Tastenfeldem" was once on the screen): every word that begins like one
  of them is one of its known forms.

That every translation keeps exactly its English text's placeholders is tests/i18n/test_catalogs.py's.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.cli.gallery import collect
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.i18n import set_language
from hardware.events import InputEvent

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build_support"))
import catalogs  # noqa: E402 - build_support is not a package

LANGUAGES = ("de", "it")
THIS_YEAR = {"de": re.compile(r"dieses Jahr", re.IGNORECASE), "it": re.compile(r"quest'anno", re.IGNORECASE)}
YEAR_ENDS = {"de": re.compile(r"^Jahr \d+ endet$"), "it": re.compile(r"^Fine dell'anno \d+$")}
BRACKETED = re.compile(r"\w\((?:r|n|e|s|in|innen|a|o|i)\)|\w/(?:in|innen)\b")
# The game's words and every form they take; a word beginning with the stem must be one of them.
WORDS = {
    "de": {
        "tastenfeld": {"tastenfeld", "tastenfelder", "tastenfeldern", "tastenfeldes"},
        "stimm-marke": {"stimm-marke", "stimm-marken"},
        "palazz": {"palazzo", "palazzi"},
        "berater": {"berater", "beraters", "beratern"},
        "stadtteil": {
            "stadtteil",
            "stadtteile",
            "stadtteilen",
            "stadtteils",
            "stadtteil-berater",
            "stadtteil-beraters",
        },
        "wahlreihenfolge": {"wahlreihenfolge", "wahlreihenfolge-stapel", "wahlreihenfolge-stapels"},
        "stimmzettel": {"stimmzettel", "stimmzetteln", "stimmzettels"},
        "stimmengleich": {"stimmengleich", "stimmengleiche", "stimmengleichen"},
    },
    "it": {
        "tastierin": {"tastierino", "tastierini"},
        "segnalin": {"segnalino", "segnalini"},
        "consiglier": {"consigliere", "consiglieri"},
        "quartier": {"quartiere", "quartieri"},
        "palazz": {"palazzo", "palazzi"},
        "tabellon": {"tabellone"},
    },
}


def translations(language: str) -> list[str]:
    """Every form of every translated text."""
    with catalogs.catalog(language).open("rb") as source:
        catalog = read_po(source)
    texts: list[str] = []
    for message in catalog:
        if message.id:
            texts.extend(message.string if message.pluralizable else [message.string])
    return texts


class Seen:
    """Every footer a table sees, and every year's end notice's lines, over whole seeded games."""

    def __init__(self) -> None:
        self.footers: set[str] = set()
        self.year_ends: list[tuple[str, list[str]]] = []

    def __call__(self, controller: Controller, _event: InputEvent) -> None:
        self.footers.add(controller.screen().footer)
        notices = controller.notices
        if notices and notices[0].tag == "year":
            entry = (notices[0].title, [line.text for line in notices[0].lines])
            if entry not in self.year_ends:
                self.year_ends.append(entry)


@pytest.fixture(scope="module", params=LANGUAGES)
def seen(request: pytest.FixtureRequest) -> tuple[str, Seen]:
    language = request.param
    set_language(language)
    try:
        found = Seen()
        for keypads, computers, seed in ((False, 0, 12), (True, 1, 11)):
            controller = Controller(random.Random(seed), entry="private")
            controller.sync_bots = True  # a computer player moves at once, as in the gallery
            at = Table(controller, random.Random(seed), ["1", "2", "3"], keypads, found, computers=computers)
            at.setup()
            at.play()
        found.footers |= {screen.footer for screen in collect().values()}  # help, the board check, undo, sound
        return language, found
    finally:
        set_language("en")


def test_a_years_end_never_calls_the_new_years_order_this_years(seen: tuple[str, Seen]) -> None:
    language, found = seen
    assert len(found.year_ends) >= 3, "the games reach several years' ends"
    for title, lines in found.year_ends:
        assert YEAR_ENDS[language].match(title), title
        assert not [line for line in lines if THIS_YEAR[language].search(line)], (title, lines)
    new_year = [(int(re.findall(r"[0-9]+", title)[0]) + 1, lines) for title, lines in found.year_ends]
    named = [any(f"{year}:" in line for line in lines) for year, lines in new_year]
    assert any(named), "the new year's order is named by its year"


def sentence_starts(footer: str) -> list[str]:
    """The first letter of each sentence in a footer: a part (parts are apart by two spaces or more) without a
    key's label, and whatever follows a question mark or a full stop; a label's own words ("ok: ", "jede Taste: ")
    and what a label is followed by ("ok: weiter") are no sentence."""
    starts = []
    for part in re.split(r"\s{2,}", footer.strip()):
        if not part:
            continue
        if ":" not in part:
            starts.append(part)
        starts.extend(re.findall(r"[?.!]\s+(\S+)", part))
    return [re.sub(r"^\W+", "", start)[:1] for start in starts if re.sub(r"^\W+", "", start)]


def test_sentence_starts_catches_what_a_reader_stumbled_on() -> None:
    assert sentence_starts("fertig? dein ok") == ["f", "d"]
    assert sentence_starts("der Computer entscheidet") == ["d"]
    assert sentence_starts("ok: weiter   zurück: schließen") == []
    assert sentence_starts("Fertig? Drück dein ok") == ["F", "D"]


def test_every_footer_sentence_starts_with_a_capital(seen: tuple[str, Seen]) -> None:
    language, found = seen
    assert len(found.footers) >= 10, found.footers
    lower = {
        footer
        for footer in found.footers
        if any(letter.islower() for letter in sentence_starts(footer) if not letter.isdigit())
    }
    assert lower == set(), (language, lower)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_bracketed_forms(language: str) -> None:
    assert [text for text in translations(language) if BRACKETED.search(re.sub(r"\{\w+\}", "", text))] == []


def test_bracketed_forms_are_caught() -> None:
    assert BRACKETED.search("Spieler(in) wählt") and BRACKETED.search("jede(r) darf")
    assert not BRACKETED.search("Rot (Computer)") and not BRACKETED.search("(durch 2 Berater)")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_games_words_are_spelt_one_way(language: str) -> None:
    words = {word.lower() for text in translations(language) for word in re.findall(r"[\w-]+", text)}
    wrong = {
        word for word in words for stem, forms in WORDS[language].items() if word.startswith(stem) and word not in forms
    }
    assert wrong == set()
    for stem in WORDS[language]:
        assert any(word.startswith(stem) for word in words), f"the check reads the texts with {stem!r}"


def test_a_typo_of_a_known_word_is_caught() -> None:
    stem, forms = "tastenfeld", WORDS["de"]["tastenfeld"]
    assert "tastenfeldem".startswith(stem) and "tastenfeldem" not in forms
