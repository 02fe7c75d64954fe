"""The base install and its extras, --version, and journald priorities (docs/installing.md)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import companion
from companion.system import extras, logs

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_printed_and_is_the_packages() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--version"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0 and result.stdout.strip() == f"doge-companion {companion.__version__}"


def test_pyproject_has_an_spdx_licence_pillow_and_an_extra_for_each_mode() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert any(req.startswith("setuptools>=77") for req in project["build-system"]["requires"]), "SPDX needs 77"
    assert [dep.split(">")[0] for dep in project["project"]["dependencies"]] == ["Pillow"]
    optional = project["project"]["optional-dependencies"]
    names = {"gpiozero": "gpiozero", "luma.core": "luma.core", "luma.lcd": "luma.lcd", "serial": "pyserial"}
    names["pygame"] = "pygame"
    for _mode, (extra, modules) in extras.NEEDS.items():
        listed = " ".join(optional[extra])
        for module in modules:
            assert names[module] in listed, f"[{extra}] must bring {module}"


def test_a_missing_library_gives_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    assert extras.missing("mock", "run") is None, "the dev environment has everything"
    monkeypatch.setattr(extras, "installed", lambda module: module != "gpiozero")
    monkeypatch.setattr(extras, "install_source", lambda: "'/src/doge")
    line = extras.missing("mock", "run")
    assert line == "doge-companion run: gpiozero not installed; install it with: pip install '/src/doge[mock]'"
    monkeypatch.setattr(extras, "installed", lambda module: module not in ("pygame", "serial"))
    assert extras.missing("sim", "sim") == (
        "doge-companion sim: pyserial, pygame not installed; install them with: pip install '/src/doge[sim]'"
    )


def test_the_install_source_is_where_this_copy_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a name on an index (the package is not published): the wheel file or the checkout pip recorded."""

    class Recorded:
        def __init__(self, text: str | None) -> None:
            self.text = text

        def read_text(self, name: str) -> str | None:
            assert name == "direct_url.json"
            return self.text

    for recorded, expected in (
        ('{"url": "file:///home/pi/doge_companion-0.1.0-py3-none-any.whl", "archive_info": {}}',
         "'/home/pi/doge_companion-0.1.0-py3-none-any.whl"),
        ('{"url": "file:///home/pi/doge%20companion", "dir_info": {"editable": true}}', "-e '/home/pi/doge companion"),
        (None, f"'{ROOT}"),
    ):  # fmt: skip
        monkeypatch.setattr(metadata, "distribution", lambda name, r=recorded: Recorded(r))
        assert extras.install_source() == expected


def test_priorities_follow_syslog() -> None:
    assert [logs.priority(level) for level in (50, 40, 30, 20, 10)] == [2, 3, 4, 6, 7]


def test_journal_lines_carry_their_priority_only_when_stderr_is_the_journal(tmp_path: Path) -> None:
    """A real run with stderr on a file that JOURNAL_STREAM names, as systemd connects it: a damaged game store
    (a warning: moved aside) and the info lines of a headless run each carry their priority."""
    state = tmp_path / "state"
    state.mkdir()
    (state / "games.sqlite3").write_bytes(b"not a database at all" * 100)
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{state}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n')
    script = tmp_path / "s.txt"
    script.write_text("1 ok\n")
    command = [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock"]
    command += ["--script", str(script), "--resume"]  # the real store (a script alone plays in a throw-away one)
    outputs = []
    for journal in (True, False):
        log_file = tmp_path / f"stderr-{journal}"
        (state / "games.sqlite3").write_bytes(b"not a database at all" * 100)
        with log_file.open("w") as stderr:
            status = os.fstat(stderr.fileno())
            env = {**os.environ, "JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}" if journal else "1:2"}
            subprocess.run(command, stderr=stderr, stdout=subprocess.DEVNULL, env=env, cwd=ROOT, timeout=60, check=True)
        outputs.append(log_file.read_text().splitlines())
    journal_lines, plain_lines = outputs
    assert any(line.startswith("<4>WARNING companion.store: game store moved aside") for line in journal_lines)
    assert all(line[:3] in ("<2>", "<3>", "<4>", "<6>", "<7>") for line in journal_lines)
    assert plain_lines and not any(line.startswith("<") for line in plain_lines)


def test_the_formatter_prefixes_every_line_of_a_multi_line_message() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "one\ntwo", None, None)
    assert logs.JournalFormatter("%(message)s").format(record) == "<3>one\n<3>two"


