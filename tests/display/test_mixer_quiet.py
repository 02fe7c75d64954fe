"""With no sound card, the simulator says why in one line, not after eight lines ALSA's library printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import os, pygame
from display.mixer import Mixer
try:
    Mixer(pygame)
    print("opened")
except pygame.error as error:
    print("no sound:", error)
"""


def test_no_sound_card_says_one_line() -> None:
    env = {
        **os.environ,
        "SDL_AUDIODRIVER": "alsa",
        "ALSA_CONFIG_DIR": "/nonexistent",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    env["ALSA_CARD"] = "no-such-card"
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "ALSA lib" not in done.stderr, done.stderr
    assert done.stdout.strip().startswith(("no sound:", "opened")), done.stdout
