"""The voice (docs/sound.md "Figures"): ``python3 dev.py bench speech``.

The utterances are what the voice says of benchmarks/flow.py's seeded game (flow/announcer.py: each notice's spoken
form, the gates, the decisions, the winners), each moment one utterance as the App hands it over.

- render: eSpeak NG's CPU per utterance (the whole process, ``wait4``), per language, and how many times faster than
  real time it renders;
- say(): the game thread's CPU for handing an utterance over, with a device that plays (aplay on ALSA's null
  device) and with one that never takes audio (a stand-in player that opens and then reads nothing);
- cut short: from say() of a new utterance for the same moment to the engine and player of the one playing gone
  (wall, here);
- start latency after say(): from say() to the first PCM handed to the output. Wall here (p50/p99; a shared machine
  makes it noisy), and at Pi speed with benchmarks/pi.py's model: the speaker thread's CPU from its wake-up to the
  first chunk (``thread_time``, Popen included), plus the engine's CPU for the utterance's first clause alone
  (``wait4``, up to its first stop, comma, semicolon or colon: an upper bound of its CPU to its first chunk, as
  espeak-ng renders clause by clause and about 8 ms of it is starting the process; the voice's utterances are often
  one sentence of several clauses, so the first sentence, printed beside it, overstates it), plus aplay's start
  (``wait4`` on the null device), each times the factor. The factor is calibrated on a pure-Python loop and
  espeak-ng is C; the SD card's first read of espeak-ng-data and the sound card's own start are not modelled.
  Budget: p99 under 250 ms on a Pi 3 B, so the voice begins with the screen.
- a table's evening (docs/sound.md): the documented new group's table (three keypads and a computer player,
  benchmarks/speech_timeline.py) plays a seeded game; every utterance is rendered by eSpeak NG at the default rate
  (160 words a minute) and its length measured. Seconds of speech a game-year: all the voice is handed, divided by
  the game's years. The model of a table pressing every 3 s: each press (a host's or a player's key) comes 3 s after
  the one before, and what the voice is handed at that press is handed then; a computer player's move comes 1 s after
  the press that let it act (0.75-1.2 s measured at a table). The speaker's own rule (hardware/speaker.py's
  ``admit``) decides what is cut, dropped or queued; heard is the share of the seconds handed over that played, and
  a count is heard whole when it and the computer's move that joined it played to the end. Before and after in one
  run: before is the announcer, texts and speaker of ``BEFORE`` (main before the voice was written for the ear), run
  from a ``git archive`` of that commit (``git`` and the repository's history are needed; without them only after is
  measured), with its rule: each utterance cuts the one before; after is this checkout's, in each language (en, de,
  it: the same game, each held to 90 s a game-year). Before is English's alone, the language ``BEFORE`` spoke.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any

from companion.flow.announcer import Announcer
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.i18n import set_language
from hardware.speaker import Speaker, admit
from hardware.speech import SAMPLE_WIDTH, Alsa, Espeak, Job, Utterance
from tests.hardware.test_speaker import STUCK

from . import figures
from .flow import SEED
from .pi import _p99, factors
from .speech_timeline import timeline

BUDGET_MS = 250  # p99 on a Pi 3 B
BEFORE = "d038a94"  # main before the voice was written for the ear (docs/sound.md "What it says")
PRESS_S = 3.0  # the table presses every 3 s
BOT_S = 1.0  # a computer player's move, after the press that let it act
YEAR_BUDGET_S = 90  # in each language
LANGUAGES = ("en", "de", "it")
ROOT = Path(__file__).resolve().parents[1]


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
    "on a Pi: the voice starts after say(), Pi 3 B / Zero 2 W / Pi 4 B (speaker thread + espeak-ng's first clause "
    "+ aplay's start, CPU x factor), p50 / p99",
    "the voice: seconds of speech a game-year (three keypads and a computer, seeded game), before (en) / after en / de "
    "/ it",
    "the voice: share heard by a table pressing every 3 s (a computer's move 1 s after), before (en) / after en / de "
    "/ it",
    "the voice: counts heard whole (with the computer's move that joined them), before (en) / after en / de / it",
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
    command = engine.command("en", 160, 80)
    first_sentence = [wait4_cpu(command, text.split(". ")[0].encode() + b".\n") for text in texts]
    first_clause = [wait4_cpu(command, re.split(r"(?<=[.,;:])\s", text)[0].encode() + b"\n") for text in texts]
    aplay = [wait4_cpu(Alsa("null").command(engine.sample_rate), bytes(4096)) for _ in range(10)]
    print(f"  say() on the game thread, a device that plays: CPU median {statistics.median(handed):5.1f} us max "
          f"{max(handed):6.1f} us")  # fmt: skip
    print(f"start latency after say(), {len(texts)} utterances: wall here median {statistics.median(wall):5.1f} ms "
          f"p99 {_p99(wall):6.1f} ms (a shared machine's noise)")  # fmt: skip
    print(f"  CPU here: speaker thread to the first chunk median {statistics.median(thread):4.2f} ms; espeak-ng, first "
          f"clause alone, median {statistics.median(first_clause):4.1f} ms p99 {_p99(first_clause):4.1f} ms (first "
          f"sentence {statistics.median(first_sentence):4.1f} / {_p99(first_sentence):4.1f} ms); "
          f"aplay's start median {statistics.median(aplay):4.1f} ms")  # fmt: skip
    start = statistics.median(aplay)
    found = {}
    for model, factor in factors().items():
        modelled = [(t + e + start) * factor for t, e in zip(thread, first_clause, strict=True)]
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
        speaker.say(text * 4, "en", "one moment")  # more than a pipe holds: stuck writing; each replaces the last
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


@dataclass
class Evening:
    """What a table heard of one game's voice, under the model above."""

    years: int
    handed: float  # seconds of speech handed to the voice
    heard: float  # seconds that played
    counts: int
    whole: int  # counts heard whole
    waited: list[float]  # seconds each utterance waited before it began

    def line(self) -> str:
        wait = f"waited median {statistics.median(self.waited):.1f} s, at most {max(self.waited):.1f} s"
        return (f"{self.handed / self.years:6.0f} s a year ({self.handed:.0f} s in {self.years} years), heard "
                f"{self.heard / self.handed:4.0%}, counts heard whole {self.whole}/{self.counts}; {wait}")  # fmt: skip


