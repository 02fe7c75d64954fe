"""Today's engine against a baseline commit's, side by side in one run (issue 18: "at least 2x today's main").

``python3 dev.py bench compare`` (the baseline is :data:`BASELINE`, main before issue 18's work) extracts the
baseline's ``companion/engine`` and ``companion/i18n.py`` with ``git archive`` into a temporary package named
``companion_base``, then measures both engines with the same code, interleaved, several times:

- random games/s: the same seeded random games (uniform among the legal choices), 3 and 4 players; both engines
  offer the same choices in the same order, so they play the very same games;
- replayed lines/s: the same record texts (with and without "t" stamps) fed through each engine's ``Replay``.

Each figure is the median of the rounds' rates; the ratio is new over old. Needs git and the baseline commit.
"""

from __future__ import annotations

import importlib
import random
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

from .engine import play_random

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "5b6da723de897388237a9c1b4bf05cb59aab5acf"  # main before issue 18 (and before board changes)
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


def main(rev: str = BASELINE) -> None:
    from companion import engine as new
    from companion.engine import determinize as new_det

    with tempfile.TemporaryDirectory() as folder:
        old, old_det = load_baseline(rev, Path(folder))
        engines = {"old": (old, old_det.draw_order), "new": (new, new_det.draw_order)}
        print(f"rules engine, baseline {rev[:7]} (old) and this checkout (new), median of {ROUNDS} interleaved rounds")
        for players, games in ((3, 150), (4, 100)):
            rates: dict[str, list[float]] = {"old": [], "new": []}
            for _round in range(ROUNDS):
                for name, (engine, draw) in engines.items():
                    work = partial(play_games, engine, draw, PLAYERS[players], games)
                    rates[name].append(measure(work, games))
            report(f"random games, {players} players", "games/s", rates)
        for stamped in (False, True):
            texts = records(new, new_det.draw_order, stamped, 120)
            total = sum(len(r) for r in texts)
            rates = {"old": [], "new": []}
            for _round in range(ROUNDS):
                for name, (engine, _draw) in engines.items():
                    rates[name].append(measure(partial(replay_all, engine, texts), total))
            report(f"replayed lines{', with t stamps' if stamped else ''}", "lines/s", rates)


def play_games(engine: ModuleType, draw: Callable[[random.Random], Any], players: Sequence[str], games: int) -> None:
    for game in range(games):
        play_random(random.Random(500 + game), players, engine.State, draw)


def report(label: str, unit: str, rates: dict[str, list[float]]) -> None:
    old, new = statistics.median(rates["old"]), statistics.median(rates["new"])
    print(f"{label:<36} old {old:10.0f} {unit}   new {new:10.0f} {unit}   new/old {new / old:5.2f}x")
