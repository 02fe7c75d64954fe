"""Imports only run downwards, and every module stays a size a newcomer can read (docs/architecture.md "The layers").

The layers, lowest first, and what each may import of ours besides itself (docs/architecture.md draws them):
the catalogs; the rules engine; hardware/ (its events name the engine's areas); display/ (the simulator feeds
hardware events); the computer players, the store and the system glue; the game flow; the web pads; the App;
the command line. Nothing imports upwards.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BASE = {"companion", "companion.i18n"}  # the version and the catalogs: anyone may import them
MAY_IMPORT: dict[str, set[str]] = {
    "companion.i18n": set(),
    "companion.engine": set(),
    "hardware": {"companion.engine"},
    "display": {"companion.engine", "hardware"},
    "companion.bots": {"companion.engine"},
    "companion.store": {"companion.engine"},
    "companion.system": {"display"},
    "companion.flow": {"companion.engine", "companion.bots", "display", "hardware"},
    "companion.web": {"companion.engine", "companion.flow", "display", "hardware"},
    "companion.app": {
        "companion.engine", "companion.bots", "companion.store", "companion.system", "companion.flow",
        "companion.web", "display", "hardware",
    },
    "companion.cli": {
        "companion.engine", "companion.bots", "companion.store", "companion.system", "companion.flow",
        "companion.web", "companion.app", "display", "hardware",
    },
    "companion.__main__": {"companion.cli"},  # python -m companion
}  # fmt: skip


def module_name(source: Path, root: Path = ROOT) -> str:
    """The module a file is, in the tree at ``root`` (the checkout, or a guard test's copy of its shape)."""
    parts = list(source.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: Path, root: Path = ROOT) -> list[str]:
    """Every module ``source`` imports, as an absolute name (relative imports resolved)."""
    me = module_name(source, root)
    package = me if source.name == "__init__.py" else me.rpartition(".")[0]
    names = []
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.append(node.module or "")
    return names


def layer_of(module: str) -> str | None:
    """The layer a module of ours belongs to (None: not ours, or the top-level package itself)."""
    parts = module.split(".")
    if parts[0] in ("display", "hardware"):
        return parts[0]
    if parts[0] != "companion" or len(parts) == 1:
        return None
    return f"companion.{parts[1]}"


def upward_imports(sources: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for source in sources:
        mine = layer_of(module_name(source, root))
        if mine is None:
            continue
        for name in imported(source, root):
            theirs = layer_of(name)
            if theirs is None or theirs == mine or theirs in BASE or name in BASE:
                continue
            if theirs not in MAY_IMPORT[mine]:
                found.append(f"{source.relative_to(root)}: {mine} imports {name}")
    return found


def our_sources() -> list[Path]:
    return [
        source
        for folder in ("companion", "display", "hardware")
        for source in (ROOT / folder).rglob("*.py")
        if "firmware" not in source.parts
    ]


def test_every_layer_imports_only_what_lies_below_it() -> None:
    assert {layer_of(module_name(source)) for source in our_sources()} - {None} == set(MAY_IMPORT)
    assert upward_imports(our_sources()) == []


def test_the_layer_check_catches_an_upward_import(tmp_path: Path) -> None:
    """Guard for the test above: the engine importing the flow, and the store importing the App, are both found (in
    probes laid out like the source tree, outside it)."""
    probes = {
        tmp_path / "companion" / "engine" / "probe.py": "from ..flow import controller\n",
        tmp_path / "companion" / "store" / "probe.py": "import companion.app\nfrom ..engine import State\n",
    }
    for path, text in probes.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    found = upward_imports(list(probes), tmp_path)
    assert [line.split(": ", 1)[1] for line in found] == [
        "companion.engine imports companion.flow",
        "companion.store imports companion.app",
    ]


def flow_imports(sources: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Which of the flow's modules each of them imports, at run time or for types alone (an import under
    ``TYPE_CHECKING`` or inside a function counts the same: a reader follows it all the same). ``from . import x``
    and ``from .pkg import x`` name the module ``x`` where it is one."""
    modules = {module_name(source, root) for source in sources}
    graph: dict[str, set[str]] = {}
    for source in sources:
        me = module_name(source, root)
        package = me if source.name == "__init__.py" else me.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    name = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    name = node.module or ""
                found.add(name)
                found |= {f"{name}.{alias.name}" for alias in node.names}
        graph[me] = {name for name in found if name in modules and name != me}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other round a circle (the strongly connected components of more
    than one module, Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_circle_of_imports_inside_the_flow_types_included() -> None:
    """A newcomer reads the flow from the bottom up: no module needs one that needs it back, not even for a type
    (the shapes the flow's parts share are in context.py, which needs none of them)."""
    assert circles(flow_imports(list((ROOT / "companion" / "flow").rglob("*.py")))) == []


def test_the_circle_check_sees_imports_for_types_alone(tmp_path: Path) -> None:
    """Guard for the test above: a circle closed by a ``TYPE_CHECKING`` import, and one through ``from . import``,
    are both found (in probes laid out like the flow, outside it); a one-way import is not a circle."""
    flow = tmp_path / "companion" / "flow"
    probes = {
        flow / "__init__.py": "",
        flow / "hub.py": "from .spoke import helper\n",
        flow / "spoke.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .hub import Hub\n",
        flow / "left.py": "from . import right\n",
        flow / "right.py": "def later() -> None:\n    from . import left\n",
        flow / "leaf.py": "from .hub import Hub\n",
    }
    for path, text in probes.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    found = circles(flow_imports(list(probes), tmp_path))
    assert found == [
        ["companion.flow.hub", "companion.flow.spoke"],
        ["companion.flow.left", "companion.flow.right"],
    ]


def test_display_uses_only_the_engines_public_names() -> None:
    for source in (ROOT / "display").glob("*.py"):
        for name in imported(source):
            assert not name.startswith("companion.engine."), (source, name)


def assert_small(folder: Path, module_lines: int, class_lines: int) -> None:
    for source in folder.rglob("*.py"):
        text = source.read_text()
        assert len(text.splitlines()) <= module_lines, source
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None and node.end_lineno - node.lineno < class_lines, (source, node.name)


# The one module allowed past 400 lines: the State is the engine's one public face (its data, its typed queries and
# its two ways in, apply and shuffle), each rule it answers with living in a module of its own (docs/engine.md).
LONGER = {"companion/engine/state.py": 500}


def test_no_module_of_the_companion_is_over_400_lines() -> None:
    longest = {
        str(source.relative_to(ROOT)): len(source.read_text().splitlines())
        for source in (ROOT / "companion").rglob("*.py")
    }
    assert {name: lines for name, lines in longest.items() if lines > LONGER.get(name, 400)} == {}


def test_flow_modules_and_classes_stay_small() -> None:
    assert_small(ROOT / "companion" / "flow", 400, 250)


def test_modes_are_found_by_their_file_names() -> None:
    modes = {p.stem for p in (ROOT / "companion" / "flow" / "modes").glob("*.py")}
    assert {"setup", "notices", "private_ballot", "keypad_ballot", "decision", "game_over"} <= modes
    assert {"help", "board_check", "undo_confirm"} <= modes


# The engine's private layout (docs/engine.md "What to rely on"): State's fields, and the modules that hold its rules
# and tasks.
ENGINE_INSIDES = (
    "companion.engine.tasks",
    "companion.engine.choices",
    "companion.engine.ballots",
    "companion.engine.elections",
    "companion.engine.building",
    "companion.engine.year_end",
    "companion.engine.awaiting",
    "companion.engine.chance",
    "companion.engine.parse",
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


def private_reads(source: Path, root: Path = ROOT) -> list[str]:
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
            found.append(f"{source.relative_to(root)}:{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(ENGINE_INSIDES):
            found.append(f"{source.relative_to(root)}:{node.lineno}: from {node.module}")
        elif isinstance(node, ast.ImportFrom) and node.module == "companion.engine.state":
            names = [alias.name for alias in node.names if alias.name != "State"]
            if names:
                found.append(f"{source.relative_to(root)}:{node.lineno}: {names} from companion.engine.state")
    return found


def test_nothing_outside_the_engine_reads_its_private_layout() -> None:
    """RULES live in the engine once: everything else asks its typed queries (docs/engine.md "Queries")."""
    found = [read for source in _outside_sources() for read in private_reads(source)]
    assert found == []


def test_the_private_layout_check_catches_a_read(tmp_path: Path) -> None:
    """Guard for the test above: a field read and an import of an engine-internal module are both found."""
    probe = tmp_path / "companion" / "probe.py"
    probe.parent.mkdir()
    probe.write_text(
        "from companion.engine.tasks import HousesTask\ndef f(state):\n    return state._board, state.house_supply(0)\n"
    )
    found = private_reads(probe, tmp_path)
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