def spoken_seconds(texts: Iterable[str], language: str, smoke: bool) -> dict[str, float]:
    """Each text's length as eSpeak NG says it at 160 words a minute (smoke: a word-count estimate)."""
    engine = Espeak()
    found = {}
    for text in set(texts):
        if smoke:
            found[text] = len(text.split()) * 60 / 160
            continue
        command = engine.command(language, 160, 80)
        pcm = subprocess.run(command, input=text.encode() + b"\n", capture_output=True, check=True).stdout
        found[text] = (len(pcm) - engine.header) / SAMPLE_WIDTH / engine.sample_rate
    return found


def listen(rows: list[dict[str, Any]], seconds: dict[str, float], before: bool) -> Evening:
    """The table's evening under the model: utterances handed over at their press's time, the speaker's rule
    (``admit``; before: every utterance one moment, so each cuts the one before) decides the rest."""
    length = {number: seconds[row["text"]] for number, row in enumerate(rows, 1)}
    heard: dict[int, float] = {}
    handed_at: dict[int, float] = {}
    waited: list[float] = []
    waiting: deque[Utterance] = deque()
    playing: tuple[Utterance, float] | None = None
    free_at = 0.0

    def play_until(now: float) -> None:
        nonlocal playing, free_at
        while True:
            if playing is not None:
                utterance, start = playing
                if start + length[utterance.number] > now:
                    return
                heard[utterance.number] = length[utterance.number]
                free_at, playing = start + length[utterance.number], None
            elif waiting:
                utterance = waiting.popleft()
                start = max(free_at, handed_at[utterance.number])
                waited.append(start - handed_at[utterance.number])
                playing = (utterance, start)
            else:
                return

    for number, row in enumerate(rows, 1):
        now = row["press"] * PRESS_S + (BOT_S if row["bot"] else 0.0)
        play_until(now)
        moment = "one" if before else row["moment"]
        new = Utterance(number, row["text"], "en", 80, moment, False if before else row["joins"])
        cut, kept = admit(playing[0] if playing else None, list(waiting), new)
        if cut and playing is not None:
            heard[playing[0].number] = now - playing[1]
            playing, free_at = None, now
        waiting = deque(kept)
        waiting.append(new)
        handed_at[number] = now
    play_until(float("inf"))
    counts = whole = 0
    group: list[int] = []
    for number, row in enumerate([*rows, {"kind": "end", "bot": False}], 1):
        if row["kind"] == "count" and row["bot"] and group:  # a computer's move joined the count
            group.append(number)
            continue
        if group:
            counts += 1
            whole += all(heard.get(n, 0.0) >= length[n] for n in group)
            group = []
        if row["kind"] == "count":
            group = [number]
    years = max(row["year"] for row in rows)
    return Evening(years, sum(length.values()), sum(heard.values()), counts, whole, waited)


