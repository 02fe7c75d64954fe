"""German and Italian as a native reader writes them (docs/translations.md): what a fluent reader once stumbled on at
the table, and can be checked, stays out.

- Under a year's end heading ("Jahr 1 endet") the voting order shown is the new year's: it never says "this year".
- No "(r)", "(in)" forms: a sentence is turned to need none (docs/translations.md "German words").
- A footer's sentence starts with a capital ("Der Computer entscheidet", never "der Computer entscheidet"); a key's
  name before its colon ("ok: weiter", "zurück: schließen") is a label and stays as the key is printed.
- Key lines come in one style: "key: action" labels, comma separated ("</>: Seite,   zurück: schließen"; the three
  spaces are where display/render.py may break a footer too long for one row), never a question ("Fertig? Drück
  dein ok"), a list of keys ("Tasten: </>, ok, zurück") or spelt-out arrows ("links/rechts").
- A line on a screen starts with a capital unless it goes on with a list (the line before ends with ":" or ",") or
  is a key's label; so does every sentence after a full stop, question or exclamation mark.
- A decision is told as a sentence with its subject ("Grün hat entschieden, kein Haus in San Marco zu setzen"),
  never "Entscheidung von Grün: kein Haus in San Marco setzen"; an instruction to everyone names who acts ("Jeder
  nimmt seine Stimm-Marken zurück", never "Alle: ...").
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
from companion.engine import Abstain, Advisor, Build, Houses, Move
from companion.engine.decisions import HouseMove
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.decision_text import decision_text
from companion.flow.paging import COUNTER
from companion.i18n import _, set_language
from display.screen import TICK, Screen
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


def screen_lines(screen: Screen) -> tuple[str, ...]:
    """A screen's lines as read, top down (a tick before a confirmed line left out), a menu's hint under them."""
    lines = [line.text.removeprefix(TICK) for line in screen.lines]
    return (*lines, screen.menu.hint) if screen.menu is not None and screen.menu.hint else tuple(lines)


class Seen:
    """Every footer and every screen's lines a table sees (a menu's title and hint too), and every year's end
    notice's lines, over whole seeded games."""

    def __init__(self) -> None:
        self.footers: set[str] = set()
        self.screens: set[tuple[str, ...]] = set()
        self.year_ends: list[tuple[str, list[str]]] = []

    def __call__(self, controller: Controller, _event: InputEvent) -> None:
        screen = controller.screen()
        self.footers.add(screen.footer)
        self.screens.add(screen_lines(screen))
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
        gallery = collect().values()  # help, the board check, undo, sound
        found.footers |= {screen.footer for screen in gallery}
        found.screens |= {screen_lines(screen) for screen in gallery}
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


# A key's label as printed, or as a footer names whose key ("dein ok") or which keys ("jede andere Taste").
LABELS = {
    "de": ("</>, ok", "<, dann >", "</>", "<", ">", "ok", "zurück halten", "zurück", "jede andere Taste",
           "jede Taste", "dein ok", "irgendein ok"),
    "it": ("</>, ok", "<, poi >", "</>", "<", ">", "ok", "tieni indietro", "indietro", "altro tasto", "ogni tasto",
           "il tuo ok", "un ok qualsiasi"),
}  # fmt: skip
KEY_WORDS = {"de": re.compile(r"\bok\b|zurück|Taste|[<>]"), "it": re.compile(r"\bok\b|indietro|tasto|[<>]")}
# Every footer of the code's (the games' are seen too; these also cover the phones' takeover and the sound page).
FOOTERS = (
    "ok: start", "left/right, ok: pick", "ok: tick a marker; Done to finish", "pad: left/right, ok, back",
    "your pad: left/right, ok", "done? any pad: ok", "done? ok on your pad", "ok: go on", "ok: go on ({page}/{pages})",
    "host ok: undo   back: keep", "any host key: back", "any key: close", "left/right: page   back: close",
    "host right: standings, chart   back: next game", "host left/right: page   back: close",
    "host left: page   back: close", "ok: more", "ok: louder   right: board   back: close",
    "right: board   back: close", "host ok: new game", "hold back: abandon", "ok: go on   right: a new game",
    "right: give it   any other key: refuse", "left, then right: give it   ok: refuse",
)  # fmt: skip


def key_line(footer: str, language: str) -> bool:
    """Whether a footer naming keys is in the one style: "key: action" hints, a comma (and, where the footer may
    need two rows, the renderer's three spaces) between them; an action has no colon, semicolon or question."""
    labels = "|".join(re.escape(label) for label in LABELS[language])
    hint = rf"(?:{labels}): [^:;?\s][^:;?]*?"
    return re.fullmatch(rf"{hint}(?:,(?: |   ){hint})*", COUNTER.sub("", footer)) is not None


