#!/usr/bin/env python3
"""One entry point for developers: sets up its own virtual environment, then runs what you ask.

    python3 dev.py start      # the companion in a window on simulated hardware (doge-companion sim)
    python3 dev.py start --no-window ARGS   # the same, headless (doge-companion run --hardware mock ARGS)
    python3 dev.py test       # lint, type-check and run the whole test suite (what CI runs)
    python3 dev.py test --stress N   # the same N times in a row, every core kept busy by a load it starts itself
    python3 dev.py bench      # print the benchmark figures (bench --smoke: every family at a tiny size)
    python3 dev.py catalogs   # bring companion/locale/*.po in line with the code's texts (then translate)
    python3 dev.py lock       # refresh the pinned versions in requirements/*.txt (then run the tests)
    python3 dev.py run ARGS   # any doge-companion command, e.g. `python3 dev.py run replay game.jsonl`

Needs only Python 3.11+ and access to PyPI. The environment lives in .venv, installed with the pinned versions of
requirements/dev.txt, and is refreshed when pyproject.toml or the pins change. `start` and `run` install only the
simulator's packages (about 20 seconds); `test`, `bench`, `catalogs` and `lock` add the test tools.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"
EXTRAS = ("sim", "test")  # what test, bench, lock and catalogs need
START = ("babel", "sim")  # what start and run need: the simulator, and Babel to compile the catalogs
# pip's line as it starts on a package: fetched from an index, or a wheel file it was pointed at
PACKAGE = re.compile(r"Collecting ([A-Za-z0-9_.-]+)|Processing \S*/([A-Za-z0-9_.]+?)-\d\S*\.whl")
PINS = ROOT / "requirements" / "dev.txt"
# The lock files, each made by uv from pyproject.toml for where it is used: development and CI on any machine from
# Python 3.11 on; the Pi (Raspberry Pi OS Bookworm: Python 3.11, glibc 2.36), 64-bit and 32-bit, with what building
# the wheel there needs. uv cannot target 32-bit ARM by name, so that lock is a universal one (its markers choose).
LOCKS = {
    "dev.txt": ["--extra", "test", "--extra", "sim", "--universal"],
    "pi-aarch64.txt": ["requirements/build.in", "--extra", "pi", "--python-platform", "aarch64-manylinux_2_36"],
    "pi-armv7l.txt": ["requirements/build.in", "--extra", "pi", "--universal"],
}


def ensure_environment(extras: tuple[str, ...] = EXTRAS) -> None:
    """The venv with the companion and ``extras`` installed at the pinned versions; what an earlier command installed
    stays (`start` installs the simulator, `test` then adds its tools), and all of it is refreshed when
    pyproject.toml or the pins change. pip's progress is shown a package a line."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py is what runs on an older Python
        sys.exit(f"dev.py: Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + PINS.read_bytes()).hexdigest()
    installed = read_stamp(wanted)
    # A copy of the package in the venv (a plain or compiled `pip install .`) would run instead of the checkout.
    copied = any(VENV.glob("lib/python*/site-packages/companion/__init__.py"))
    if copied:
        print("dev.py: the venv holds an installed copy of the companion, not this checkout: reinstalling", flush=True)
    elif set(extras) <= installed and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("dev.py: creating the virtual environment in .venv", flush=True)
        venv.create(VENV, with_pip=True)
        installed = set()
    extras = tuple(sorted(set(extras) | installed))
    names = ",".join(extra for extra in extras if extra != "babel")
    more = ["Babel"] if "babel" in extras and "test" not in extras else []  # the test tools include it
    print(f"dev.py: installing the companion with [{names}]{' and Babel' if more else ''} (about "
          f"{'45 packages, a minute' if 'test' in extras else '25 packages, 20 seconds'}; pinned in {PINS.name})",
          flush=True)  # fmt: skip
    command = [str(PYTHON), "-m", "pip", "install", "--progress-bar", "off", "--disable-pip-version-check"]
    command += ["-c", str(PINS), "-e", f".[{names}]", *more]
    started = time.monotonic()
    status = install(command)
    if status:
        sys.exit(f"dev.py: pip failed (status {status}); run again, or see pip's output above")
    STAMP.write_text(json.dumps({"hash": wanted, "extras": sorted(extras)}))
    print(f"dev.py: installed in {time.monotonic() - started:.0f} s", flush=True)


def read_stamp(wanted: str) -> set[str]:
    """The extras the venv holds at the pins of ``wanted`` (none if the pins changed or the stamp is an older one)."""
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return set()
    if not isinstance(stamp, dict) or stamp.get("hash") != wanted:
        return set()
    extras = {extra for extra in stamp.get("extras", []) if isinstance(extra, str)}
    return extras | {"babel"} if "test" in extras else extras  # the test tools include Babel


def install(command: list[str]) -> int:
    """Run pip, showing a line for each package it fetches and its last word, and everything if it fails."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    output = []
    count = 0
    for line in process.stdout:
        output.append(line)
        if collecting := PACKAGE.match(line):
            count += 1
            print(f"dev.py: [{count}] {collecting[1] or collecting[2]}", flush=True)
        elif line.startswith("Installing collected packages"):
            print(f"dev.py: unpacking {count} packages into .venv", flush=True)
    status = process.wait()
    if status:
        sys.stdout.write("".join(output))
    return status


def compile_catalogs(py: str) -> None:
    """The checkout's .mo files from its .po sources (a wheel gets them at build time; they are not committed)."""
    subprocess.run([py, str(ROOT / "build_support" / "catalogs.py"), "compile"], cwd=ROOT, check=True)


def lock(py: str) -> int:
    """Every lock file anew from pyproject.toml, with the newest versions its bounds allow."""
    for name, args in LOCKS.items():
        command = [py, "-m", "uv", "pip", "compile", "--quiet", "pyproject.toml", *args, "--python-version", "3.11"]
        command += ["--custom-compile-command", "python3 dev.py lock", "-o", f"requirements/{name}"]
        status = run(*command)
        if status:
            return status
    return 0


def run(*args: str) -> int:
    print("$", " ".join(args), flush=True)
    return subprocess.run(args, cwd=ROOT).returncode


def replace_with(*args: str) -> int:
    """Become the command (signals such as Ctrl-C and SIGTERM then reach it directly)."""
    sys.stdout.flush()
    if os.name == "nt":
        return subprocess.run(args).returncode
    os.execv(args[0], list(args))


def test(py: str, pytest_args: list[str]) -> int:
    for step in (
        (py, "-m", "ruff", "check", "."),
        (py, "-m", "ruff", "format", "--check", "."),
        (py, "-m", "mypy"),
        (py, "-m", "pytest", *pytest_args),
    ):
        status = run(*step)
        if status:
            return status
    return 0


BUSY_LOOP = "while True:\n    pass\n"


def stress(py: str, args: list[str]) -> int:
    """`test --stress N`: the whole of `test` N times in a row while one busy process per core competes for the CPU,
    as on a shared CI machine. A suite whose verdicts depend on speed fails here; one that does not passes every run.
    """
    at = args.index("--stress")
    try:
        runs = int(args[at + 1])
    except (IndexError, ValueError):
        print("dev.py: --stress needs a number of runs, e.g. python3 dev.py test --stress 10", file=sys.stderr)
        return 64
    rest = args[:at] + args[at + 2 :]
    cores = os.cpu_count() or 2
    load = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(cores)]
    print(f"dev.py: {runs} runs of the whole test, with {cores} busy processes as load", flush=True)
    results: list[tuple[int, float]] = []
    try:
        for number in range(1, runs + 1):
            started = time.monotonic()
            status = test(py, rest)
            results.append((status, time.monotonic() - started))
            print(f"dev.py: stress run {number}/{runs}: {'passed' if status == 0 else 'FAILED'} "
                  f"in {results[-1][1]:.0f} s", flush=True)  # fmt: skip
    finally:
        for process in load:
            process.kill()
            process.wait()
    failed = sum(1 for status, _seconds in results if status)
    print("dev.py: stress summary")
    for number, (status, seconds) in enumerate(results, 1):
        print(f"  run {number:>2}: {'passed' if status == 0 else 'FAILED'}  {seconds:6.0f} s")
    times = [seconds for _status, seconds in results]
    print(f"  {len(results) - failed} of {len(results)} passed; {min(times):.0f} to {max(times):.0f} s a run")
    return 1 if failed else 0