def before_rows(seed: int) -> list[dict[str, Any]] | str:
    """The timeline of ``BEFORE``'s voice: its code from a git archive, run with this checkout's timeline script;
    a string says why it could not be."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "archive", BEFORE, "companion", "display", "hardware"], cwd=ROOT, capture_output=True
        )
        if archive.returncode:
            return f"git archive {BEFORE} failed: {archive.stderr.decode(errors='replace').strip()[:100]}"
        with tempfile.TemporaryFile() as tar:
            tar.write(archive.stdout)
            tar.seek(0)
            with tarfile.open(fileobj=tar) as files:
                files.extractall(folder, filter="data")
        script = ROOT / "benchmarks" / "speech_timeline.py"
        run = f"import runpy, sys; sys.argv = ['t', '{seed}']; runpy.run_path({str(script)!r}, run_name='__main__')"
        done = subprocess.run(
            [sys.executable, "-c", run], cwd=folder, capture_output=True, text=True,
            env={**os.environ, "PYTHONPATH": folder},
        )  # fmt: skip
        if done.returncode:
            return f"{BEFORE}'s timeline failed: {done.stderr.strip().splitlines()[-1][:100]}"
        return [json.loads(line) for line in done.stdout.splitlines()]


def evening(smoke: bool) -> tuple[Evening | str, dict[str, Evening]]:
    """The table's evening in each language (after), and in English before: ``BEFORE``'s voice was English's."""
    afters: dict[str, Evening] = {}
    old: list[dict[str, Any]] | str = "not measured in a smoke run"
    before: Evening | str = old
    for language in LANGUAGES:
        rows = timeline(SEED, language)
        if language == "en" and not smoke:
            old = before_rows(SEED)
        texts = [row["text"] for row in rows]
        if language == "en" and isinstance(old, list):
            texts += [row["text"] for row in old]
        seconds = spoken_seconds(texts, language, smoke)
        afters[language] = listen(rows, seconds, before=False)
        if language == "en":
            before = old if isinstance(old, str) else listen(old, seconds, before=True)
    set_language("en")
    print(f"A table's evening (three keypads and a computer, seed {SEED}; presses every {PRESS_S:g} s, a computer's "
          f"move {BOT_S:g} s after):")  # fmt: skip
    print(f"  before ({BEFORE}, en):  {before if isinstance(before, str) else before.line()}")
    for language, after in afters.items():
        verdict = "PASS" if after.handed / after.years <= YEAR_BUDGET_S and after.whole == after.counts else "FAIL"
        print(f"  after, {language}:          {after.line()} {'' if smoke else verdict}")
    return before, afters


