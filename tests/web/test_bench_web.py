"""`python3 dev.py bench web` at a tiny size: its figures come out (their values are the benchmark's business)."""

from __future__ import annotations

import pytest

from benchmarks import web


def test_the_press_benchmark_measures_some_presses() -> None:
    result = web._child_press(30)
    assert set(result) == {"lcd", "table", "lcd cpu", "table cpu"}
    assert result["table"] and all(ms >= 0 for key in result for ms in result[key])
    assert len(result["lcd cpu"]) == len(result["lcd"]) and len(result["table cpu"]) == len(result["table"])


def test_idle_cpu_and_memory_are_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "IDLE_S", 0.5)
    idle, with_web, without = web.idle_and_memory()
    assert idle >= 0 and with_web > 0 and without > 0
