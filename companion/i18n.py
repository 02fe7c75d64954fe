"""Every text people read goes through :func:`_` or :func:`ngettext`: English in the code, German and Italian in
``companion/locale/<lang>.po`` (standard library ``gettext``; the .po sources are compiled in memory at start).

Texts defined at import time (tables of rule texts, condition names) are marked with :func:`N_` and translated where
they are shown, so switching the language at setup changes them too. The language is process-wide: one companion
talks to one table.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib, ast, io and struct load only where used: `replay` imports this module at start (issue 26)
    from pathlib import Path

LANGUAGES = ("en", "de", "it")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano"}
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def _(text: str) -> str:
    return _current.gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _current.ngettext(singular, plural, count)


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
    _current = translations(code)
    _language = code if code in LANGUAGES else "en"


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
    if code not in LANGUAGES or code == "en":
        return gettext.NullTranslations()
    import io

    with open(os.path.join(LOCALE_DIR, f"{code}.po"), encoding="utf-8") as source:
        catalog = parse_po(source.read())
    return gettext.GNUTranslations(io.BytesIO(compile_mo(catalog)))


# ---------------------------------------------------------------------------------------------- .po -> .mo


def _unquote(text: str) -> str:
    import ast

    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def parse_po(source: str) -> dict[tuple[str, str | None], list[str]]:
    """{(msgid, msgid_plural): [msgstr, msgstr[1], ...]}, the header included (msgid "")."""
    entries: dict[tuple[str, str | None], list[str]] = {}
    msgid: str | None = None
    plural: str | None = None
    strings: dict[int, str] = {}
    field: tuple[str, int] | None = None

    def finish() -> None:
        if msgid is not None:
            entries[(msgid, plural)] = [strings.get(i, "") for i in range(max(strings, default=0) + 1)]

    for raw in [*source.splitlines(), ""]:
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and msgid is not None and strings:
                finish()
                msgid, plural, strings, field = None, None, {}, None
            continue
        if line.startswith("msgid_plural "):
            plural, field = _unquote(line[13:]), ("plural", 0)
        elif line.startswith("msgid "):
            if msgid is not None and strings:
                finish()
                plural, strings = None, {}
            msgid, field = _unquote(line[6:]), ("msgid", 0)
        elif line.startswith("msgstr["):
            index = int(line[7 : line.index("]")])
            strings[index] = _unquote(line[line.index("]") + 2 :])
            field = ("msgstr", index)
        elif line.startswith("msgstr "):
            strings[0] = _unquote(line[7:])
            field = ("msgstr", 0)
        elif line.startswith('"') and field is not None:
            more = _unquote(line)
            if field[0] == "msgid":
                msgid = (msgid or "") + more
            elif field[0] == "plural":
                plural = (plural or "") + more
            else:
                strings[field[1]] = strings.get(field[1], "") + more
    finish()
    return entries


def compile_mo(catalog: Mapping[tuple[str, str | None], list[str]]) -> bytes:
    """GNU .mo bytes (what msgfmt writes); untranslated entries are left out, so they fall back to English."""
    pairs = []
    for (msgid, plural), strings in catalog.items():
        if not all(strings) and msgid:
            continue
        original = msgid if plural is None else f"{msgid}\0{plural}"
        pairs.append((original.encode(), "\0".join(strings).encode()))
    pairs.sort()
    count = len(pairs)
    ids = strs = b""
    offsets = []
    for encoded, value in pairs:
        offsets.append((len(ids), len(encoded), len(strs), len(value)))
        ids += encoded + b"\0"
        strs += value + b"\0"
    start = 7 * 4 + count * 16
    key_table = []
    value_table = []
    for id_offset, id_length, str_offset, str_length in offsets:
        key_table += [id_length, start + id_offset]
        value_table += [str_length, start + len(ids) + str_offset]
    import struct

    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    return (
        header
        + struct.pack(f"{len(key_table)}i", *key_table)
        + struct.pack(f"{len(value_table)}i", *value_table)
        + ids
        + strs
    )


# ---------------------------------------------------------------------------------------------- extraction


def extract(paths: Iterable[Path]) -> dict[tuple[str, str | None], list[str]]:
    """Every text marked for translation in the sources: {(msgid, msgid_plural): [where, ...]}."""
    import ast

    found: dict[tuple[str, str | None], list[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            args = node.args
            constant = [isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args]
            where = f"{path.as_posix()}:{node.lineno}"
            if node.func.id in ("_", "N_") and args and constant[0]:
                found.setdefault((args[0].value, None), []).append(where)  # type: ignore[attr-defined]
            elif node.func.id == "ngettext" and len(args) >= 2 and constant[0] and constant[1]:
                key = (args[0].value, args[1].value)  # type: ignore[attr-defined]
                found.setdefault(key, []).append(where)
    return found


def source_files(root: Path) -> list[Path]:
    return sorted(
        path
        for folder in ("companion", "display", "hardware")
        for path in (root / folder).rglob("*.py")
        if "firmware" not in path.parts
    )


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def update_catalog(code: str, root: Path) -> tuple[int, int]:
    """Bring ``locale/<code>.po`` in line with the code: keep every translation, add new texts (untranslated), drop
    texts the code no longer has. Returns (texts, untranslated). ``python3 dev.py catalogs`` runs it."""
    from pathlib import Path

    path = Path(LOCALE_DIR) / f"{code}.po"
    old = parse_po(path.read_text(encoding="utf-8")) if path.exists() else {}
    header = old.get(("", None), [f"Content-Type: text/plain; charset=UTF-8\nLanguage: {code}\n"])[0]
    names = {"de": "German", "it": "Italian"}
    out = [
        f"# {names.get(code, code)} texts of Doge Companion. Edit the msgstr lines; keep every {{placeholder}} of "
        "the msgid.",
        'msgid ""',
        'msgstr ""',
        *(_quote(line) for line in header.splitlines(keepends=True)),
        "",
    ]
    found = extract(source_files(root))
    untranslated = 0
    for key in sorted(found):
        msgid, plural = key
        forms = old.get(key, [""] if plural is None else ["", ""])
        untranslated += not all(forms)
        out.append("#: " + " ".join(place.replace(f"{root.as_posix()}/", "") for place in found[key][:3]))
        out.append(f"msgid {_quote(msgid)}")
        if plural is None:
            out.append(f"msgstr {_quote(forms[0])}")
        else:
            out.append(f"msgid_plural {_quote(plural)}")
            out += [f"msgstr[{i}] {_quote(form)}" for i, form in enumerate(forms)]
        out.append("")
    path.write_text("\n".join(out), encoding="utf-8")
    return len(found), untranslated
