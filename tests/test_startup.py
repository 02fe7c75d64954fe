"""Start-up (``bench startup``): the first frame of ``run --hardware mock`` loads nothing that mode does not use.

The time itself is the benchmark's business (``python3 dev.py bench pi``); this only checks which modules are loaded,
in a fresh interpreter, so a later import at module level cannot quietly bring them back.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys, threading
from companion.system import config
from companion.app import App
data = config.load(search=False).data
data["game"]["state_dir"] = sys.argv[1]
data["display"]["driver"] = "capture"
data["pads"]["serial"] = "off"
app = App(config.Settings(data, None), seed=1)
app.run(threading.Event(), script=[])
app.close()
assert app.screen is not None, "the first frame was shown"
print(" ".join(sorted(name for name in sys.modules if name.split(".")[0] in {
    "gpiozero", "pygame", "serial", "secrets", "colorzero"} or name == "companion.bots"
)))
"""


def test_the_first_frame_on_simulated_hardware_loads_no_gpio_serial_pygame_or_computer_players(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []


COMMAND_PROBE = """
import atexit, pathlib, runpy, sys
loaded, config, script = sys.argv[1:4]
atexit.register(lambda: pathlib.Path(loaded).write_text(" ".join(sorted(sys.modules))))
sys.argv = ["doge-companion", "run", "--config", config, "--hardware", "mock", "--script", script]
runpy.run_module("companion.cli", run_name="__main__")
"""


def test_a_scripted_run_of_the_command_loads_no_package_metadata(tmp_path: Path) -> None:
    """``doge-companion run`` with an empty script, as the start-up benchmark times it: importlib.metadata (with the
    email package it brings, a tenth of such a start's imports) is only for the line that names a missing extra."""
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{tmp_path}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n')
    script = tmp_path / "none.txt"
    script.write_text("")
    loaded = tmp_path / "modules.txt"
    result = subprocess.run(
        [sys.executable, "-c", COMMAND_PROBE, str(loaded), str(config), str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    modules = loaded.read_text().split()
    assert "companion.app.app" in modules, "the command got as far as the app"
    assert [name for name in modules if name.startswith("importlib.metadata")] == []
