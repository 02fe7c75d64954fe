"""The voice (issue 37): ``python3 dev.py bench speech``.

The utterances are what the voice says of benchmarks/flow.py's seeded game (flow/announcer.py: each notice's spoken
form, the gates, the decisions, the winners), each moment one utterance as the App hands it over.

- render: eSpeak NG's CPU per utterance (the whole process, ``wait4``), per language, and how many times faster than
  real time it renders;
- say(): the game thread's CPU for handing an utterance over, with a device that plays (aplay on ALSA's null
  device) and with one that never takes audio (a stand-in player that opens and then reads nothing);
- cut short: from say() of a new utterance to the engine and player of the one playing gone (wall, here);
- start latency after say(): from say() to the first PCM handed to the output. Wall here (p50/p99; a shared machine
  makes it noisy), and at Pi speed with benchmarks/pi.py's model: the speaker thread's CPU from its wake-up to the
  first chunk (``thread_time``, Popen included), plus the engine's CPU for the utterance's first sentence alone
  (``wait4``; an upper bound of its CPU to its first chunk, as espeak-ng renders clause by clause and about 8 ms of
  it is starting the process), plus aplay's start (``wait4`` on the null device), each times the factor. The factor
  is calibrated on a pure-Python loop and espeak-ng is C; the SD card's first read of espeak-ng-data and the sound
  card's own start are not modelled. Budget: p99 under 250 ms on a Pi 3 B, so the voice begins with the screen.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import time
from collections.abc import Iterable, Iterator
from itertools import chain

from companion.flow.announcer import Announcer
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.i18n import set_language
from hardware.speaker import Speaker
from hardware.speech import SAMPLE_WIDTH, Alsa, Espeak, Job
from tests.hardware.test_speaker import STUCK

from . import figures
from .flow import SEED
from .pi import _p99, factors

BUDGET_MS = 250  # p99 on a Pi 3 B


def utterances(count: int) -> list[str]:
    """The first ``count`` utterances of the seeded game, in the table's language."""
    found: list[str] = []
    announcer = Announcer()

    def keep(controller: Controller, _event: object) -> None:
        sentences = announcer.update(controller)
        if sentences:
            found.append(" ".join(sentences))

    controller = Controller(random.Random(SEED))
    table = Table(controller, random.Random(3), ["1", "2", "3", "4"], keypads=False, watch=keep)
    table.setup()
    while len(found) < count and (controller.stage != "over" or controller.notices):
        table.turn()
    return found[:count]