def main(smoke: bool = False) -> None:
    problem = Espeak().problem() or Alsa("null").problem(Espeak.sample_rate)
    if problem is not None:
        print(f"The voice: nothing measured: {problem}")
        for what in ROWS:
            figures.report(what, f"not measured ({problem})")
        return
    before, afters = evening(smoke)
    texts = utterances(5 if smoke else 200)
    words = [len(text.split()) for text in texts]
    print(f"The voice: eSpeak NG, {len(texts)} utterances of a seeded game ({statistics.median(words):g} "
          f"words median, {max(words)} at most)")  # fmt: skip
    rendered = []
    for language in LANGUAGES:
        set_language(language)
        rendered.append(render(language, utterances(3 if smoke else 40)))
    set_language("en")
    playing, latency = start_latency(texts, smoke)
    stuck, gone = stuck_device(texts[: 3 if smoke else 30])
    cpu, handed, cut, start, year, share, counts = ROWS
    figures.report(cpu, " / ".join(f"{ms:.1f}" for ms in rendered) + " ms")
    figures.report(handed, f"{playing:.0f} / {stuck:.0f} µs")
    figures.report(cut, f"{gone:.2f} ms")
    figures.report(
        start, "; ".join(f"{median:.0f} / {p99:.0f} ms" for median, p99 in latency.values()), "p99 < 250 ms (Pi 3 B)"
    )

    def both(of: Callable[[Evening], str]) -> str:
        said = f"not measured ({before})" if isinstance(before, str) else of(before)
        return f"{said} / " + " / ".join(of(after) for after in afters.values())

    figures.report(year, both(lambda e: f"{e.handed / e.years:.0f} s"), f"at most {YEAR_BUDGET_S} s (after, each)")
    figures.report(share, both(lambda e: f"{e.heard / e.handed:.0%}"))
    figures.report(counts, both(lambda e: f"{e.whole} of {e.counts}"), "all of them (after)")


GAP_S = 0.5  # silence between two utterances in a year's recording
WAV_RATE = 8000  # Hz, 8-bit: a year of speech in under a megabyte


def year_recordings(folder: Path, year: int = 2) -> None:
    """docs/sound/year-<lang>.wav and .txt: everything the voice says in one game-year of the seeded game (the
    second: from its first round to its end, without the game's introduction), in each language, one utterance
    after another as a table that waits for the voice hears it. Made with ``python -m benchmarks.speech DIR``."""
    import wave

    engine = Espeak()
    for language in LANGUAGES:
        rows = timeline(SEED, language)
        ends = [n for n, row in enumerate(rows) if row["kind"] == "year"]  # each year's end, with the next's start
        texts = [row["text"] for row in rows[ends[year - 2] + 1 : ends[year - 1] + 1]]
        samples = array("h")
        for text in texts:
            command = engine.command(language, 160, 80)
            pcm = subprocess.run(command, input=text.encode() + b"\n", capture_output=True, check=True).stdout
            samples.frombytes(pcm[engine.header :])
            samples.extend([0] * int(GAP_S * engine.sample_rate))
        smooth = [(samples[i] + samples[i + 1]) / 2 for i in range(len(samples) - 1)]  # a crude low-pass
        step = engine.sample_rate / WAV_RATE
        small = bytes((int(smooth[int(n * step)]) >> 8) + 128 for n in range(int((len(smooth) - 1) / step)))
        with wave.open(str(folder / f"year-{language}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(1)
            out.setframerate(WAV_RATE)
            out.writeframes(small)
        (folder / f"year-{language}.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
        print(f"{language}: {len(texts)} utterances, {len(small) / WAV_RATE:.0f} s")
    set_language("en")


if __name__ == "__main__":
    year_recordings(Path(sys.argv[1]))