def no_display(environ: dict[str, str] | os._Environ[str] = os.environ, platform: str = sys.platform) -> bool:
    """Linux with no X11 or Wayland display and no SDL video driver chosen: a window cannot open."""
    if not platform.startswith("linux") or environ.get("SDL_VIDEODRIVER"):
        return False
    return not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "help"
    if command not in ("start", "test", "bench", "run", "catalogs", "lock"):
        print(__doc__)
        return 0 if command in ("help", "-h", "--help") else 64
    window = "--no-window" not in argv[1:]
    if command == "start" and window and no_display():
        print(
            "dev.py start: there is no display (DISPLAY and WAYLAND_DISPLAY are not set) for the simulator's window.\n"
            "  Run it on a desktop, or without a window: python3 dev.py start --no-window --autoplay 1 "
            "--screenshots shots/\n  (SDL_VIDEODRIVER=dummy python3 dev.py start runs the window invisibly)",
            file=sys.stderr,
        )
        return 2
    ensure_environment(START if command in ("start", "run") else EXTRAS)  # the test tools come with `test`
    py = str(PYTHON)
    if command == "lock":
        return lock(py)
    if command == "catalogs":
        status = run(py, "build_support/catalogs.py", "update")
        return status or run(py, "build_support/catalogs.py", "compile")
    compile_catalogs(py)
    if command == "test":
        if "--stress" in argv[1:]:
            return stress(py, argv[1:])
        return test(py, argv[1:])
    if command == "start" and not window:  # the same companion headless: doge-companion run --hardware mock
        rest = [arg for arg in argv[1:] if arg != "--no-window"]
        return replace_with(str(BIN / "doge-companion"), "run", "--hardware", "mock", *rest)
    if command == "start":
        return replace_with(str(BIN / "doge-companion"), "sim", *argv[1:])
    if command == "bench":
        return run(py, "-m", "benchmarks", *argv[1:])
    return replace_with(str(BIN / "doge-companion"), *argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
