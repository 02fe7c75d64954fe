"""The companion as a Pi owner installs it: an sdist and a wheel built from this repository by ``python -m build``,
each in a fresh venv outside it (docs/installing.md).

The editable install the other tests use reads every file straight from the checkout, so a file missing from
``package-data`` (the German and Italian catalogs were) or from the sdist (the in-tree build backend was) only shows
here. Both are built from a copy of the working tree (no build files left in the checkout) as ``python -m build``
builds them: the sdist first, the wheel from the unpacked sdist. The wheel is installed first alone -- its only
dependency is Pillow -- and then with the ``[mock]`` extra by the very command its missing-extra line prints.
Everything runs from a directory outside the repository with ``PYTHONPATH`` unset, and is compared with the same
commands run from the checkout. Packages come from the machine's configured indexes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "shots")
PIP = ["-m", "pip", "--disable-pip-version-check", "--quiet"]
SCRIPT = "1 ok\n2 ok\n3 ok\nhost left\nhost ok\nhost ok\n1 ok\n1 right\n1 ok\n1 ok\n1 back\n2 ok\n"
BAD_RECORD = '{"doge": 1, "players": ["red", "blue", "green"]}\n{"player": "red", "houses": 1}\n'


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sdist, wheel), as ``python -m build`` makes them from a copy of the tree."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIP))
    dist = work / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)], capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (sdist,) = dist.glob("doge_companion-*.tar.gz")
    (wheel,) = dist.glob("doge_companion-*.whl")
    return sdist, wheel


def test_the_sdist_carries_the_sources_and_the_wheel_the_compiled_catalogs(built: tuple[Path, Path]) -> None:
    sdist, wheel = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"build_support/backend.py", "build_support/catalogs.py", "babel.cfg", "companion/locale/de.po"} <= names
    with zipfile.ZipFile(wheel) as archive:
        inside = set(archive.namelist())
    for language in ("de", "it"):
        assert f"companion/locale/{language}/LC_MESSAGES/companion.mo" in inside
    assert not [name for name in inside if name.endswith(".po")]
    assert "companion/py.typed" in inside, "a typed package (PEP 561): docs/engine.md's API is checked where it is used"


# What the suite reads beside the package: the tests themselves, the docs they check, the benchmarks they run, the
# keypad's firmware, the service's files, the locks and the system tools' list (MANIFEST.in grafts them).
SUITE_FOLDERS = ("tests", "docs", "benchmarks", "hardware/firmware", "systemd", "requirements")
# A part of the suite that reads those files from the tree it runs in (not the package): cheap, and each would fail
# on an sdist without them.
SUITE_PART = ["tests/test_docs_links.py", "tests/test_locks.py", "tests/test_dev_test_command.py",
              "tests/engine/test_engine_doc.py", "tests/hardware/test_firmware_boot.py"]  # fmt: skip


def test_the_whole_suite_runs_from_the_sdist(built: tuple[Path, Path], tmp_path: Path) -> None:
    """Unpacked, the sdist is a tree the suite runs in (it once held 24 of the 125 files under tests/,
    and pytest found 13 collection errors there): every file of the folders the suite reads is in it, the whole
    suite collects without an error, and a part of it that reads those files passes."""
    with tarfile.open(built[0]) as archive:
        archive.extractall(tmp_path, filter="data")
    (tree,) = tmp_path.glob("doge_companion-*")
    source = built[0].parent.parent / "source"  # the copy of the working tree the sdist was built from
    for folder in SUITE_FOLDERS:
        wanted = {path.relative_to(source) for path in (source / folder).rglob("*") if path.is_file()}
        assert wanted and wanted <= {path.relative_to(tree) for path in (tree / folder).rglob("*")}, folder
    assert {"dev.py", "install.sh", ".ci/run", "pyproject.toml"} <= {str(p.relative_to(tree)) for p in tree.rglob("*")}
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    pytest_here = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    collected = subprocess.run(
        [*pytest_here, "--collect-only"], cwd=tree, env=env, capture_output=True, text=True, timeout=300
    )
    assert collected.returncode == 0 and " error" not in collected.stdout.splitlines()[-1], collected.stdout[-3000:]
    files = {line.split("::")[0] for line in collected.stdout.splitlines() if "::" in line}
    assert files == {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")}, "every test file"
    part = subprocess.run([*pytest_here, *SUITE_PART], cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    assert part.returncode == 0, part.stdout[-3000:] + part.stderr[-2000:]
    assert str(tree) in subprocess.run(
        [sys.executable, "-c", "import companion; print(companion.__file__)"], cwd=tree, env=env, capture_output=True,
        text=True, timeout=60,
    ).stdout, "the sdist's own package ran, not the checkout's"  # fmt: skip


def fresh_venv(folder: Path, *requirements: str) -> Path:
    """A new venv with REQUIREMENTS installed; returns its bin directory."""
    venv.create(folder, with_pip=True)
    bin_dir = folder / "bin"
    subprocess.run([str(bin_dir / "python"), *PIP, "install", *requirements], check=True, timeout=600)
    return bin_dir


@pytest.fixture(scope="module")
def installed(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel (base install only); returns the venv's bin directory."""
    return fresh_venv(tmp_path_factory.mktemp("wheel") / "venv", str(built[1]))


def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir(exist_ok=True)
    return folder


