"""The engine's promises about itself: pure standard library, and a test for every numbered rule."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"
TESTS = Path(__file__).resolve().parents[1]
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_the_engine_imports_only_the_standard_library() -> None:
    # The engine's messages go through companion/i18n.py (gettext), which must be standard library too.
    for source in [*ENGINE.glob("*.py"), ENGINE.parent / "i18n.py"]:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in sys.stdlib_module_names, f"{source.name} imports {name}"


def test_the_engine_has_no_clock_randomness_or_io() -> None:
    banned = re.compile(r"\b(random|time|datetime|os|io|socket|threading|open|print|input)\b\s*[.(]")
    for source in ENGINE.glob("*.py"):
        code = "\n".join(line.split("#")[0] for line in source.read_text().splitlines())
        code = re.sub(r'"""[\s\S]*?"""', "", code)
        assert not banned.search(code), f"{source.name}: {banned.search(code)}"


def _rule_numbers(text: str) -> list[str]:
    numbers = re.findall(r"^[ ]*(?:- |### )(\d+\.\d+(?:\.\d+)?)\b", text, flags=re.MULTILINE)
    return sorted(set(numbers), key=lambda n: [int(part) for part in n.split(".")])


def test_every_numbered_rule_has_a_test_named_after_it() -> None:
    numbers = _rule_numbers(RULES.read_text())
    assert len(numbers) > 40, "the rule list was not found in rules.md"
    names = set(re.findall(r"def (test_\w+)", "\n".join(p.read_text() for p in TESTS.rglob("test_*.py"))))
    missing = [n for n in numbers if not any(name.startswith(f"test_{n.replace('.', '_')}_") for name in names)]
    assert missing == []
