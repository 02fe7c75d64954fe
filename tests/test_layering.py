"""Imports only run downwards, and the game flow stays in parts a newcomer can read (issue 16).

display/ draws what it is given: it never imports the game flow, the App or the engine's modules (the engine's
public names are fine). companion/flow/ keeps modules under 400 lines and classes under 250.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported(source: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


def test_display_never_imports_the_game_flow_or_the_engines_insides() -> None:
    for source in (ROOT / "display").glob("*.py"):
        for name in imported(source):
            assert not name.startswith(("companion.flow", "companion.app", "companion.store", "..")), (source, name)
            assert not name.startswith("companion.engine.") and name != "companion.board_text", (source, name)


def test_the_engine_never_imports_flow_display_or_hardware() -> None:
    for source in (ROOT / "companion" / "engine").glob("*.py"):
        for name in imported(source):
            assert not name.startswith(("..flow", "display", "hardware", "companion.flow")), (source, name)


def test_flow_modules_and_classes_stay_small() -> None:
    for source in (ROOT / "companion" / "flow").rglob("*.py"):
        text = source.read_text()
        assert len(text.splitlines()) <= 400, source
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None and node.end_lineno - node.lineno < 250, (source, node.name)


def test_modes_are_found_by_their_file_names() -> None:
    modes = {p.stem for p in (ROOT / "companion" / "flow" / "modes").glob("*.py")}
    assert {"setup", "notices", "private_ballot", "keypad_ballot", "decision", "game_over"} <= modes
    assert {"help", "board_check", "undo_confirm"} <= modes
