"""Every text people read goes through :func:`_` or :func:`ngettext` (what they hear, through :func:`pgettext` and
:func:`npgettext` with the context "spoken", and numbers through :func:`spoken_number`): English in the code, German
and Italian in
``companion/locale/<lang>.po``, kept with Babel (``python3 dev.py catalogs``, build_support/catalogs.py) and compiled
to ``.mo`` files at build time, which the standard library's ``gettext`` loads.

Texts defined at import time (tables of rule texts, condition names) are marked with :func:`N_` and translated where
they are shown, so switching the language at setup changes them too. The language is process-wide: one companion
talks to one table.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterable, Mapping
from functools import cache

LANGUAGES = ("en", "de", "it")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano"}
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
DOMAIN = "companion"

_current = gettext.NullTranslations()
_language = "en"


def _(text: str) -> str:
    return _current.gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _current.ngettext(singular, plural, count)


def pgettext(context: str, text: str) -> str:
    """A text whose translation depends on where it is used: "spoken" marks the form the voice says (written for
    the ear: numbers as words, no brackets or symbols), beside the screen's own text (docs/translations.md)."""
    return _current.pgettext(context, text)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    return _current.npgettext(context, singular, plural, count)


def spoken_number(n: int) -> str:
    """A number as the voice says it: words from zero to a hundred in the table's language ("one" in its counting
    form: where it must agree with a noun, the spoken text is an npgettext of its own; "twenty-one",
    "einundzwanzig", "ventuno"), digits beyond, where no game's number reaches."""
    words = (
        pgettext("number", "zero"),
        pgettext("number", "one"),
        pgettext("number", "two"),
        pgettext("number", "three"),
        pgettext("number", "four"),
        pgettext("number", "five"),
        pgettext("number", "six"),
        pgettext("number", "seven"),
        pgettext("number", "eight"),
        pgettext("number", "nine"),
        pgettext("number", "ten"),
        pgettext("number", "eleven"),
        pgettext("number", "twelve"),
        pgettext("number", "thirteen"),
        pgettext("number", "fourteen"),
        pgettext("number", "fifteen"),
        pgettext("number", "sixteen"),
        pgettext("number", "seventeen"),
        pgettext("number", "eighteen"),
        pgettext("number", "nineteen"),
        pgettext("number", "twenty"),
    )
    if 0 <= n < len(words):
        return words[n]
    tens = {
        30: pgettext("number", "thirty"),
        40: pgettext("number", "forty"),
        50: pgettext("number", "fifty"),
        60: pgettext("number", "sixty"),
        70: pgettext("number", "seventy"),
        80: pgettext("number", "eighty"),
        90: pgettext("number", "ninety"),
        100: pgettext("number", "a hundred"),
    }
    if n in tens or not 20 < n < 100:
        return tens.get(n, str(n))
    ten = words[20] if n < 30 else tens[n // 10 * 10]
    one = pgettext("number in a compound", "one") if n % 10 == 1 else words[n % 10]
    if _language == "it":  # ventuno, trentotto, ventitré
        ten = ten[:-1] if n % 10 in (1, 8) else ten
        one = "tré" if n % 10 == 3 else one
    return pgettext("number", "{tens}-{ones}").format(tens=ten, ones=one)


def N_(text: str) -> str:
    """Marks a text for translation where it is defined; :func:`_` translates it where it is used."""
    return text


def and_list(items: Iterable[str]) -> str:
    """ "Red", "Red and Blue", "Red, Blue and Green" in the table's language (no serial comma in any of them)."""
    names = list(items)
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def language() -> str:
    return _language


def set_language(code: str) -> None:
    global _current, _language
    _language = code if code in LANGUAGES else "en"
    _current = translations(_language)


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), if we speak it."""
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in environ.get(variable, "").split(":"):
            code = value[:2].lower()
            if code in LANGUAGES:
                return code
    return "en"


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The catalogue for ``code``, loaded once (the null one for English and any language we do not speak)."""
    if code not in LANGUAGES or code == "en":
        return gettext.NullTranslations()
    try:  # a wheel has its .mo files from the build, a checkout from dev.py
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
    except FileNotFoundError:
        raise RuntimeError(f"the {code} texts are not compiled: in a checkout, run python3 dev.py catalogs") from None


SHOWN = 120  # how much of a value a one-line message repeats: the line stays near 200 characters


def shown(text: str, limit: int = SHOWN) -> str:
    """TEXT as a one-line message quotes it (a record's area, a config's key): a control character (an ESC, a
    newline) escaped, so the terminal or the journal shows it rather than obeys it and the message stays one line,
    and at most about LIMIT characters of it, however long the text (a 10 MB area name makes a short line)."""
    pieces: list[str] = []
    size = 0
    for char in text:
        piece = char if char.isprintable() else repr(char)[1:-1]
        if size + len(piece) > limit:
            return _("{start}... ({count} characters)").format(start="".join(pieces), count=len(text))
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces)
