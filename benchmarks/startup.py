"""Start-up (issue 18): from spawning ``doge-companion run --hardware mock`` to its first frame.

The companion tells systemd READY=1 right after it has shown its first screen (``companion/notify.py``); this
benchmark listens on a NOTIFY_SOCKET of its own, so it times the unmodified command, interpreter start included,
exactly as the service manager sees it. The command runs on simulated hardware with a capture display and no keypads,
and an empty script makes it stop right after the first frame. Bytecode goes to a private PYTHONPYCACHEPREFIX: runs
with it written beforehand (as ``pip install`` compiles the Pi's non-editable install) and runs with none at all.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = '[game]\nstate_dir = "{folder}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'


def first_frame(pycache: Path, write: bool = True) -> tuple[float, float]:
    """Seconds from spawn to READY=1 for one run, and the CPU seconds of the whole process (to its exit, right after
    the first frame), bytecode cached in ``pycache`` (written there if ``write``)."""
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.toml"
        config.write_text(CONFIG.format(folder=folder))
        script = Path(folder) / "none.txt"
        script.write_text("")
        address = str(Path(folder) / "notify")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(address)
        listener.settimeout(120)
        command = [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock",
                   "--script", str(script)]  # fmt: skip
        env = {**os.environ, "NOTIFY_SOCKET": address, "PYTHONPYCACHEPREFIX": str(pycache)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not write:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        try:
            while not listener.recv(4096).startswith(b"READY=1"):
                pass
            wall = time.perf_counter() - started
            _pid, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            return wall, usage.ru_utime + usage.ru_stime
        finally:
            if child.returncode is None:
                child.kill()
                child.wait(timeout=120)
            listener.close()


def start_to_frame(runs: int = 7) -> dict[str, float]:
    """Median seconds to the first frame with all bytecode compiled (as pip installs it), and of ``cold`` runs with
    none at all (every module compiled from source at each start)."""
    with tempfile.TemporaryDirectory() as cache:
        cold = statistics.median(first_frame(Path(cache), write=False)[0] for _ in range((runs + 1) // 2))
        first_frame(Path(cache))  # writes the bytecode
        warm = [first_frame(Path(cache))[0] for _ in range(runs)]
    return {"compiled": statistics.median(warm), "cold": cold, "max": max(warm)}


def main(smoke: bool = False) -> None:
    """``smoke``: one run of each kind (the test suite's run)."""
    print("start-up: spawn -> first frame (READY=1), run --hardware mock, capture display")
    figures = start_to_frame(1 if smoke else 7)
    print(f"{'process start -> first frame (byte-compiled)':<44} median {figures['compiled'] * 1000:7.0f} ms   "
          f"(max {figures['max'] * 1000:.0f} ms); without any bytecode {figures['cold'] * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
