"""The speaker thread: the game thread hands an utterance over and goes on; rendering and playing happen here.

``say`` costs the game thread a lock and, when something is playing, a kill of its processes: microseconds, never a
wait for the engine or the device. Each utterance speaks for a moment (``moment``, any hashable the caller
chooses; None: a moment of its own), and an utterance is cut only by one that replaces what it says
(:func:`admit`): a later utterance for the same moment says it anew, so the one playing for that moment stops and
one waiting for it is dropped; one that ``adds`` to its moment (a computer player's move joining the count it acts
on) queues behind it; any other moment queues behind what plays and waits, so nothing the table needs is cut. A
capture keeps every one instead, in order. Whether the engine and the output can
work is found out here, once, at start: a missing engine or a device that cannot play is one line in the log and
the speaker goes silent, trying again at most every ``retry_s`` when there is something to say (a USB speaker
plugged in later starts to work). The texts are never logged: only counts and faults.
"""

from __future__ import annotations

import logging
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import IO, Literal

from .speech import DeviceFailed, Engine, Job, Output, Utterance

log = logging.getLogger(__name__)

Fault = Literal["engine", "device"]
CHUNK = 4096  # bytes of PCM handed to the output at a time


def admit(playing: Utterance | None, waiting: list[Utterance], new: Utterance) -> tuple[bool, list[Utterance]]:
    """What a new utterance does to those before it: whether the one playing is cut short, and which of those
    waiting stay (``new`` then queues behind them). Only an utterance that says its moment anew (not ``adds``)
    replaces: the ones for the same moment, playing or waiting; a moment of None is never the same as another.
    Pure, so the benchmark models a table's evening with the very rule the speaker follows."""
    if new.adds or new.moment is None:
        return False, waiting
    cut = playing is not None and playing.moment == new.moment
    return cut, [old for old in waiting if old.moment != new.moment]


