"""Every relative link in README.md and docs/ leads to a file of the repository, and none sends readers to the
design documents outside it: the record format, the rules and the library notes are in docs/, where a reader of the
repository finds them."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)  # code blocks are not links
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:|#", target)]


def test_every_relative_link_resolves() -> None:
    broken = [
        f"{page.relative_to(ROOT)}: {target}"
        for page in PAGES
        for target in relative_links(page)
        if not (page.parent / target.split("#")[0]).exists()
    ]
    assert broken == []
    assert sum(len(relative_links(page)) for page in PAGES) > 10


def test_the_contracts_are_in_the_repository_and_cited_there() -> None:
    for name in ("record-format.md", "rules.md", "library-notes.md"):
        assert (ROOT / "docs" / name).is_file()
    outside = re.compile(r"\.\./shared|\bRECORD\.md|\bRULES\.md|STACK-NOTES")
    assert [str(page.relative_to(ROOT)) for page in PAGES if outside.search(page.read_text())] == []


def test_no_code_comment_test_or_help_text_cites_the_documents_outside() -> None:
    """Citations name docs/ files (rules.md 8.6, record-format.md 4, library-notes.md), the command line's help
    texts too (`replay --help` once sent readers to a RECORD.md that does not exist)."""
    outside = re.compile(r"\.\./shared|\bRECORD\.md|\bRULES\.md|STACK-NOTES")
    found = []
    for folder in ("companion", "display", "hardware", "tests", "benchmarks", "build_support"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if path != Path(__file__) and outside.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == [], "cite docs/rules.md, docs/record-format.md or docs/library-notes.md (by file name)"


def help_texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every text `--help` shows, the sub-commands' too."""
    texts = [parser.description or ""]
    for action in parser._actions:
        texts.append(action.help or "")
        if isinstance(action, argparse._SubParsersAction):
            texts += [choice.help or "" for choice in action._choices_actions]
            for sub in action.choices.values():
                texts += help_texts(sub)
    return texts


def test_every_file_the_help_texts_cite_exists_in_every_language() -> None:
    from companion.cli.parser import build_parser
    from companion.i18n import LANGUAGES, set_language

    for language in LANGUAGES:
        set_language(language)
        cited = [name for text in help_texts(build_parser()) for name in re.findall(r"[\w/.-]+\.md\b", text)]
        assert sorted(set(cited)) == [
            "docs/card-file.md",
            "docs/installing.md",
            "docs/record-format.md",
            "docs/rules.md",
            "docs/scripted-input.md",
        ], language
        assert all((ROOT / name).is_file() for name in cited)


def test_the_cited_rule_and_record_sections_exist() -> None:
    """`rules.md 8.6` and `record-format.md 4` in code and tests name sections those files have."""
    headings = {
        name: set(re.findall(r"^#+ (\d+(?:\.\d+)?)", (ROOT / "docs" / name).read_text(), flags=re.MULTILINE))
        | set(re.findall(r"^- (\d+\.\d+) ", (ROOT / "docs" / name).read_text(), flags=re.MULTILINE))
        for name in ("rules.md", "record-format.md")
    }
    cited = set()
    for path in [*ROOT.glob("companion/**/*.py"), *ROOT.glob("tests/**/*.py")]:
        for name, number in re.findall(r"\b(rules\.md|record-format\.md) (\d+(?:\.\d+)?)", path.read_text()):
            cited.add((name, number))
    missing = sorted((name, number) for name, number in cited if number not in headings[name])
    assert cited and missing == []


def test_every_file_the_pages_name_exists() -> None:
    """`companion/flow/game.py`, `display/render.py`...: a module moved or renamed (as the layout once was) must not
    leave README.md or docs/ sending readers to where it was."""
    folders = "companion|display|hardware|benchmarks|tests|build_support|systemd"
    named = re.compile(rf"(?<![\w/.~-])((?:{folders})/[\w/.-]*\w)")
    found = [(page, path) for page in PAGES for path in named.findall(page.read_text(encoding="utf-8"))]
    assert [f"{page.relative_to(ROOT)}: {path}" for page, path in found if not (ROOT / path).exists()] == []
    assert len({path for _page, path in found}) > 40
