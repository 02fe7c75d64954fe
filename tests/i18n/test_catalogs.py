"""Every text has its German and Italian translation, with the same placeholders; plural forms work."""

from __future__ import annotations

import gettext
import string
from pathlib import Path

import pytest

from companion.i18n import LOCALE_DIR, compile_mo, extract, parse_po, set_language, source_files, translations

ROOT = Path(__file__).resolve().parents[2]
TEXTS = extract(source_files(ROOT))


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


@pytest.mark.parametrize("language", ["de", "it"])
def test_every_text_is_translated_with_its_placeholders(language: str) -> None:
    catalog = parse_po((Path(LOCALE_DIR) / f"{language}.po").read_text(encoding="utf-8"))
    assert len(TEXTS) > 250
    missing = [key for key in TEXTS if not all(catalog.get(key, [""]))]
    assert missing == [], f"untranslated in {language}.po"
    for (msgid, plural), forms in catalog.items():
        if not msgid:
            continue
        wanted = placeholders(msgid) | (placeholders(plural) if plural else set())
        for form in forms:
            assert placeholders(form) <= wanted, (language, msgid, form)
        assert set().union(*(placeholders(f) for f in forms)) == wanted, (language, msgid, forms)


@pytest.mark.parametrize("language", ["de", "it"])
def test_no_stale_entries(language: str) -> None:
    catalog = parse_po((Path(LOCALE_DIR) / f"{language}.po").read_text(encoding="utf-8"))
    stale = [key for key in catalog if key[0] and key not in TEXTS]
    assert stale == [], "texts no longer in the code: regenerate the catalog"


def test_plural_forms() -> None:
    german, italian = translations("de"), translations("it")
    assert german.ngettext("{n} palace", "{n} palaces", 1).format(n=1) == "1 Palazzo"
    assert german.ngettext("{n} palace", "{n} palaces", 5).format(n=5) == "5 Palazzi"
    assert italian.ngettext("{name}: {n} vote", "{name}: {n} votes", 0).format(name="Blu", n=0) == "Blu: 0 voti"
    assert italian.gettext("New game") == "Nuova partita" and german.gettext("New game") == "Neues Spiel"


def test_the_compiled_catalog_is_what_gettext_reads() -> None:
    catalog = {
        ("", None): ["Plural-Forms: nplurals=2; plural=(n != 1);\n"],
        ("a", None): ["b"],
        ("x", "xs"): ["y", "ys"],
    }
    import io

    loaded = gettext.GNUTranslations(io.BytesIO(compile_mo(catalog)))
    assert loaded.gettext("a") == "b" and loaded.ngettext("x", "xs", 2) == "ys" and loaded.gettext("zz") == "zz"


def test_set_language_switches_and_falls_back_to_english() -> None:
    from companion.i18n import _

    set_language("it")
    assert _("Game over") == "Fine partita"
    set_language("fr")
    assert _("Game over") == "Game over"
