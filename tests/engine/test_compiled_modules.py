"""No module mypyc compiles defines a NamedTuple. mypyc builds a class-based NamedTuple with typing's own
machinery (``typing.NamedTupleMeta``), which put ``typing`` into every start of the Pi's compiled install and built
each class at 0.34 ms: the compiled replay's imports went 28 -> 20 ms once they moved (docs/engine.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compiled_modules() -> list[Path]:
    sys.path.insert(0, str(ROOT / "build_support"))
    try:
        from backend import COMPILED  # the modules install.sh's wheel compiles
    finally:
        sys.path.remove(str(ROOT / "build_support"))
    return [ROOT / name for name in COMPILED]


def test_no_compiled_module_defines_a_namedtuple() -> None:
    modules = compiled_modules()
    assert len(modules) >= 8 and all(path.exists() for path in modules), modules
    found = [
        f"{path.relative_to(ROOT)}: {node.name}"
        for path in modules
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef)
        and any(
            (base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")) == "NamedTuple"
            for base in node.bases
        )
    ]
    assert found == [], f"define these in a module that is not compiled (tasks.py, lines.py...): {found}"
