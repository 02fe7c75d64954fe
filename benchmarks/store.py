"""Committing a decision (nothing lost: docs/architecture.md "A restart"): one record line through the store, as the
companion does before the screen acknowledges it: SQLite (WAL, synchronous=NORMAL) and the journal beside it, synced as
the commit point. Beside it, what the same line cost before the journal (SQLite alone, synchronous=FULL), and how many
syncs each acknowledged line costs (strace, where it is installed). The figure depends on the disk: the sync
dominates."""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.store import Store
from tests.helpers import random_game

from . import figures

ROOT = Path(__file__).resolve().parents[1]


def _commit_times(lines: list[str], journal: bool) -> list[float]:
    with tempfile.TemporaryDirectory(dir=ROOT) as folder:  # the checkout's disk, not a tmpfs
        store = Store(Path(folder))
        if not journal:  # as before the journal beside it: SQLite alone, each commit synced
            store._journal.close()  # type: ignore[union-attr]
            store._journal = None
            store._db.execute("PRAGMA synchronous = FULL")
        game = store.new_game(lines[0])
        times = []
        rng = random.Random(1)
        for number, line in enumerate(lines[1:], start=2):
            start = time.perf_counter()
            store.append(game, number, [line], {"year": rng.randint(1, 9)})
            times.append((time.perf_counter() - start) * 1000)
        store.close()
    times.sort()
    return times


def open_times(games: int, runs: int = 5) -> tuple[int, list[float]]:
    """CPU milliseconds to open a store holding GAMES random games (each line its own press, as at the table), per
    run: at every open both copies are read and compared entry by entry (docs/architecture.md, "Which copy is the
    truth"), so the figure grows with a year of game nights. CPU time, so another process beside it does not count."""
    with tempfile.TemporaryDirectory(dir=ROOT) as folder:
        store = Store(Path(folder))
        count = 0
        for seed in range(games):
            lines = random_game(seed)[0]
            game = store.new_game(lines[0])
            for number, line in enumerate(lines[1:], start=2):
                store.append(game, number, [line])
            count += len(lines)
        store.close()
        times = []
        for _ in range(runs):
            start = time.process_time()
            Store(Path(folder)).close()
            times.append((time.process_time() - start) * 1000)
    return count, sorted(times)


SYNCS = """
import sys, tempfile
from pathlib import Path
from companion.store import Store
from tests.helpers import random_game
lines = random_game(3)[0][:{count}]
with tempfile.TemporaryDirectory(dir={root!r}) as folder:
    store = Store(Path(folder))
    game = store.new_game(lines[0])
    print("start", file=sys.stderr, flush=True)
    for number, line in enumerate(lines[1:], start=2):
        store.append(game, number, [line], {{"year": 1}})
"""


def syncs_per_line(count: int) -> float | None:
    """fsync and fdatasync calls per appended line, counted by strace from the first append on (None: no strace)."""
    if shutil.which("strace") is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "trace"
        subprocess.run(
            ["strace", "-f", "-e", "trace=fsync,fdatasync,write", "-o", str(trace), sys.executable, "-c",
             SYNCS.format(count=count, root=str(ROOT))],
            cwd=ROOT, capture_output=True, check=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        calls = trace.read_text().splitlines()
    started = next(i for i, call in enumerate(calls) if "start" in call and "write(2" in call)
    syncs = [call for call in calls[started:] if "fsync(" in call or "fdatasync(" in call]
    return len(syncs) / (count - 1)


def main(smoke: bool = False) -> None:
    """``smoke``: the first 20 lines of the game (the test suite's run)."""
    lines, _, _ = random_game(3)
    lines = lines[:20] if smoke else lines
    print("game store (this machine's disk)")
    for label, journal in (("SQLite NORMAL + journal synced (today)", True), ("SQLite FULL alone (before)", False)):
        times = _commit_times(lines, journal)
        p99 = times[int(len(times) * 0.99)]
        print(f"commit one decision, {label:<40} median {statistics.median(times):7.3f} ms   p99 {p99:7.3f} ms"
              f"   (n={len(times)})")  # fmt: skip
        if journal:
            figures.report("committing one decision (SQLite WAL + the journal synced; this machine's disk)",
                           f"median {statistics.median(times):.2f} ms, p99 {p99:.2f} ms")  # fmt: skip
    for games in (1,) if smoke else (5, 20):
        count, times = open_times(games, 2 if smoke else 5)
        print(f"open a store of {games} games ({count} lines), CPU        median {statistics.median(times):7.1f} ms"
              f"   max {times[-1]:7.1f} ms")  # fmt: skip
    syncs = syncs_per_line(20 if smoke else 200)
    if syncs is not None:
        print(f"syncs per acknowledged line (strace): {syncs:.2f}")


if __name__ == "__main__":
    main()
