"""Every benchmark family at a tiny size (``python3 dev.py bench --smoke``): none may hang or rot unseen, and none
may touch a person's own games (``bench flow`` once resumed whatever game the user's store held).

The run gets a home that nothing can be written under (a file, which even root cannot make a directory of), no XDG
or systemd state directory, and an audit hook in every Python process it starts (a ``sitecustomize`` on the path)
that writes down each file, directory or SQLite database opened under that home. The figures are not judged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def benchmarks(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m benchmarks ARGS`` from the checkout, as a developer runs it (a test imports no benchmark)."""
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


HOOK = """
import os, sys

_home = os.path.realpath(os.environ["HOME"])
_log = os.environ["BENCH_HOME_LOG"]
_watched = {"open", "os.mkdir", "os.makedirs", "sqlite3.connect", "os.rename", "os.remove", "shutil.copyfile"}


def _under_home(path):
    try:
        text = os.fsdecode(path)
    except TypeError:
        return False
    full = os.path.realpath(os.path.expanduser(text)) if text not in ("", ":memory:") else ""
    return full == _home or full.startswith(_home + os.sep)


def _hook(event, args):
    if event in _watched and args and isinstance(args[0], (str, bytes, os.PathLike)) and _under_home(args[0]):
        with open(_log, "a") as log:
            log.write(f"{os.getpid()} {event} {args[0]!r} {sys.argv}\\n")


sys.addaudithook(_hook)
"""


def test_every_benchmark_family_runs_at_a_tiny_size_without_touching_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("not a directory: nothing can be created under it\n")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(HOOK)
    log = tmp_path / "under-home.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("XDG_") and key not in ("STATE_DIRECTORY", "PYTHONPATH")
    }
    env.update(HOME=str(home), BENCH_HOME_LOG=str(log), PYTHONPATH=f"{hooks}{os.pathsep}{ROOT}")
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--smoke"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=900,  # a hang guard, not a verdict
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    families = benchmarks("--families").stdout.split()
    assert "engine" in families and "pi" in families, families
    for family in families:
        assert f"smoke: {family} ran in" in result.stdout, result.stdout[-3000:]
    assert not log.exists(), "a benchmark used the home directory:\n" + log.read_text()[:3000]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]


def test_the_readmes_figures_are_the_benchmarks_own() -> None:
    """The README's table is what `python3 dev.py bench --readme` wrote from docs/figures.json, every family's
    figures in it (the table was once copied by hand and went stale); the smoke run above fails when a family
    reports other figures than the file holds."""
    checked = benchmarks("--check-readme")
    assert checked.returncode == 0, checked.stdout + checked.stderr
