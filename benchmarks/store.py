"""Committing a decision (issue 5): one record line through the store (WAL, synchronous=FULL), as the companion
does before the screen acknowledges it. The figure depends on the disk: fsync dominates."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.store import Store
from tests.helpers import random_game

from . import figures


def main(smoke: bool = False) -> None:
    """``smoke``: the first 20 lines of the game (the test suite's run)."""
    lines, _, _ = random_game(3)
    lines = lines[:20] if smoke else lines
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder))
        game = store.new_game(lines[0])
        times = []
        rng = random.Random(1)
        for number, line in enumerate(lines[1:], start=2):
            start = time.perf_counter()
            store.append(game, number, [line], {"year": rng.randint(1, 9)})
            times.append((time.perf_counter() - start) * 1000)
        store.close()
    times.sort()
    p99 = times[int(len(times) * 0.99)]
    print("game store (SQLite, WAL, synchronous=FULL, this machine's disk)")
    print(
        f"{'commit one decision':<44} median {statistics.median(times):7.3f} ms   p99 {p99:7.3f} ms   (n={len(times)})"
    )
    figures.report("committing one decision (SQLite WAL, synchronous=FULL; this machine's disk)",
                   f"median {statistics.median(times):.2f} ms, p99 {p99:.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
