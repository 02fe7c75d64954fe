"""Run a process at a Raspberry Pi's speed on a desktop (issue 18): one core, and a CPU-time budget per wall second.

A Pi 3 or Zero 2 W core is about ``PI_FACTOR`` times slower than one here. The throttled process is pinned to one
core (``os.sched_setaffinity``, so its threads cannot add up to more than one core) and a watcher thread in the
parent keeps its CPU time, read from ``/proc/PID/task/*/schedstat`` (nanoseconds, all threads), to 1/factor of the
wall time: whenever it gets ahead it is stopped (SIGSTOP) until wall time catches up, then continued (SIGCONT). Idle
time is not banked (credit never exceeds one period's worth), so a burst after a rest runs at Pi speed too. Decisions
are taken every ``PERIOD`` seconds: work is stretched in steps of about a millisecond of CPU (ten of wall time). It
is an emulation, not a Pi: caches, memory bandwidth and SPI are not slowed; other programs on this machine also take
CPU from it, which only makes it slower.

Used on whole processes (start-up) and on child processes that wait for a go once prepared (benchmarks.pi).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

PI_FACTOR = 10.0  # a Pi 3 / Zero 2 W core against one core here (issue 18's estimate; pyperformance ratios agree)
PERIOD = 0.001


def cpu_seconds(pid: int) -> float:
    """CPU time of every thread of ``pid`` so far (threads that ended are not counted: ours do not end early)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):  # the thread just ended
            continue
    return total / 1e9


class Throttle:
    """Hold process ``pid`` to ``1 / factor`` of one core until :meth:`stop`."""

    def __init__(self, pid: int, factor: float = PI_FACTOR) -> None:
        self.pid = pid
        self.factor = factor
        self.stopped_for = 0.0  # wall seconds the process spent stopped
        self._done = threading.Event()
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(pid, {cores[-1]})
        self._thread = threading.Thread(target=self._watch, name="throttle", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        last = time.perf_counter()
        allowed = cpu_seconds(self.pid)
        running = True
        while not self._done.wait(PERIOD):
            try:
                used = cpu_seconds(self.pid)
            except OSError:  # the process is gone
                return
            now = time.perf_counter()
            # Time spent waiting is not banked (a Pi cannot run faster after a rest): credit stays within a period.
            allowed = min(allowed + (now - last) / self.factor, used + PERIOD / self.factor)
            last = now
            try:
                if running and used > allowed:
                    os.kill(self.pid, signal.SIGSTOP)
                    running = False
                    stop_at = time.perf_counter()
                elif not running and used <= allowed:
                    os.kill(self.pid, signal.SIGCONT)
                    running = True
                    self.stopped_for += time.perf_counter() - stop_at
            except ProcessLookupError:
                return
        if not running:
            os.kill(self.pid, signal.SIGCONT)

    def stop(self) -> None:
        self._done.set()
        self._thread.join()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGCONT)