def test_a_bad_config_under_the_journal_is_an_error(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\ndriver = "nonsense"\n')
    log_file = tmp_path / "stderr"
    with log_file.open("w") as stderr:
        status = os.fstat(stderr.fileno())
        env = {**os.environ, "JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}
        command = [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock"]
        result = subprocess.run(command, stderr=stderr, env=env, cwd=ROOT, timeout=60)
    lines = log_file.read_text().splitlines()
    assert result.returncode == 78 and lines and all(line.startswith("<3>") for line in lines)


def test_sim_with_no_display_says_so_in_one_line_and_exits(tmp_path: Path) -> None:
    """Installed, `doge-companion sim` is typed without dev.py's check: with no display it must not run unseen."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    environment |= {"PYTHONPATH": str(ROOT), "LANGUAGE": "en", "XDG_STATE_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "sim"], capture_output=True, text=True, timeout=120, env=environment,
        stdin=subprocess.DEVNULL, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "doge-companion sim: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set); "
        "without a desktop, run: doge-companion run --hardware mock"
    ]
    assert not any(tmp_path.iterdir()), "no game store made for a window that cannot open"


def test_screens_without_out_writes_the_checkouts_docs_never_the_working_directorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An installed copy (no checkout around it) needs --out; a checkout's default is its own docs/screens."""
    from companion.cli import command as cli
    from companion.cli import gallery

    written: list[Path] = []
    monkeypatch.setattr(gallery, "write", lambda out: written.append(out) or [out / "a.png"])
    monkeypatch.chdir(tmp_path)
    assert cli.main(["screens"]) == 0 and written == [ROOT / "docs" / "screens"]
    installed = tmp_path / "site-packages" / "companion" / "cli" / "command.py"
    monkeypatch.setattr(cli, "__file__", str(installed))
    assert cli.main(["screens"]) == 64
    assert capsys.readouterr().err == "doge-companion screens: say where to write them: --out DIR\n"
    assert cli.main(["screens", "--out", "shots"]) == 0 and written[-1] == Path("shots")
    assert list(tmp_path.iterdir()) == [], "nothing written into the working directory"


def test_the_metadata_says_where_the_project_lives_and_what_it_runs_on() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert {"Homepage", "Issues", "Record format"} <= set(project["urls"])
    assert all(url.startswith("https://") for url in project["urls"].values())
    classifiers = project["classifiers"]
    assert "License :: OSI Approved :: MIT License" not in classifiers, "the SPDX license field says it (PEP 639)"
    for version in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert {"Natural Language :: German", "Natural Language :: Italian"} <= set(classifiers)


def test_every_dependency_has_an_upper_bound_before_its_next_major_version() -> None:
    """A new major version of a library may break the companion: the lock files pin, these bounds keep a refresh
    (python3 dev.py lock) from jumping over one."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    requirements = [*project["project"]["dependencies"], *project["build-system"]["requires"]]
    for extra in project["project"]["optional-dependencies"].values():
        requirements += extra
    unbounded = [req for req in requirements if "<" not in req.split(";")[0] and not req.startswith("setuptools")]
    assert unbounded == []


def test_docs_building_lists_the_summary_pictures_among_what_the_service_writes() -> None:
    readme = (ROOT / "docs" / "building.md").read_text()
    writes = readme[readme.index("**What it writes, and nothing else:**") :].split("\n\n")[0]
    assert "game-<id>-summary.png" in writes and "/var/lib/doge-companion/" in writes
    app = (ROOT / "companion" / "app" / "app.py").read_text()
    assert 'f"game-{game}-summary.png"' in app, "the name docs/building.md gives is the one the service writes"