def run(program: list[str], args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LANGUAGE", "LC_ALL", "LANG")}
    environment.update(env)
    return subprocess.run(
        [*program, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def here(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The same command from the checkout, for comparison."""
    return run([sys.executable, "-m", "companion.cli"], args, cwd, PYTHONPATH=str(ROOT), **env)


def test_the_wheel_runs_from_its_own_venv_in_german_and_italian(installed: Path, tmp_path: Path) -> None:
    cwd = outside(tmp_path)
    program = [str(installed / "doge-companion")]
    where = run([str(installed / "python"), "-c", "import companion, display; print(companion.__file__)"], [], cwd)
    assert str(installed.parent) in where.stdout, "imported from the venv, not the checkout"
    record = cwd / "bad.jsonl"
    record.write_text(BAD_RECORD)
    for language in ("de", "it"):
        result = run(program, ["replay", str(record)], cwd, LANGUAGE=language)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr == here(["replay", str(record)], cwd, LANGUAGE=language).stderr
        assert result.stderr != here(["replay", str(record)], cwd, LANGUAGE="en").stderr, "translated"
        helped = run(program, ["check-config", "--help"], cwd, LANGUAGE=language)
        assert helped.stdout == here(["check-config", "--help"], cwd, LANGUAGE=language).stdout
    good = cwd / "good.jsonl"
    good.write_text(BAD_RECORD.splitlines()[0] + "\n")
    assert run(program, ["replay", str(good)], cwd).stdout == here(["replay", str(good)], cwd).stdout
    config = cwd / "config.toml"
    config.write_text('[game]\nlanguage = "de"\n[display]\ndriver = "st7735"\n')
    checked = run(program, ["check-config", str(config)], cwd, LANGUAGE="it")
    assert checked.returncode == 0 and checked.stdout == here(["check-config", str(config)], cwd, LANGUAGE="it").stdout
    config.write_text('[display]\ndriver = "nonsense"\n')
    checked = run(program, ["check-config", str(config)], cwd, LANGUAGE="de")
    assert checked.returncode == 78 and "Traceback" not in checked.stderr and checked.stderr.strip()
    version = run(program, ["--version"], cwd)
    assert version.returncode == 0 and version.stdout.startswith("doge-companion 0.")
    assert run([str(installed / "python"), "-m", "companion"], ["--version"], cwd).stdout == version.stdout
    replayed = run([str(installed / "python"), "-m", "companion"], ["replay", str(good)], cwd)
    assert replayed.returncode == 0 and replayed.stdout == here(["replay", str(good)], cwd).stdout


def test_the_base_install_names_the_extra_a_mode_needs(
    installed: Path, built: tuple[Path, Path], tmp_path: Path
) -> None:
    commands = {}
    for args in (["run", "--hardware", "mock"], ["sim"], ["screens", "--out", "shots"], ["run", "--hardware", "pi"]):
        result = run([str(installed / "doge-companion")], args, outside(tmp_path))
        assert result.returncode == 1
        extra = args[-1] if args[0] == "run" else "sim"
        (line,) = result.stderr.strip().splitlines()
        assert line.endswith(f"pip install '{built[1]}[{extra}]'"), line
        commands[extra] = line.split(": ")[-1]
    # The command as printed works (the package is on no index: it names the wheel this copy came from).
    pip, *args = shlex.split(commands["mock"])
    assert pip == "pip"
    added = subprocess.run([str(installed / "python"), *PIP, *args], capture_output=True, text=True, timeout=600)
    assert added.returncode == 0, added.stderr
    assert run([str(installed / "python"), "-c", "import gpiozero, luma.core, serial"], [], tmp_path).returncode == 0


def play(program: list[str] | None, cwd: Path, name: str, language: str) -> list[str]:
    """The README's scripted game (docs/scripted-input.md) on mock hardware: the hashes of its screens."""
    script = cwd / "night.txt"
    script.write_text(SCRIPT)
    state, shots, record = cwd / f"state-{name}-{language}", cwd / f"shots-{name}-{language}", cwd / "r.jsonl"
    config = cwd / f"config-{name}.toml"
    config.write_text(
        f'[game]\nlanguage = "{language}"\nstate_dir = "{state}"\n[display]\ndriver = "capture"\n'
        '[pads]\nserial = "off"\n'
    )
    args = ["run", "--config", str(config), "--hardware", "mock", "--script", str(script), "--seed", "4"]
    args += ["--screenshots", str(shots), "--record", str(record)]
    result = run(program, args, cwd) if program else here(args, cwd)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    header = json.loads(record.read_text().splitlines()[0])
    assert header["players"] == ["red", "blue", "green"]
    return [hashlib.sha256(frame.read_bytes()).hexdigest() for frame in sorted(shots.iterdir())]


def test_a_scripted_game_from_the_wheel_matches_the_checkout_in_both_languages(
    installed: Path, built: tuple[Path, Path], tmp_path: Path
) -> None:
    extra = subprocess.run(
        [str(installed / "python"), *PIP, "install", f"{built[1]}[mock]"], capture_output=True, text=True, timeout=600
    )
    assert extra.returncode == 0, extra.stderr
    cwd = outside(tmp_path)
    for language in ("de", "it"):
        wheel = play([str(installed / "doge-companion")], cwd, "wheel", language)
        assert len(wheel) >= 8
        assert wheel == play(None, cwd, "here", language), f"the same {language} screens, pixel for pixel"


def test_the_sdist_installs_in_a_fresh_venv_and_plays_the_scripted_game(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """pip builds the sdist itself here (the in-tree backend, the catalogs compiled at build time)."""
    bin_dir = fresh_venv(tmp_path / "venv", f"doge-companion[mock] @ {built[0].as_uri()}")
    cwd = outside(tmp_path)
    where = run([str(bin_dir / "python"), "-c", "import companion; print(companion.__file__)"], [], cwd)
    assert str(bin_dir.parent) in where.stdout, "imported from the venv, not the checkout"
    sdist = play([str(bin_dir / "doge-companion")], cwd, "sdist", "it")
    assert len(sdist) >= 8 and sdist == play(None, cwd, "here", "it"), "the same screens as the checkout"
