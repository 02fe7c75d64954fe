"""Start-up (tests/test_startup.py holds what it loads): from spawning ``doge-companion run --hardware mock`` to its
first frame.

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

from . import figures

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


REPLAY_LINES = 1000


def ordinary_record(folder: Path, lines: int = REPLAY_LINES) -> Path:
    """An ordinary record of ``lines`` lines: a 4-player random game with "t" stamps (cut at ``lines``: an unfinished
    game is a valid record), every 8th line with its "t" first, as another program may write it (12% of the lines)."""
    import json
    import random

    from .engine import PLAYERS, record_random

    seed = 0
    while len(texts := record_random(random.Random(seed), PLAYERS[4], stamped=True)) < lines:
        seed += 1
    texts = texts[:lines]
    for number in range(8, lines, 8):
        value = json.loads(texts[number])
        texts[number] = json.dumps({"t": value.pop("t"), **value})
    path = folder / "ordinary.jsonl"
    path.write_text("\n".join(texts) + "\n")
    return path


def _command() -> list[str]:
    """The command a person types (the console script beside this interpreter), else the module."""
    script = Path(sys.executable).with_name("doge-companion")
    return [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]


def editable_install() -> bool:
    """Whether this interpreter finds the companion through an editable install's start-up hook (the dev venv's
    ``pip install -e``): that hook imports pathlib (and re, fnmatch, contextlib...) in every process, the bare
    ``python -c pass`` too, so both sides carry it; a regular install (install.sh's wheel) does not, and there the bare
    start is shorter and the ratio higher."""
    import sysconfig

    return any(Path(sysconfig.get_paths()["purelib"]).glob("__editable__*doge_companion*"))


def replay_ratio(rounds: int = 21) -> dict[str, float]:
    """``doge-companion replay`` of an ordinary record against a bare ``python -c pass``, interleaved round by round
    (whatever else the machine does touches both alike), bytecode cached; medians in seconds and their ratio."""
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
        record = ordinary_record(Path(folder))
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        bare = [sys.executable, "-c", "pass"]
        replay = [*_command(), "replay", str(record)]
        subprocess.run(replay, env=env, check=True, stdout=subprocess.DEVNULL)  # writes the bytecode
        times: dict[str, list[float]] = {"bare": [], "replay": []}
        for _round in range(rounds):
            for name, command in (("bare", bare), ("replay", replay)):
                started = time.perf_counter()
                subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - started)
        script = replay[1:] if replay[0] == sys.executable else replay  # the console script itself: no runpy
        imports = import_times([sys.executable, "-X", "importtime", *script], env)
    result = {name: statistics.median(values) for name, values in times.items()}
    result["ratio"] = result["replay"] / result["bare"]
    result.update(imports)
    return result


def import_times(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """Seconds each top-level import took (``-X importtime``: cumulative, its own imports included)."""
    stderr = subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).stderr
    found: dict[str, float] = {}
    for line in stderr.decode().splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2][1:]
        if not name.startswith(" "):  # nested imports are indented
            found["import " + name.strip()] = int(parts[1]) / 1e6
    return found


def main(smoke: bool = False) -> None:
    """``smoke``: one run of each kind (the test suite's run)."""
    print("start-up: spawn -> first frame (READY=1), run --hardware mock, capture display")
    starts = start_to_frame(1 if smoke else 7)
    print(f"{'process start -> first frame (byte-compiled)':<44} median {starts['compiled'] * 1000:7.0f} ms   "
          f"(max {starts['max'] * 1000:.0f} ms); without any bytecode {starts['cold'] * 1000:.0f} ms")  # fmt: skip
    replay = replay_ratio(1 if smoke else 21)
    print(f"{f'replay, {REPLAY_LINES}-line record, as a process':<44} median {replay['replay'] * 1000:7.1f} ms = "
          f"{replay['ratio']:.2f}x a bare python -c pass ({replay['bare'] * 1000:.1f} ms; interleaved, bytecode "
          f"cached; information, no budget)")  # fmt: skip
    slowest = sorted((key for key in replay if key.startswith("import ")), key=lambda key: -replay[key])[:6]
    install = "an editable install (the dev venv)" if editable_install() else "a regular install"
    print(f"{'  measured on':<44} {install}: {sys.executable}")
    print(f"{'  its imports (-X importtime, cumulative)':<44} " + ", ".join(
        f"{key[7:]} {replay[key] * 1000:.1f} ms" for key in slowest))  # fmt: skip
    figures.report("process start to first frame here, `run --hardware mock`, byte-compiled (no bytecode)",
                   f"{starts['compiled'] * 1000:.0f} ms ({starts['cold'] * 1000:.0f} ms)")  # fmt: skip
    figures.report("`replay` of a 1,000-line record as a process, against a bare `python -c pass` (interleaved)",
                   f"{replay['replay'] * 1000:.0f} ms = {replay['ratio']:.2f}x ({replay['bare'] * 1000:.0f} ms)",
                   "information")  # fmt: skip


if __name__ == "__main__":
    main()
