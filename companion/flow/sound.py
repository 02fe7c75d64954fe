"""The host's sound setting during a game: a page of the board check (host back, then left), where ok steps the
voice up and, after the loudest, off.

The flow only shows the level and asks for a change (an ``Effect("sound")``); the App applies it to the speaker and
keeps it across restarts (companion/app/voice.py), so the game flow stays free of hardware. The page is reached the
same way from any moment of a game, and the way out of a game (right past the last board page) stays where it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from display.screen import Line, Screen

from ..i18n import _, pgettext, spoken_number

LEVELS = (0, 20, 40, 60, 80, 100)  # percent; 0 is off
Silent = Literal["config", "engine", "device", "no speaker"]


@dataclass
class Sound:
    """What the App tells the flow: the level, and why the table hears nothing whatever the level (None: it can)."""

    level: int = 0
    silent: Silent | None = "no speaker"
    device: str | None = None  # the ALSA device it plays on (docs/sound.md, "Which device plays"), on a Pi

    @property
    def adjustable(self) -> bool:
        return self.silent not in ("config", "no speaker")

    def next_level(self) -> int:
        return next((level for level in LEVELS if level > self.level), 0)

    def turn_up(self) -> int:
        """The host's ok on the sound page: the next level, after the loudest off."""
        self.level = self.next_level()
        return self.level


def sound_view(sound: Sound) -> Screen:
    level = _("Voice: {level}%").format(level=sound.level) if sound.level else _("Voice: off")
    why = {
        "config": _("The voice is off in the config (sound.voice)."),
        "no speaker": _("Simulated hardware without a window has no speaker."),
        "engine": _("No voice: the speech engine espeak-ng is not installed (docs/sound.md)."),
        "device": _("No sound: the audio device cannot play (the log says why)."),
    }
    lines = [Line(why[sound.silent], "normal")] if sound.silent in ("config", "no speaker") else [Line(level, "large")]
    if sound.adjustable:
        lines.append(Line(_("ok: louder; after 100%, off. It stays so after a restart."), "small"))
        if sound.device:  # the card's name (plughw:CARD=Headphones: Headphones) fits the smallest display
            card = sound.device.split("CARD=", 1)[-1].split(",", 1)[0]
            lines.append(Line(_("Plays on {device}").format(device=card), "small"))
        if sound.silent is not None:
            lines.append(Line(why[sound.silent], "small", "red"))
    footer = _("ok: louder   right: board   back: close") if sound.adjustable else _("right: board   back: close")
    return Screen(_("Sound"), tuple(lines), footer=footer, tags=("sound",))


def level_sentence(level: int) -> str:
    """Said at the new level when the host changes it, so they hear what they chose."""
    return pgettext("spoken", "The voice at {level} percent.").format(level=spoken_number(level))
