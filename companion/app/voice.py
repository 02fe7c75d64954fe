"""The App's voice: public sentences handed over on the game thread, said by a speaker thread off it.

What is said comes from the game flow's announcer (flow/announcer.py), which reads public facts only; the App hands
its sentences over after the frame is shown, so the screen never waits for the voice. Where it is heard depends on
the way of running: ALSA on the Pi (``sound.device``), the simulator's window (pygame's mixer), WAV files with
``run --audio DIR``; simulated hardware without a window has no speaker. ``sound.voice = "off"`` means no speaker
at all (``--audio`` still captures: the command line asked for it).

The host's level (the board check's sound page) is kept beside the game store, ``sound.json``, so a table that
asked for quiet is not woken by a power cut; it is kept only until the config's own ``sound.volume`` changes.
Nothing about an utterance is logged but counts.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hardware.sound_cards import choose_device
from hardware.speaker import Speaker
from hardware.speech import Alsa, Engine, Espeak, Output, WavCapture

from ..flow.announcer import Announcer
from ..flow.context import Context
from ..flow.sound import Sound, level_sentence
from ..i18n import language

log = logging.getLogger(__package__)

LEVEL_FILE = "sound.json"
FLUSH_S = 60.0  # a capture's utterances are all on disk before the App closes (a hang guard: about 700x real time)


class Voice:
    def __init__(self, sound: Mapping[str, Any], level_file: Path | None) -> None:
        self.enabled = sound["voice"] == "on"
        self.rate = sound["rate"]
        self.volume = sound["volume"]
        self.level_file = level_file
        self.level = self._kept_level()
        self.speaker: Speaker | None = None
        self.device: str | None = None  # the ALSA device, on a Pi: the sound page names it
        self.capture = False
        self.announcer = Announcer()

    def start(self, output: Output, engine: Engine | None = None) -> None:
        """Speak through ``output`` from now on (the App at start; the simulator once its mixer is open)."""
        if not (self.enabled or output.keeps_all) or self.speaker is not None:
            return
        self.capture = output.keeps_all
        self.speaker = Speaker(engine or Espeak(), output, rate=self.rate, volume=self.level)

    def say(self, text: str, moment: object = None, adds: bool = False) -> None:
        """A public sentence, on the game thread: handed over in microseconds, for ``moment`` (hardware/speaker.py:
        only a later utterance of the same moment cuts it; ``adds``: it queues behind its moment's)."""
        if self.speaker is not None:
            self.speaker.say(text, language(), moment, adds)

    def hear(self, controller: Context) -> None:
        """After each step: what the announcer says of the moment the game is at (flow/announcer.py), and the sound
        page's facts for the next frame."""
        self.describe(controller.seats.sound)
        sentences = self.announcer.update(controller)
        if sentences:  # one utterance a moment (or what joined it): the speaker keeps it whole
            self.say(" ".join(sentences), self.announcer.said_key, self.announcer.joins)

    def repeat(self, controller: Context) -> None:
        """The table's repeat key (a held left): the moment it is at, said again in full, in place of what the voice
        is saying of it."""
        sentences = self.announcer.again(controller)
        if sentences:
            self.say(" ".join(sentences), self.announcer.said_key)

    def describe(self, sound: Sound) -> None:
        """What the sound page shows: the level, and why nothing can be heard (a fault is found on the speaker's
        thread, after start)."""
        sound.level, sound.device = self.level, self.device
        if self.speaker is None:
            sound.silent = "config" if not self.enabled else "no speaker"
        else:
            sound.silent = self.speaker.fault

    def set_level(self, level: int) -> None:
        """The host's new level: applied, kept, and said at that level so they hear what they chose."""
        self.level = level
        if self.speaker is not None:
            self.speaker.set_volume(level)
        self._keep_level()
        if level:
            self.say(level_sentence(level), "level")  # a newer level replaces it

    def close(self) -> None:
        speaker, self.speaker = self.speaker, None
        if speaker is None:
            return
        if self.capture and not speaker.flush(FLUSH_S):
            log.error("sound: the capture was not finished in %d s; the last files may be cut short", FLUSH_S)
        speaker.close()
        counts = (speaker.said, speaker.cut_short, speaker.dropped, speaker.failed)
        if any(counts):
            log.info("sound: %d said, %d cut short, %d dropped for newer ones, %d failed", *counts)

    def _kept_level(self) -> int:
        if self.level_file is None:
            return int(self.volume)
        try:
            kept = json.loads(self.level_file.read_text())
            if kept.get("volume") == self.volume and type(kept.get("level")) is int and 0 <= kept["level"] <= 100:
                return int(kept["level"])
        except (OSError, ValueError, AttributeError):  # none kept yet, or not ours: the config's level
            pass
        return int(self.volume)

    def _keep_level(self) -> None:
        """Written whole or not at all (a power cut mid-write leaves the old level)."""
        if self.level_file is None:
            return
        partial = self.level_file.with_name(self.level_file.name + ".new")
        try:
            with partial.open("w") as handle:
                json.dump({"level": self.level, "volume": self.volume}, handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(partial, self.level_file)
        except OSError as error:
            log.warning("sound: the level could not be kept for the next start (%s)", error.strerror)


def build_voice(settings: Any, store_path: Path | None, audio: Path | None, output: Output | None) -> Voice:
    """The App's voice for these settings: a capture with ``audio``, the given ``output`` (tests, benchmarks), ALSA
    on the Pi; simulated hardware waits for a window's mixer."""
    voice = Voice(settings["sound"], store_path.with_name(LEVEL_FILE) if store_path is not None else None)
    if audio is not None:
        output = WavCapture(audio)
    elif output is None and settings["hardware"] == "pi":
        choice = choose_device(settings["sound"]["device"], home=Path.home())
        if voice.enabled:
            log.info("sound: plays on %s", choice.why)  # one line at each start (docs/sound.md)
        output, voice.device = Alsa(choice.device), choice.device
    if output is not None:
        voice.start(output)
    return voice
