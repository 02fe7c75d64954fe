"""Start-up (issue 18): the first frame of ``run --hardware mock`` loads nothing that mode does not use.

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
