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
            assert not name.startswith("companion.engine.") and name != "companion.flow.board_text", (source, name)


def test_the_engine_never_imports_flow_display_or_hardware() -> None:
    for source in (ROOT / "companion" / "engine").glob("*.py"):
        for name in imported(source):
            assert not name.startswith(("..flow", "display", "hardware", "companion.flow")), (source, name)


def assert_small(folder: Path, module_lines: int, class_lines: int) -> None:
    for source in folder.rglob("*.py"):
        text = source.read_text()
        assert len(text.splitlines()) <= module_lines, source
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None and node.end_lineno - node.lineno < class_lines, (source, node.name)


def test_flow_modules_and_classes_stay_small() -> None:
    assert_small(ROOT / "companion" / "flow", 400, 250)


def test_modes_are_found_by_their_file_names() -> None:
    modes = {p.stem for p in (ROOT / "companion" / "flow" / "modes").glob("*.py")}
    assert {"setup", "notices", "private_ballot", "keypad_ballot", "decision", "game_over"} <= modes
    assert {"help", "board_check", "undo_confirm"} <= modes


# The engine's private layout (issue 22): State's fields, and the modules that hold its rules and tasks.
ENGINE_INSIDES = (
    "companion.engine.tasks",
    "companion.engine.choices",
    "companion.engine.ballots",
    "companion.engine.elections",
    "companion.engine.building",
    "companion.engine.year_end",
)
OUTSIDE = ("companion", "hardware", "display", "benchmarks")


def _outside_sources() -> list[Path]:
    engine = ROOT / "companion" / "engine"
    return [
        source
        for folder in OUTSIDE
        for source in (ROOT / folder).rglob("*.py")
        if engine not in source.parents and "firmware" not in source.parts
    ]


def private_reads(source: Path) -> list[str]:
    """Every use of a State field (``state._board``...) or of an engine-internal module in ``source``."""
    from companion.engine.state import FIELDS

    found = []
    for node in ast.walk(ast.parse(source.read_text())):
        owner = node.value if isinstance(node, ast.Attribute) else None
        if (
            isinstance(node, ast.Attribute)
            and node.attr in FIELDS
            and not (isinstance(owner, ast.Name) and owner.id == "self")
        ):
            found.append(f"{source.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(ENGINE_INSIDES):
            found.append(f"{source.relative_to(ROOT)}:{node.lineno}: from {node.module}")
        elif isinstance(node, ast.ImportFrom) and node.module == "companion.engine.state":
            names = [alias.name for alias in node.names if alias.name != "State"]
            if names:
                found.append(f"{source.relative_to(ROOT)}:{node.lineno}: {names} from companion.engine.state")
    return found


def test_nothing_outside_the_engine_reads_its_private_layout() -> None:
    """RULES live in the engine once: everything else asks its typed queries (issue 22)."""
    found = [read for source in _outside_sources() for read in private_reads(source)]
    assert found == []


def test_the_private_layout_check_catches_a_read(tmp_path: Path) -> None:
    """Guard for the test above: a field read and an import of an engine-internal module are both found."""
    probe = ROOT / "companion" / "_probe_for_layering_test.py"
    probe.write_text(
        "from companion.engine.tasks import HousesTask\ndef f(state):\n    return state._board, state.house_supply(0)\n"
    )
    try:
        found = private_reads(probe)
    finally:
        probe.unlink()
    assert [line.split(": ", 1)[1] for line in found] == ["from companion.engine.tasks", "._board"]


def test_the_state_field_list_is_the_one_place_fields_are_named() -> None:
    """Adding a field means adding it to FIELDS; __init__, _copy_from and the annotations must then cover it."""
    from companion.engine.state import FIELDS

    tree = ast.parse((ROOT / "companion" / "engine" / "state.py").read_text())
    state = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "State")
    annotated = {n.target.id for n in state.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}

    def assigned(method: str) -> set[str]:
        function = next(n for n in state.body if isinstance(n, ast.FunctionDef) and n.name == method)
        return {
            target.attr
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
        }

    assert annotated == set(FIELDS)
    assert assigned("__init__") == set(FIELDS)
    assert assigned("_copy_from") == set(FIELDS)


def test_the_engine_modules_stay_small() -> None:
    assert_small(ROOT / "companion" / "engine", 650, 450)
