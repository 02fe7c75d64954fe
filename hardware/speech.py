"""The voice's two ends: an engine that turns a text into sound, and an output that plays or keeps it.

An engine is a program that reads the text on its standard input and writes 16-bit mono PCM on its standard output
(after a header of ``header`` bytes): eSpeak NG (Debian's ``espeak-ng``) by default. A better voice a user installs,
such as Piper, fits the same seam (docs/sound.md): its command line, sample rate and header are all the speaker
asks of it. Each utterance is its own engine process, and on ALSA its own ``aplay``: cutting an utterance short is
killing them, and aplay's buffer goes with it, so no tail plays (a long-lived player cannot drop its buffer from
outside). Outputs: ALSA through ``aplay -D DEVICE`` (the Pi), WAV files (``run --audio DIR``, tests) and, in the
simulator, pygame's mixer (display/simulator.py).

Nothing here knows the game; nothing here logs a text.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import wave
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

SAMPLE_WIDTH = 2  # bytes: signed 16-bit little-endian, mono, from every engine
PROBE_S = 0.02  # the silence an output's check plays: long enough for the device to open, too short to hear


@dataclass(frozen=True)
class Utterance:
    number: int  # 1, 2, ... in the order handed over
    text: str
    language: str  # en, de or it
    volume: int  # 1 to 100: the level when it was handed over
    moment: object = None  # what it speaks for (hardware/speaker.py): None, a moment of its own
    adds: bool = False  # it adds to its moment's utterance (queued behind it) rather than saying the moment anew


class Engine(Protocol):
    name: str
    sample_rate: int
    header: int  # bytes before the PCM on standard output

    def problem(self) -> str | None:
        """Why it cannot speak here (one line, with the fix), or None."""

    def command(self, language: str, rate: int, volume: int) -> list[str]:
        """The program that renders one utterance: ``rate`` in words a minute, ``volume`` 0-100."""


class Espeak:
    """eSpeak NG: quick (a short sentence is about 10 ms of CPU here, 8 of them starting the process) and
    byte-for-byte deterministic for the same text and settings. ``--stdout`` writes a WAV whose 44-byte header has
    made-up sizes (it cannot seek a pipe): the speaker skips it and counts the PCM itself. Amplitude 100 is its full
    level without clipping (150 and up clip), so volume 0-100 maps straight to ``-a``."""

    name = "espeak-ng"
    sample_rate = 22050
    header = 44
    VOICES: ClassVar[dict[str, str]] = {"en": "en", "de": "de", "it": "it"}  # en: British English (gmw/en)

    def __init__(self, program: str = "espeak-ng") -> None:
        self.program = program

    def problem(self) -> str | None:
        if shutil.which(self.program) is None:
            how = "brew install espeak-ng" if sys.platform == "darwin" else "sudo apt install espeak-ng"
            return f"espeak-ng is not installed ({how})"
        return None

    def command(self, language: str, rate: int, volume: int) -> list[str]:
        voice = self.VOICES.get(language, "en")
        return [self.program, "-b", "1", "-v", voice, "-s", str(rate), "-a", str(volume), "--stdout"]


@dataclass
class Job:
    """One utterance being said: the processes it runs, and whether it was cut short. Processes started after the
    cut are killed as they are registered, so a cut never misses one that was starting."""

    utterance: Utterance
    stopped: bool = False
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def spawn(self, command: list[str], **popen: Any) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(command, **popen)
        with self.lock:
            self.processes.append(process)
            stopped = self.stopped
        if stopped:
            process.kill()
        return process

    def cut(self) -> None:
        """From any thread, in microseconds: the processes are killed, not waited for."""
        with self.lock:
            self.stopped = True
            processes = list(self.processes)
        for process in processes:
            process.kill()


class DeviceFailed(Exception):
    """The output stopped playing on its own (a USB speaker unplugged): one line in the log, then silence."""


class Output(Protocol):
    keeps_all: bool  # True: every utterance in order, never cut (a capture); False: the newest cuts the one playing

    def problem(self, sample_rate: int) -> str | None:
        """Why nothing can be played (one line), found once at start on the speaker's thread, or None."""

    def play(self, job: Job, pcm: Iterable[bytes], sample_rate: int) -> None:
        """Play (or keep) the utterance's PCM; blocks until it has played or was cut short (``job.stopped``).
        Raises :class:`DeviceFailed` if the device gave up by itself."""

    def cut(self) -> None:
        """Stop what is playing at once (any thread); the processes of the job are killed by the speaker."""


class Alsa:
    """ALSA through ``aplay`` (alsa-utils): one process per utterance, reading raw PCM from a pipe. A device that
    takes audio slowly or never only holds up the speaker's thread, which a cut frees (the pipe breaks)."""

    keeps_all = False

    def __init__(self, device: str, player: tuple[str, ...] = ("aplay",)) -> None:
        self.device = device
        self.player = player  # tests put a stand-in here (a device that never takes audio)

    def command(self, sample_rate: int) -> list[str]:
        return [*self.player, "-q", "-D", self.device, "-t", "raw", "-f", "S16_LE", "-r", str(sample_rate), "-c", "1"]

    def problem(self, sample_rate: int) -> str | None:
        if shutil.which(self.player[0]) is None:
            return f"{self.player[0]} is not installed (sudo apt install alsa-utils)"
        silence = bytes(int(sample_rate * PROBE_S) * SAMPLE_WIDTH)
        try:
            done = subprocess.run(self.command(sample_rate), input=silence, capture_output=True, timeout=10)
        except subprocess.TimeoutExpired:
            return f'the audio device "{self.device}" does not take sound'
        if done.returncode == 0:
            return None
        said = [line for line in done.stderr.decode(errors="replace").splitlines() if line.strip()]
        reason = said[-1].split(": ", 2)[-1] if said else f"status {done.returncode}"
        return f'cannot play on "{self.device}" ({reason[:120]})'

    def play(self, job: Job, pcm: Iterable[bytes], sample_rate: int) -> None:
        player = job.spawn(
            self.command(sample_rate), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        assert player.stdin is not None
        with suppress(OSError), player.stdin:  # a broken pipe: the player was killed (cut short) or gave up
            for chunk in pcm:
                player.stdin.write(chunk)
        status = player.wait()
        if status != 0 and not job.stopped:
            raise DeviceFailed(f'the audio device "{self.device}" stopped playing (aplay status {status})')

    def cut(self) -> None:
        """Nothing more to do: the speaker kills this utterance's aplay."""


class WavCapture:
    """Every utterance in full, in order, as ``speech-00001.wav``... in ``folder`` (the standard library's wave
    writes a correct header), and ``speech.txt`` with one line per file: number, language, text. What the table
    would have heard, whatever the timing: nothing is cut. This is the capture a user asked for (``--audio``), not a
    log."""

    keeps_all = True

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def problem(self, sample_rate: int) -> str | None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return f"cannot write in {self.folder} ({error.strerror})"
        return None

    def play(self, job: Job, pcm: Iterable[bytes], sample_rate: int) -> None:
        number = job.utterance.number
        with wave.open(str(self.folder / f"speech-{number:05d}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(SAMPLE_WIDTH)
            out.setframerate(sample_rate)
            for chunk in pcm:
                out.writeframes(chunk)
        with (self.folder / "speech.txt").open("a", encoding="utf-8") as index:
            print(f"{number:05d}\t{job.utterance.language}\t{job.utterance.text}", file=index)

    def cut(self) -> None:
        """A capture is never cut."""
