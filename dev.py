#!/usr/bin/env python3
"""One entry point for developers: sets up its own virtual environment, then runs what you ask.

    python3 dev.py start      # the companion in a window on simulated hardware (doge-companion sim)
    python3 dev.py start --no-window ARGS   # the same, headless (doge-companion run --hardware mock ARGS)
    python3 dev.py test       # lint, type-check and run the whole test suite (what CI runs): the same verdict each time
    python3 dev.py test --stress N   # the same N times in a row, every core kept busy by a load it starts itself
    python3 dev.py test --explore N  # the property tests N rounds with new random examples each (a longer run)
    python3 dev.py bench      # print the benchmark figures (bench --smoke: every family at a tiny size)
    python3 dev.py catalogs   # bring companion/locale/*.po in line with the code's texts (then translate)
    python3 dev.py lock       # upgrade the pinned versions in requirements/*.txt to the newest (then run the tests)
    python3 dev.py run ARGS   # any doge-companion command, e.g. `python3 dev.py run replay game.jsonl`
    sudo python3 dev.py image # the card image: dist/doge-companion-<version>-arm64.img.xz (build_support/image)

Needs only Python 3.11+ and access to PyPI. The environment lives in .venv, installed with the pinned versions of
requirements/dev.txt, and is refreshed when pyproject.toml or the pins change. `start` and `run` install only the
simulator's packages (22, about 25 seconds); `test`, `bench`, `catalogs` and `lock` add the test tools (43 in all,
about 2 minutes). A few tests also
need system tools (requirements/system.txt): `test` names the missing ones in its first line, with the command that
installs them, and skips those tests; as root with CI set (.ci/run) it installs them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Mapping
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
# What pip installs from an empty .venv at the pins, the companion aside, and how long it took with no pip cache
# (PIP_NO_CACHE_DIR=1, on a 2-core machine over a fast line): start's [sim] and Babel 22 packages, 17 s of pip, 25 s
# with the venv made; [sim,test] 43 packages, 98 s, 111 s. Measured again whenever the pins change much.
INSTALLS = {False: "22 packages, about 25 seconds", True: "43 packages, about 2 minutes"}
SYSTEM_TOOLS = ROOT / "requirements" / "system.txt"
# The lock files, each made by uv for where it is used: development and CI on any machine from Python 3.11 on; the
# Pi (Raspberry Pi OS Bookworm: Python 3.11, glibc 2.36), 64-bit and 32-bit, with what building the wheel there
# needs; and the floor, Debian bookworm's own versions (requirements/floor.in, tests/test_floor.py). uv cannot target
# 32-bit ARM by name, so that lock is a universal one (its markers choose). The 64-bit Pi's lock carries every file's
# hash and install.sh requires them; the 32-bit one cannot (Pi OS's pip takes piwheels' own builds, whose hashes
# PyPI does not list), nor dev.txt (pip refuses the editable install of the checkout in hash-checking mode).
LOCKS = {
    "dev.txt": ["pyproject.toml", "--extra", "test", "--extra", "sim", "--universal"],
    "pi-aarch64.txt": ["pyproject.toml", "requirements/build.in", "--extra", "pi", "--python-platform",
                       "aarch64-manylinux_2_36", "--generate-hashes"],
    "pi-armv7l.txt": ["pyproject.toml", "requirements/build.in", "--extra", "pi", "--universal"],
    # luma.core's optional back-ends (FTDI, the Pi's RPi.GPIO) and spidev, which the floor test does not use
    "floor.txt": ["requirements/floor.in", "--python-platform", "x86_64-manylinux_2_36", *(
        arg for name in ("rpi-gpio", "pyftdi", "pyusb", "pyserial-asyncio", "spidev")
        for arg in ("--no-emit-package", name))],
}  # fmt: skip


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
    print(f"dev.py: installing the companion with [{names}]{' and Babel' if more else ''} "
          f"({INSTALLS['test' in extras]}; pinned in {PINS.name})", flush=True)  # fmt: skip
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
    """Every lock file anew, with the newest versions the bounds allow (--upgrade: uv would otherwise keep the
    versions a lock already names)."""
    for name, args in LOCKS.items():
        command = [py, "-m", "uv", "pip", "compile", "--quiet", "--upgrade", *args, "--python-version", "3.11"]
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


def system_tools() -> list[tuple[str, str, str]]:
    """(command, Debian package, test file) for each line of requirements/system.txt."""
    rows = []
    for line in SYSTEM_TOOLS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            command, package, test_file = line.split()
            rows.append((command, package, test_file))
    return rows


def missing_tools(which: Callable[[str], str | None] = shutil.which) -> list[tuple[str, str, str]]:
    return [row for row in system_tools() if which(row[0]) is None]


def install_line(packages: list[str], apt: bool | None = None) -> str:
    """The command that installs PACKAGES (Debian's names), or where to look without apt-get."""
    names = " ".join(dict.fromkeys(packages))
    if apt if apt is not None else shutil.which("apt-get") is not None:
        return f"sudo apt-get install {names}"
    return f"your system's package manager ({names} on Debian)"


def tools_line(missing: list[tuple[str, str, str]]) -> str:
    """One line: each missing tool with the tests it costs, and how to install them all."""
    named = ", ".join(f"{command} ({test_file})" for command, _package, test_file in missing)
    return (
        f"dev.py: not installed, so their tests are skipped: {named}; "
        f"install with: {install_line([package for _command, package, _file in missing])}"
    )


def preflight(environ: Mapping[str, str] = os.environ) -> None:
    """The first line of `test`: the system tools some tests need and this machine lacks. As root with CI set (CI
    runs as root, .ci/run) they are installed instead, as CI always did; whatever is still missing is named."""
    missing = missing_tools()
    root = getattr(os, "geteuid", lambda: -1)() == 0
    if missing and environ.get("CI") and root and shutil.which("apt-get"):
        packages = list(dict.fromkeys(package for _command, package, _file in missing))
        print(f"dev.py: installing {' '.join(packages)} (apt-get, as root with CI set)", flush=True)
        quiet = {**environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], env=quiet, check=False)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", *packages], env=quiet, stdout=subprocess.DEVNULL, check=False
        )
        missing = missing_tools()
    if missing:
        print(tools_line(missing), flush=True)


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


