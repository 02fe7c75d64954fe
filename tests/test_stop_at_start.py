"""A stop asked for while the companion is still opening its hardware or its window ends it with status 0 within
STOP_GRACE_S, as a stop during play does: the SIGTERM handler is there from the command's first line (it was set
only once the App stood, and a stop before that killed the process by the signal)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The child: the real command, with an App that announces itself and then takes long to open (a slow SPI display).
CHILD = """
import sys, time
from companion.app import app as module
from companion.cli.command import main

opening = module.App.__init__

def slow(self, *args, **kwargs):
    print("opening", flush=True)
    time.sleep(600)
    opening(self, *args, **kwargs)

module.App.__init__ = slow
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", [["run", "--hardware", "mock"], ["sim"]])
def test_a_stop_while_the_app_opens_ends_the_process_with_status_0(tmp_path: Path, command: list[str]) -> None:
    env = {
        **os.environ,
        "XDG_STATE_HOME": str(tmp_path),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYTHONPATH": str(ROOT),
    }
    config = tmp_path / "config.toml"
    config.write_text('[pads]\nserial = "off"\n[sound]\nvoice = "off"\n[web]\nenabled = false\n')
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, *command, "--config", str(config)],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "opening\n", process.communicate()
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=120)  # a hang guard: the opening alone takes 600 s
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Traceback" not in err
