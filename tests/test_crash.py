"""The crash harness (benchmarks/crash.py, 200 kills with `python3 dev.py bench crash`), a shorter run in the suite."""

from __future__ import annotations

from pathlib import Path

from benchmarks.crash import harness


def test_killed_at_random_moments_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    counts = harness(12, tmp_path, seed=5)
    assert counts["kills"] == 12
    assert counts["acknowledged lines"] > 100
    assert counts["lost"] == 0
    assert counts["resumes"] >= 5 and counts["resume checks"] == counts["resumes"]