def wait4_cpu(command: list[str], stdin: bytes) -> float:
    """Milliseconds of CPU (user + system) of a whole process."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    _pid, _status, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return (usage.ru_utime + usage.ru_stime) * 1000


ROWS = (
    "the voice: espeak-ng's CPU for one announcement (a moment as the voice says it), en / de / it, median",
    "the voice: say() on the game thread (its CPU), a device that plays / one that never takes audio, median",
    "the voice: cut short, the old engine and player gone after the next say() (wall, median)",
    "on a Pi: the voice starts after say(), Pi 3 B / Zero 2 W / Pi 4 B (speaker thread + espeak-ng's first sentence "
    "+ aplay's start, CPU x factor), p50 / p99",
)


def render(language: str, texts: list[str]) -> float:
    engine = Espeak()
    command = engine.command(language, 160, 80)
    cpu, speed = [], []
    for text in texts:
        started = time.perf_counter()
        pcm = subprocess.run(command, input=text.encode() + b"\n", capture_output=True, check=True).stdout
        wall = time.perf_counter() - started
        seconds = (len(pcm) - engine.header) / SAMPLE_WIDTH / engine.sample_rate
        speed.append(seconds / wall)
        cpu.append(wait4_cpu(command, text.encode() + b"\n"))
    print(f"  render {language}: {len(texts)} utterances, CPU median {statistics.median(cpu):5.1f} ms p99 "
          f"{_p99(cpu):5.1f} ms; {statistics.median(speed):5.0f}x faster than real time (median)")  # fmt: skip
    return statistics.median(cpu)


class Timed:
    """ALSA's null device, noting when (wall) and at what speaker-thread CPU the first PCM of each utterance is
    handed over; the engine's command is built on the speaker's thread right after it wakes for an utterance."""

    keeps_all = False

    def __init__(self, inner: Alsa) -> None:
        self.inner = inner
        self.first: dict[int, tuple[float, float]] = {}  # number -> (perf_counter, thread_time) at the first chunk

    def problem(self, sample_rate: int) -> str | None:
        return self.inner.problem(sample_rate)

    def play(self, job: Job, pcm: Iterable[bytes], sample_rate: int) -> None:
        chunks: Iterator[bytes] = iter(pcm)
        head = next(chunks, b"")
        self.first[job.utterance.number] = (time.perf_counter(), time.thread_time())
        self.inner.play(job, chain([head], chunks), sample_rate)

    def cut(self) -> None:
        self.inner.cut()


class WakeClock(Espeak):
    def __init__(self) -> None:
        super().__init__()
        self.woke: list[float] = []  # the speaker thread's CPU when it began each utterance

    def command(self, language: str, rate: int, volume: int) -> list[str]:
        self.woke.append(time.thread_time())
        return super().command(language, rate, volume)


def start_latency(texts: list[str], smoke: bool = False) -> tuple[float, dict[str, tuple[float, float]]]:
    engine, output = WakeClock(), Timed(Alsa("null"))
    speaker = Speaker(engine, output)
    assert speaker.wait_checked(60) and speaker.fault is None, "espeak-ng and aplay (alsa-utils) are needed"
    wall, thread, handed = [], [], []
    for number, text in enumerate(texts, 1):
        before = time.thread_time()
        said_at = time.perf_counter()
        speaker.say(text, "en")
        handed.append((time.thread_time() - before) * 1e6)
        speaker.flush(60)
        at, cpu = output.first[number]
        wall.append((at - said_at) * 1000)
        thread.append((cpu - engine.woke[number - 1]) * 1000)
    speaker.close()
    first_sentence = [wait4_cpu(engine.command("en", 160, 80), text.split(". ")[0].encode() + b".\n") for text in texts]
    aplay = [wait4_cpu(Alsa("null").command(engine.sample_rate), bytes(4096)) for _ in range(10)]
    print(f"  say() on the game thread, a device that plays: CPU median {statistics.median(handed):5.1f} us max "
          f"{max(handed):6.1f} us")  # fmt: skip
    print(f"start latency after say(), {len(texts)} utterances: wall here median {statistics.median(wall):5.1f} ms "
          f"p99 {_p99(wall):6.1f} ms (a shared machine's noise)")  # fmt: skip
    print(f"  CPU here: speaker thread to the first chunk median {statistics.median(thread):4.2f} ms; espeak-ng, first "
          f"sentence alone, median {statistics.median(first_sentence):4.1f} ms p99 {_p99(first_sentence):4.1f} ms; "
          f"aplay's start median {statistics.median(aplay):4.1f} ms")  # fmt: skip
    start = statistics.median(aplay)
    found = {}
    for model, factor in factors().items():
        modelled = [(t + e + start) * factor for t, e in zip(thread, first_sentence, strict=True)]
        found[model] = (statistics.median(modelled), _p99(modelled))
        verdict = ("PASS" if _p99(modelled) < BUDGET_MS else "FAIL") if model == "Pi 3 B" and not smoke else ""
        print(f"  {model:<9} x{factor:<5g} median {statistics.median(modelled):6.1f} ms p99 {_p99(modelled):6.1f} ms "
              f"{verdict}{' (p99 < 250 ms)' if verdict else ''}")  # fmt: skip
    return statistics.median(handed), found


def stuck_device(texts: list[str]) -> tuple[float, float]:
    speaker = Speaker(Espeak(), Alsa("null", player=STUCK))
    assert speaker.wait_checked(60) and speaker.fault is None
    handed, gone = [], []
    for text in texts:
        old = speaker.job
        before, said_at = time.thread_time(), time.perf_counter()
        speaker.say(text * 4, "en")  # more than a pipe holds: the speaker's thread is stuck writing
        handed.append((time.thread_time() - before) * 1e6)
        if old is not None:
            for process in old.processes:
                process.wait(60)
            gone.append((time.perf_counter() - said_at) * 1000)
        deadline = time.monotonic() + 60
        while (job := speaker.job) is None or job is old or len(job.processes) < 2:  # until the new one is stuck
            assert time.monotonic() < deadline
            time.sleep(0.001)
    speaker.close()
    print(f"  say() on the game thread, a device that never takes audio: CPU median {statistics.median(handed):5.1f} "
          f"us max {max(handed):6.1f} us")  # fmt: skip
    print(f"  cut short: the stuck utterance's engine and player gone {statistics.median(gone):5.2f} ms (median, "
          f"wall) after the next say()")  # fmt: skip
    return statistics.median(handed), statistics.median(gone)


def main(smoke: bool = False) -> None:
    problem = Espeak().problem() or Alsa("null").problem(Espeak.sample_rate)
    if problem is not None:
        print(f"The voice: nothing measured: {problem}")
        for what in ROWS:
            figures.report(what, f"not measured ({problem})")
        return
    texts = utterances(5 if smoke else 200)
    words = [len(text.split()) for text in texts]
    print(f"The voice: eSpeak NG, {len(texts)} utterances of a seeded game ({statistics.median(words):g} "
          f"words median, {max(words)} at most)")  # fmt: skip
    rendered = []
    for language in ("en", "de", "it"):
        set_language(language)
        rendered.append(render(language, utterances(3 if smoke else 40)))
    set_language("en")
    playing, latency = start_latency(texts, smoke)
    stuck, gone = stuck_device(texts[: 3 if smoke else 30])
    cpu, handed, cut, start = ROWS
    figures.report(cpu, " / ".join(f"{ms:.1f}" for ms in rendered) + " ms")
    figures.report(handed, f"{playing:.0f} / {stuck:.0f} µs")
    figures.report(cut, f"{gone:.2f} ms")
    figures.report(
        start, "; ".join(f"{median:.0f} / {p99:.0f} ms" for median, p99 in latency.values()), "p99 < 250 ms (Pi 3 B)"
    )