def test_key_line_tells_the_one_style_from_the_others() -> None:
    for old in ("Fertig? Drück dein ok", "Tasten: </>, ok, zurück", "deine Tasten: </>, ok", "links/rechts, ok: wählen",
                "ok: Marke wählen; Fertig beendet", "ok: lauter  >: Spielplan  zurück: schließen",
                "ok: ja   zurück: nein", "rechts: geben   jede andere Taste: ablehnen"):  # fmt: skip
        assert not key_line(old, "de"), old
    for new in ("ok: weiter (2/5)", "</>, ok: wählen", "</>: Seite,   zurück: schließen", "ok: wählen, dann Fertig",
                "<, dann >: geben,   ok: ablehnen", "ok: ja, zurück: nein"):  # fmt: skip
        assert key_line(new, "de"), new


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_line_of_the_code_is_in_the_one_style(language: str) -> None:
    set_language(language)
    try:
        shown = {english: _(english) for english in FOOTERS}
    finally:
        set_language("en")
    assert {english: text for english, text in shown.items() if not key_line(text, language)} == {}


def test_every_footer_a_table_sees_is_a_key_line_or_a_sentence(seen: tuple[str, Seen]) -> None:
    language, found = seen
    keyed = {footer for footer in found.footers if KEY_WORDS[language].search(footer)}
    assert len(keyed) >= 10, keyed
    assert {footer for footer in keyed if not key_line(footer, language)} == set()
    assert {footer for footer in found.footers - keyed if "?" in footer or ":" in footer} == set()


def lower_starts(lines: tuple[str, ...], language: str) -> list[str]:
    """The lines of a screen that start lower case, or hold a sentence that does: a line in a list may (after a line
    that ends with ":" or ",", up to a line's full stop), and so may a key's label ("zurück: Computer dazu")."""
    labels = tuple(f"{label}: " for label in LABELS[language])
    found = []
    listed = False
    for before, line in zip(("", *lines), lines, strict=False):
        listed = before.endswith((":", ",")) or (listed and not before.endswith((".", "?", "!")))
        if (line[:1].islower() and not listed and not line.startswith(labels)) or re.search(r"[.?!] +[a-zäöüà]", line):
            found.append(line)
    return found


def test_lower_starts_catches_what_a_reader_stumbled_on() -> None:
    assert lower_starts(("die aufgedeckten Karten sind seine Reihenfolge",), "de")
    assert lower_starts(("Kontrolle: Ring aufstecken. er darf bleiben.",), "de")
    assert not lower_starts(("Sie hat aufgedeckt:", "die Auszählung in San Polo", "die Karte San Polo"), "de")
    assert lower_starts(("Sie hat aufgedeckt:", "die Karte San Polo.", "die Auszählung"), "de")
    assert not lower_starts(("▶ Eingabe: einzeln", "zurück: Computer dazu"), "de")


def test_every_line_on_a_screen_starts_as_a_sentence_does(seen: tuple[str, Seen]) -> None:
    language, found = seen
    assert len(found.screens) > 100
    assert {line for lines in found.screens for line in lower_starts(lines, language)} == set()


DECISIONS = (Advisor(1), Advisor(0), Abstain(), Abstain(HouseMove(2, 3)), Houses(0), Houses(1), Houses(2), Build(True),
             Build(False), Move(HouseMove(2, 3)), Move(None))  # fmt: skip
DECIDED = {"de": re.compile(r"^Grün hat entschieden, .*\bzu |^Grün hat entschieden, .*\w+zu\w+en$"),
           "it": re.compile(r"^Verde ha deciso di \w+")}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_decision_is_told_as_a_sentence_with_its_subject(language: str) -> None:
    """ "Grün hat entschieden, kein Haus in San Marco zu setzen", never "Entscheidung von Grün: ..."; the undo
    question says it the same way."""
    set_language(language)
    try:
        name = _("Green")
        told = [_("{name}'s decision: {what}").format(name=name, what=decision_text(d, 4)) for d in DECISIONS]
        asked = [_("Undo {name}'s decision: {what}?").format(name=name, what=decision_text(d, 4)) for d in DECISIONS]
    finally:
        set_language("en")
    assert [text for text in told if not DECIDED[language].match(text)] == []
    assert [text for text in asked if ":" in text or name not in text] == []
    assert not [text for text in translations(language) if re.search(r"Entscheidung von \{\w+\}[^,.]*:", text)]


# What a line must name, or else reads as something else: markers, not votes; a house, not "none"; the move.
NAMES = {
    "de": {"{name}: {n} on {area}": "Marke", "{name}: {n} on the Quarantia": "Marke", "Place none": "Haus",
           "It goes neutral; you may move a house": "versetzen"},
    "it": {"{name}: {n} on {area}": "segnalin", "{name}: {n} on the Quarantia": "segnalin", "Place none": "casa",
           "It goes neutral; you may move a house": "spostare"},
}  # fmt: skip
EVERYONE = {"de": re.compile(r"^(?:Alle|Jeder): "), "it": re.compile(r"^(?:Tutti|Ognuno): ")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_line_names_what_it_is_about_and_who_acts(language: str) -> None:
    """A reveal's line names the markers (never read as votes), "Kein Haus setzen" the house, an instruction to
    everyone who acts ("Jeder nimmt seine Stimm-Marken zurück"); the reminder's cards page, its last, sends the table
    to no "next page" for year 1's order (it comes after the introduction)."""
    cards = "Lay out one voting-order deck face up in a row, in year 1's order as the next page shows."
    set_language(language)
    try:
        assert {english: _(english) for english, word in NAMES[language].items() if word not in _(english)} == {}
        assert _("next page") not in _(cards)
    finally:
        set_language("en")
    assert [text for text in translations(language) if EVERYONE[language].match(text)] == []
