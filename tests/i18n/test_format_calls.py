"""Every translated template is formatted with exactly its own placeholders (a mismatch is a KeyError at run time)."""

from __future__ import annotations

import ast
import string
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def source_files(root: Path) -> list[Path]:
    """The code pybabel extracts from (babel.cfg): the companion's, not the keypad firmware's."""
    return sorted(
        path
        for folder in ("companion", "display", "hardware")
        for path in (root / folder).rglob("*.py")
        if "firmware" not in path.parts
    )


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_format_calls_supply_exactly_the_placeholders() -> None:
    checked = 0
    for path in source_files(ROOT):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"):
                continue
            inner = node.func.value
            if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)):
                continue
            if inner.func.id not in ("_", "ngettext", "pgettext", "npgettext"):
                continue
            texts = inner.args[1:] if inner.func.id.startswith("p") else inner.args  # pgettext's context comes first
            templates = [a.value for a in texts if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            given = {keyword.arg for keyword in node.keywords}
            used = set().union(*(placeholders(t) for t in templates))
            assert used == given and all(placeholders(t) <= given for t in templates), (
                f"{path}:{node.lineno}: {templates!r} gets {sorted(k for k in given if k)}"
            )  # a singular form may leave out the count: together the forms use every argument
            checked += len(templates)
    assert checked > 100
