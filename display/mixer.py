"""The simulator's own audio: the voice through pygame's mixer (SDL), played on the window's thread.

The speaker's thread renders an utterance whole (a few milliseconds: eSpeak NG runs hundreds of times faster than
real time) and posts it as an event; the window's loop plays it on one channel, where a newer one replaces it and a
cut stops it. pygame's event queue is the one thing both threads may touch.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from hardware.speech import Job


class Mixer:
    keeps_all = False

    def __init__(self, pygame: Any, sample_rate: int = 22050) -> None:
        """Raises ``pygame.error`` when there is no audio device (the simulator then goes on silently)."""
        self.pygame = pygame
        self.sample_rate = sample_rate
        # As asked or not at all (allowedchanges=0): SDL converts, so the engine's PCM plays at its own pitch.
        with quiet_c_library():
            pygame.mixer.init(sample_rate, -16, 1, 1024, allowedchanges=0)
        self.channel = pygame.mixer.Channel(0)
        self.event = pygame.event.custom_type()
        self.played = 0
        self.stopped = 0

    def problem(self, sample_rate: int) -> str | None:
        if sample_rate != self.sample_rate:
            return f"the window's audio runs at {self.sample_rate} Hz, the engine's at {sample_rate} Hz"
        return None

    def play(self, job: Job, pcm: Iterable[bytes], sample_rate: int) -> None:
        sound = b"".join(pcm)
        if not job.stopped:
            self._post(sound)

    def cut(self) -> None:
        self._post(b"")

    def _post(self, sound: bytes) -> None:
        with suppress(self.pygame.error):  # the window closed first
            self.pygame.event.post(self.pygame.event.Event(self.event, sound=sound))

    def handle(self, event: Any) -> None:
        """On the window's thread: play what the event carries (replacing what plays), or stop."""
        if event.sound:
            self.channel.play(self.pygame.mixer.Sound(buffer=event.sound))
            self.played += 1
        else:
            self.channel.stop()
            self.stopped += 1


@contextmanager
def quiet_c_library() -> Iterator[None]:
    """The process's stderr closed while a C library opens the sound device: with no sound card, ALSA's library
    writes eight lines of its own configuration errors there before SDL reports the one that matters, which the
    simulator then says in one line (tests/display/test_mixer_quiet.py). Python's own errors still raise as
    exceptions."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
