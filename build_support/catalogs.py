"""The translation catalogs, kept with Babel's own ``pybabel`` commands: extract, update, compile.

``companion/locale/<lang>.po`` are the sources translators edit (the merge of two branches' catalogs is a merge of
these files; see docs/translations.md). ``update`` re-extracts the texts from the code and merges them into every
catalog as ``pybabel update`` does: a text whose wording changed keeps its old translation marked fuzzy for the
translator, a new text is added empty, a text the code no longer has is dropped. ``compile`` writes the ``.mo`` files
that the standard ``gettext`` module loads (``companion/locale/<lang>/LC_MESSAGES/companion.mo``): setup.py into the
wheel at build time, dev.py into the checkout (where they are not committed).

    python build_support/catalogs.py update    # python3 dev.py catalogs
    python build_support/catalogs.py compile [TARGET_PACKAGE_DIR]
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = "companion"
LANGUAGES = ("de", "it")
# pybabel's options, written out so every run (and the merge recipe) makes the same file.
EXTRACT = ["--sort-output", "--no-wrap", "--project", "Doge Companion", "--copyright-holder", "Doge Companion"]
EXTRACT += ["--msgid-bugs-address", "https://github.com/doge-companion/doge-companion/issues"]
UPDATE = ["--no-wrap", "--ignore-obsolete", "--ignore-pot-creation-date"]


def pybabel(*args: str) -> None:
    """The ``pybabel`` command itself, run in this process (no dependence on PATH)."""
    from babel.messages.frontend import CommandLineInterface

    status = CommandLineInterface().run(["pybabel", "-q", *args])
    if status:
        raise SystemExit(f"pybabel {args[0]} failed ({status})")


def catalog(language: str, root: Path = ROOT) -> Path:
    return root / "companion" / "locale" / f"{language}.po"


def extract(template: Path, root: Path = ROOT) -> None:
    """Every text marked with _, N_ or ngettext in the code babel.cfg names, into the template TEMPLATE."""
    version = next(
        line.split('"')[1] for line in (root / "companion" / "__init__.py").read_text().splitlines()
        if line.startswith("__version__")
    )  # fmt: skip
    with contextlib.chdir(root):  # the #: lines name files relative to the checkout
        pybabel("extract", "-F", "babel.cfg", *EXTRACT, "--version", version, "-o", str(template), ".")


def update(root: Path = ROOT, languages: tuple[str, ...] = LANGUAGES) -> None:
    with tempfile.TemporaryDirectory() as work:
        template = Path(work) / f"{DOMAIN}.pot"
        extract(template, root)
        for language in languages:
            merge(template, catalog(language, root), language)


def merge(template: Path, po: Path, language: str) -> None:
    pybabel("update", "-i", str(template), "-l", language, "-o", str(po), *UPDATE)


def compile_catalogs(package: Path, root: Path = ROOT, languages: tuple[str, ...] = LANGUAGES) -> list[Path]:
    """The .mo files under PACKAGE (the companion package's directory: the checkout's or a build's copy)."""
    written = []
    for language in languages:
        mo = package / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        pybabel("compile", "-l", language, "-D", DOMAIN, "-i", str(catalog(language, root)), "-o", str(mo))
        written.append(mo)
    return written


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_catalogs(Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "companion")
    else:
        sys.exit(__doc__)