class Speaker:
    def __init__(
        self,
        engine: Engine,
        output: Output,
        *,
        rate: int = 160,
        volume: int = 80,
        retry_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine, self.output = engine, output
        self.rate = rate
        self.volume = volume
        self.retry_s = retry_s
        self.clock = clock
        self._wake = threading.Condition()
        self._waiting: deque[Utterance] = deque()
        self._job: Job | None = None
        self._handed = 0  # utterances handed over
        self._settled = 0  # the newest one played, kept, cut, dropped or failed
        self._closed = False
        self._checked = threading.Event()  # the first check is done (tests, bench)
        self._checked_at: float | None = None
        self.fault: Fault | None = None
        self.said = 0  # counts, for the log at close
        self.cut_short = 0
        self.dropped = 0
        self.failed = 0
        self._failure_logged = False
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the game thread's side

    def say(self, text: str, language: str, moment: object = None, adds: bool = False) -> None:
        """Hand ``text`` over to be said in ``language`` for ``moment`` (see :func:`admit`); returns at once."""
        with self._wake:
            if self._closed or self.volume == 0:
                return
            self._handed += 1
            utterance = Utterance(self._handed, text, language, self.volume, moment, adds)
            if not self.output.keeps_all:
                playing = self._job.utterance if self._job is not None and not self._job.stopped else None
                cut, kept = admit(playing, list(self._waiting), utterance)
                self.dropped += len(self._waiting) - len(kept)
                self._waiting = deque(kept)
                if cut and self._job is not None:
                    self._job.cut()
                    self.cut_short += 1
                    self.output.cut()
            self._waiting.append(utterance)
            self._wake.notify_all()

    def set_volume(self, level: int) -> None:
        """0 to 100; the next utterance is said at it. 0 is silence: what is playing stops (a capture keeps what was
        handed over before, whatever the timing)."""
        with self._wake:
            self.volume = level
            if level == 0 and not self.output.keeps_all:
                self._cut()
                self._wake.notify_all()

    def _cut(self) -> None:
        """With the lock held: the one playing stops, the one waiting is dropped."""
        if self._waiting:
            self.dropped += len(self._waiting)
            self._waiting.clear()
            self._settled = self._handed
        if self._job is not None and not self._job.stopped:
            self._job.cut()
            self.cut_short += 1
        self.output.cut()  # a mixer may still be playing what the speaker's thread has handed over and left

    @property
    def job(self) -> Job | None:
        """The utterance being said now, with its processes (tests and benchmarks look at them)."""
        return self._job

    def wait_checked(self, timeout: float | None = None) -> bool:
        """Until the engine and the output have been checked (``fault`` says how); a hang guard for tests."""
        return self._checked.wait(timeout)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything handed over has been said (or cut, or dropped); False if ``timeout`` ran out."""
        with self._wake:
            return self._wake.wait_for(lambda: self._settled >= self._handed, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Stop at once: what plays is cut, what waits is dropped. Safe to call twice."""
        with self._wake:
            self._closed = True
            self._cut()
            self._wake.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # ------------------------------------------------------------------ the speaker's thread

    def _run(self) -> None:
        self._check()
        while True:
            with self._wake:
                self._wake.wait_for(lambda: bool(self._waiting) or self._closed)
                if self._closed:
                    return
                utterance = self._waiting.popleft()
                job = self._job = Job(utterance)
            if self.fault is not None and self._retry_due():
                self._check()
            if self.fault is None:
                try:
                    self._say(job)
                except Exception as error:  # the voice must never take the companion down: counted, said once
                    self._failure(f"an utterance failed ({type(error).__name__})")
            with self._wake:
                self._job = None
                self._settled = max(self._settled, utterance.number)
                self._wake.notify_all()

    def _retry_due(self) -> bool:
        return self._checked_at is None or self.clock() - self._checked_at >= self.retry_s

    def _check(self) -> None:
        """Can the engine and the output work? One line when they cannot (the first time), and one when they can
        again."""
        problem = self.engine.problem()
        fault: Fault | None = "engine" if problem else None
        if problem is None:
            problem = self.output.problem(self.engine.sample_rate)
            fault = "device" if problem else None
        self._fault(fault, problem)
        self._checked.set()

    def _fault(self, fault: Fault | None, problem: str | None) -> None:
        before, self.fault, self._checked_at = self.fault, fault, self.clock()
        if fault is not None and before is None:
            log.error("sound: %s; the companion goes on silently", problem)
        elif fault is None and before is not None:
            log.warning("sound: the voice works again")

    def _say(self, job: Job) -> None:
        if job.stopped:
            return
        utterance = job.utterance
        try:
            engine = job.spawn(
                self.engine.command(utterance.language, self.rate, utterance.volume),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as error:  # the engine went away since the check
            self._failure(f"{self.engine.name} did not start ({error.strerror})")
            return
        assert engine.stdin is not None and engine.stdout is not None
        played = False
        try:
            with engine.stdin:
                engine.stdin.write(utterance.text.encode() + b"\n")
            self.output.play(job, self._pcm(engine.stdout), self.engine.sample_rate)
            played = True
        except DeviceFailed as failure:
            self._fault("device", str(failure))
        except OSError:  # a pipe broke under a write: the engine was killed, cut short
            pass
        finally:
            engine.stdout.close()  # unread output left: the engine stops on a broken pipe instead of waiting
            status = engine.wait()
        if not played or job.stopped:
            return
        if status != 0:
            self._failure(f"{self.engine.name} failed (status {status})")
        else:
            self.said += 1

    def _pcm(self, stdout: IO[bytes]) -> Iterator[bytes]:
        skip = self.engine.header
        while skip > 0:
            head = stdout.read(skip)
            if not head:
                return
            skip -= len(head)
        while chunk := stdout.read1(CHUNK):  # type: ignore[attr-defined]
            yield chunk

    def _failure(self, problem: str) -> None:
        self.failed += 1
        if not self._failure_logged:  # once: a failing engine must not fill the log, one line per notice
            self._failure_logged = True
            log.error("sound: %s; later failures are counted, not logged", problem)