def counted(args: list[str], option: str, what: str) -> tuple[int, list[str]] | None:
    """N of `OPTION N` in ARGS and the other arguments, or None after saying how it is given."""
    at = args.index(option)
    try:
        return int(args[at + 1]), args[:at] + args[at + 2 :]
    except (IndexError, ValueError):
        print(f"dev.py: {option} needs a number of {what}, e.g. python3 dev.py test {option} 10", file=sys.stderr)
        return None


def explore(py: str, args: list[str]) -> int:
    """`test --explore N`: the property tests (hypothesis's) N rounds, each with new random examples. The suite's
    own run draws the same examples every time, so that its verdict never changes from run to run; this longer run
    looks further. A failure it finds is printed with the seed that repeats it and kept in .hypothesis/, which every
    later exploring round tries first."""
    parsed = counted(args, "--explore", "rounds")
    if parsed is None:
        return 64
    rounds, rest = parsed
    os.environ["DOGE_HYPOTHESIS"] = "explore"
    failed = []
    for number in range(1, rounds + 1):
        seed = random.randrange(2**32)
        status = run(py, "-m", "pytest", "-m", "hypothesis", f"--hypothesis-seed={seed}", *rest)
        again = " ".join(["DOGE_HYPOTHESIS=explore .venv/bin/python -m pytest -m hypothesis",
                          f"--hypothesis-seed={seed}", *rest])  # fmt: skip
        print(f"dev.py: explore round {number}/{rounds}: {'passed' if status == 0 else 'FAILED'} (repeat it: {again})",
              flush=True)  # fmt: skip
        if status:
            failed.append(seed)
    print(f"dev.py: {rounds - len(failed)} of {rounds} exploring rounds passed")
    return 1 if failed else 0


BUSY_LOOP = "while True:\n    pass\n"


def stress(py: str, args: list[str]) -> int:
    """`test --stress N`: the whole of `test` N times in a row while one busy process per core competes for the CPU,
    as on a shared CI machine. A suite whose verdicts depend on speed fails here; one that does not passes every run.
    """
    parsed = counted(args, "--stress", "runs")
    if parsed is None:
        return 64
    runs, rest = parsed
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
    if command not in ("start", "test", "bench", "run", "catalogs", "lock", "image"):
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
    if command == "image":  # standard library only: no venv, run as root
        from build_support.image import build

        return build.main(argv[1:])
    if command == "test":
        preflight()  # before the venv is made: on a fresh machine this is the first line
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
        if "--explore" in argv[1:]:
            return explore(py, argv[1:])
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
