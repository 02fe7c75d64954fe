"""Today's engine against a baseline commit's, side by side in one run (the README's budget: at least 2x the baseline).

``python3 dev.py bench compare`` (the baseline is :data:`BASELINE`, main before the engine's Pi speed work) extracts the
baseline's ``companion/engine`` and ``companion/i18n.py`` with ``git archive`` into a temporary package named
``companion_base``, then measures both engines with the same code, interleaved, several times:

- random games/s: the same seeded random games (uniform among the legal choices), 3 and 4 players; both engines
  offer the same choices in the same order, so they play the very same games;
- replayed lines/s: the same record texts (with and without "t" stamps) fed through each engine's ``Replay``.

A third engine, "compiled", is this checkout's engine compiled by mypyc the way install.sh builds it for the Pi
(build_support/backend.py), as the package ``companion_native``; it needs a C compiler and is left out, with a line
saying why, where it cannot be built. Each figure is the median of the rounds' rates; the ratios are over old. Needs
git and the baseline commit.
"""

from __future__ import annotations

import importlib
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from io import BytesIO
from pathlib import Path
from types import ModuleType
from typing import Any

from . import figures
from .engine import play_random

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "5b6da723de897388237a9c1b4bf05cb59aab5acf"  # main before the Pi speed work (and before board changes)
PLAYERS = {3: ("red", "blue", "green"), 4: ("red", "blue", "green", "yellow")}
ROUNDS = 5


def load_baseline(rev: str, into: Path) -> tuple[ModuleType, ModuleType]:
    """The baseline's engine as the package ``companion_base`` (its relative imports then stay inside it)."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "companion/engine", "companion/i18n.py", "companion/__init__.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "companion").rename(into / "companion_base")
    sys.path.insert(0, str(into))
    return importlib.import_module("companion_base.engine"), importlib.import_module(
        "companion_base.engine.determinize"
    )


def load_compiled(into: Path) -> tuple[ModuleType, ModuleType] | None:
    """This checkout's engine compiled by mypyc (the modules setup.py compiles), as the package ``companion_native``."""
    package = into / "companion_native"
    shutil.copytree(
        ROOT / "companion" / "engine", package / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    for name in ("__init__.py", "i18n.py"):
        shutil.copy(ROOT / "companion" / name, package / name)
    sys.path.insert(0, str(ROOT / "build_support"))
    from backend import COMPILED_ENGINE  # the modules install.sh's wheel compiles

    modules = [f"companion_native/engine/{name}.py" for name in COMPILED_ENGINE]
    built = subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=into, capture_output=True, text=True)
    if built.returncode:
        print(f"compiled engine left out: mypyc failed ({(built.stderr or built.stdout).strip().splitlines()[-1:]})")
        return None
    sys.path.insert(0, str(into))
    return importlib.import_module("companion_native.engine"), importlib.import_module(
        "companion_native.engine.determinize"
    )


def records(engine: ModuleType, draw: Callable[[random.Random], Any], stamped: bool, games: int) -> list[list[str]]:
    rng = random.Random(7)
    stamp = "2026-11-22T20:15:03.250Z" if stamped else None
    found = []
    for index in range(games):
        players = PLAYERS[3 + index % 2]
        state = engine.State(players)
        lines = [engine.dump_header(players)]
        while not state.is_over:
            if state.chance_awaited():
                order = draw(rng)
                state.shuffle(order)
                lines.append(engine.dump_line(engine.ShuffleLine(order, stamp)))
            else:
                player = rng.choice(state.awaiting()).player
                decision = rng.choice(state.legal(player))
                state.apply(player, decision)
                lines.append(engine.dump_line(engine.DecisionLine(players[player], decision, stamp)))
        found.append(lines)
    return found


def replay_all(engine: ModuleType, texts: list[list[str]]) -> None:
    for record in texts:
        feed = engine.Replay().feed
        for text in record:
            feed(text)


def measure(work: Callable[[], object], amount: int) -> float:
    start = time.perf_counter()
    work()
    return amount / (time.perf_counter() - start)


def main(rev: str = BASELINE, smoke: bool = False) -> None:
    """``smoke``: two games and two records a figure, one round, without building the compiled engine (mypyc takes
    minutes; tests/test_compiled_engine.py builds it): the test suite's run."""
    rounds = 1 if smoke else ROUNDS
    from companion import engine as new
    from companion.engine import determinize as new_det

    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as native_folder:
        old, old_det = load_baseline(rev, Path(folder))
        engines = {"old": (old, old_det.draw_order), "new": (new, new_det.draw_order)}
        native = None if smoke else load_compiled(Path(native_folder))
        if native is not None:
            engines["compiled"] = (native[0], native[1].draw_order)
        print(
            f"rules engine, baseline {rev[:7]} (old), this checkout (new) and it compiled by mypyc (compiled), "
            f"median of {rounds} interleaved rounds"
        )
        gains: dict[str, list[float]] = {}
        for players, games in ((3, 2), (4, 2)) if smoke else ((3, 150), (4, 100)):
            rates: dict[str, list[float]] = {name: [] for name in engines}
            for _round in range(rounds):
                for name, (engine, draw) in engines.items():
                    work = partial(play_games, engine, draw, PLAYERS[players], games)
                    rates[name].append(measure(work, games))
            for name, gain in report(f"random games, {players} players", "games/s", rates).items():
                gains.setdefault(name, []).append(gain)
        for stamped in (False, True):
            texts = records(new, new_det.draw_order, stamped, 2 if smoke else 120)
            total = sum(len(r) for r in texts)
            rates = {name: [] for name in engines}
            for _round in range(rounds):
                for name, (engine, _draw) in engines.items():
                    rates[name].append(measure(partial(replay_all, engine, texts), total))
            label = f"replayed lines{', with t stamps' if stamped else ''}"
            for name, gain in report(label, "lines/s", rates).items():
                gains.setdefault(name, []).append(gain)
        figures.report(
            "against main 5b6da72's engine (before it was compiled for the Pi), side by side in interleaved rounds: "
            "random games 3 / 4 players, "
            "replays / stamped replays",
            "; ".join(
                f"{name}: " + " / ".join(f"{gain:.2f}" for gain in values) + "x" for name, values in gains.items()
            ),
            "2x",
        )


def play_games(engine: ModuleType, draw: Callable[[random.Random], Any], players: Sequence[str], games: int) -> None:
    for game in range(games):
        play_random(random.Random(500 + game), players, engine.State, draw)


def report(label: str, unit: str, rates: dict[str, list[float]]) -> dict[str, float]:
    """Prints the figures; returns each engine's speed-up over the old one."""
    old = statistics.median(rates["old"])
    cells = [f"old {old:8.0f} {unit}"]
    for name in rates:
        if name != "old":
            rate = statistics.median(rates[name])
            cells.append(f"{name} {rate:8.0f} {unit} = {rate / old:4.2f}x old")
    print(f"{label:<30} " + "   ".join(cells))
    return {name: statistics.median(values) / old for name, values in rates.items() if name != "old"}
