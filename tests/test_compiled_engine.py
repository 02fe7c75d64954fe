"""The rules engine as install.sh builds it: compiled by mypyc into the wheel (build_support/backend.py), the same
rules.

The wheel is built with DOGE_COMPILE_ENGINE=1 from a copy of the tree and installed in a fresh venv (with no
dependencies: the engine needs none); the same copy built again without it must give a plain wheel with no extension
left over from the compiled build. Then the whole engine test suite and the computer players' tests run against the
compiled modules (the venv's site-packages first on the path, so ``companion.engine.state`` and ``companion.bots``
are the extensions; the hard player's search is compiled too), and ``replay --each`` from
that venv prints the very snapshots the checkout prints for a few random games. A C compiler and the package index
are needed, as on the Pi; without a compiler the test says so, and in CI it fails rather than skip.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.helpers import RGB, RGBY, random_game
from tests.test_wheel import PIP, SKIP, run

ROOT = Path(__file__).resolve().parents[1]
STATE, RECORD, BOTS = "companion.engine.state", "companion.engine.record", "companion.bots.players"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the compiled wheel; returns its site-packages."""
    if shutil.which(sysconfig.get_config_var("CC").split()[0]) is None and not os.environ.get("CI"):
        pytest.skip("no C compiler: the compiled engine cannot be built here")
    work = tmp_path_factory.mktemp("compiled")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIP, "*.so"))
    dist = work / "dist"
    environment = {**os.environ, "DOGE_COMPILE_ENGINE": "1"}
    built = subprocess.run(
        [sys.executable, *PIP, "wheel", "--no-deps", "-w", str(dist), str(source)],
        env=environment, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = dist.glob("doge_companion-*.whl")
    assert "-py3-none-any" not in wheel.name, "a compiled wheel is tagged for this interpreter and platform"
    # The same checkout built again without the variable: a plain wheel, nothing left over from the compiled build.
    plain = work / "plain"
    subprocess.run([sys.executable, *PIP, "wheel", "--no-deps", "-w", str(plain), str(source)], check=True, timeout=600)
    (pure,) = plain.glob("doge_companion-*.whl")
    with zipfile.ZipFile(pure) as archive:
        leftovers = [name for name in archive.namelist() if name.endswith(".so")]
    assert pure.name.endswith("-py3-none-any.whl") and not leftovers, leftovers
    target = work / "venv"
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    subprocess.run([str(python), *PIP, "install", "--no-deps", str(wheel)], check=True, timeout=300)
    found = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return Path(found.stdout.strip())


def test_the_engine_suite_passes_on_the_compiled_engine(compiled: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{compiled}{os.pathsep}{ROOT}"}
    probe = subprocess.run(
        [sys.executable, "-c", "; ".join(f"import {name}; print({name}.__file__)" for name in (STATE, RECORD, BOTS))],
        env=env, cwd=compiled, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    files = probe.stdout.split()
    assert len(files) == 3 and all(f.startswith(str(compiled)) and f.endswith(".so") for f in files), probe
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", str(ROOT / "tests/engine"),
         str(ROOT / "tests/test_bots.py")],
        env=env, cwd=compiled, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout[-4000:]
    assert " passed" in tests.stdout and "failed" not in tests.stdout


def test_the_compiled_replay_prints_what_the_checkout_prints(compiled: Path, tmp_path: Path) -> None:
    program = [str(compiled.parents[2] / "bin" / "doge-companion")]
    version = run(program, ["--version"], tmp_path)
    assert version.stdout.strip().endswith("(rules engine compiled with mypyc)"), version
    rng = random.Random(18)
    for index in range(4):
        lines, _snaps, _state = random_game(rng.randrange(10**6), RGBY if index % 2 else RGB)
        record = tmp_path / f"game-{index}.jsonl"
        record.write_text("\n".join(lines) + "\n")
        mine = run(program, ["replay", "--each", str(record)], tmp_path)
        theirs = run([sys.executable, "-m", "companion.cli"], ["replay", "--each", str(record)], tmp_path,
                     PYTHONPATH=str(ROOT))  # fmt: skip
        assert mine.returncode == theirs.returncode == 0, mine.stderr
        assert mine.stdout == theirs.stdout and mine.stdout.count("\n") == len(lines)
