"""The catalogs: every text translated with its placeholders, kept with Babel (a changed text keeps its old
translation as fuzzy), clean for GNU msgfmt, and compiled to the .mo files the standard gettext module loads."""

from __future__ import annotations

import gettext
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from companion.i18n import DOMAIN, LOCALE_DIR, set_language, translations
from tests.system_tools import need_tool

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build_support"))
import catalogs  # noqa: E402 - build_support is not a package


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def load(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """What `pybabel extract` finds in the code now."""
    pot = tmp_path_factory.mktemp("pot") / "companion.pot"
    catalogs.extract(pot)
    return load(pot)


def key(message: object) -> object:
    return getattr(message, "id")  # noqa: B009 - babel's Message.id: a str, or (singular, plural) for plurals


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_every_text_is_translated_with_its_placeholders(language: str, template: Catalog) -> None:
    catalog = load(catalogs.catalog(language))
    texts = [message for message in template if message.id]
    assert len(texts) > 250
    entries = {key(message): message for message in catalog if message.id}
    missing = [key(m) for m in texts if key(m) not in entries]
    assert missing == [], f"not in {language}.po: python3 dev.py catalogs, then translate"
    untranslated = [key(m) for m in entries.values() if m.fuzzy or not all(m.string if m.pluralizable else [m.string])]
    assert untranslated == [], f"untranslated or fuzzy in {language}.po"
    for message in entries.values():
        ids = list(message.id) if message.pluralizable else [message.id]
        forms = list(message.string) if message.pluralizable else [message.string]
        wanted = set().union(*(placeholders(i) for i in ids))
        for form in forms:
            assert placeholders(form) <= wanted, (language, message.id, form)
        assert set().union(*(placeholders(f) for f in forms)) == wanted, (language, message.id, forms)


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_no_stale_entries(language: str, template: Catalog) -> None:
    wanted = {key(message) for message in template}
    stale = [key(message) for message in load(catalogs.catalog(language)) if key(message) not in wanted]
    assert stale == [], "texts no longer in the code: python3 dev.py catalogs"


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_every_catalog_passes_msgfmt_check(language: str, tmp_path: Path) -> None:
    """GNU gettext's own checker: headers, plural forms, and python-brace-format placeholders, no warning at all."""
    msgfmt = need_tool("msgfmt")
    result = subprocess.run(
        [msgfmt, "--check", "-o", str(tmp_path / "out.mo"), str(catalogs.catalog(language))],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_a_changed_text_keeps_its_old_translation_as_fuzzy(tmp_path: Path) -> None:
    """`python3 dev.py catalogs` after rewording a text: the translator finds the old translation marked fuzzy
    (and English is shown until they confirm it: fuzzy entries are not compiled)."""
    root = tmp_path / "root"
    (root / "companion" / "locale").mkdir(parents=True)
    shutil.copy(ROOT / "babel.cfg", root)
    (root / "companion" / "__init__.py").write_text('__version__ = "9.9"\n')
    code = root / "companion" / "texts.py"
    code.write_text('from companion.i18n import _\n\nA = _("The Doge is elected")\nB = _("New game")\n')
    po = catalogs.catalog("de", root)
    shutil.copy(catalogs.catalog("de"), po)
    catalogs.update(root, ("de",))
    before = load(po)
    new = before.get("The Doge is elected")  # a new text: untranslated, or at most a fuzzy guess from a similar one
    assert (new.string == "" or new.fuzzy) and before.get("New game").string == "Neues Spiel"
    assert len([m for m in before if m.id]) == 2, "texts the code no longer has are dropped"
    new.string, new.flags = "Der Doge ist gewählt", new.flags - {"fuzzy"}  # the translator confirms it
    with po.open("wb") as out:
        write_po(out, before, width=0)
    code.write_text('from companion.i18n import _\n\nA = _("The Doge has been elected")\nB = _("New game")\n')
    catalogs.update(root, ("de",))
    after = load(po)
    changed = after.get("The Doge has been elected")
    assert changed.string == "Der Doge ist gewählt" and changed.fuzzy
    assert after.get("The Doge is elected") is None and not after.get("New game").fuzzy
    compiled = catalogs.compile_catalogs(root / "companion", root, ("de",))[0]
    with compiled.open("rb") as mo:
        loaded = gettext.GNUTranslations(mo)
    assert loaded.gettext("The Doge has been elected") == "The Doge has been elected", "fuzzy: not used yet"
    assert loaded.gettext("New game") == "Neues Spiel"


def test_the_loaded_texts_are_the_compiled_mo_files() -> None:
    german = translations("de")
    assert isinstance(german, gettext.GNUTranslations)
    assert (Path(LOCALE_DIR) / "de" / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
    assert german.gettext("New game") == "Neues Spiel"


def test_plural_forms() -> None:
    german, italian = translations("de"), translations("it")
    assert german.ngettext("{n} palace", "{n} palaces", 1).format(n=1) == "1 Palazzo"
    assert german.ngettext("{n} palace", "{n} palaces", 5).format(n=5) == "5 Palazzi"
    assert italian.ngettext("{name}: {n} vote", "{name}: {n} votes", 0).format(name="Blu", n=0) == "Blu: 0 voti"
    assert italian.gettext("New game") == "Nuova partita" and german.gettext("New game") == "Neues Spiel"


def test_set_language_switches_and_falls_back_to_english() -> None:
    from companion.i18n import _

    set_language("it")
    assert _("Game over") == "Fine partita"
    set_language("fr")
    assert _("Game over") == "Game over"
