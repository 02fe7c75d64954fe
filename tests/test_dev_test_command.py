"""`python3 dev.py test` on any fresh machine (the README's first command): its first line names each missing system
tool with the command that installs it, CI (root, CI set) installs them instead, the verdict is the same on every run,
and random exploration is a run of its own (`test --explore N`). No network and no subprocess: dev.py's steps are
recorded."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import dev
from tests.system_tools import need_tool


def machine_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *tools: str) -> None:
    """PATH holds exactly TOOLS (as stand-in programs) and nothing else of requirements/system.txt."""
    folder = tmp_path / "bin"
    folder.mkdir(parents=True)
    for tool in tools:
        (folder / tool).write_text("#!/bin/sh\n")
        (folder / tool).chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))


class Recorder:
    """What dev.py would have run, in order, and what it printed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.steps: list[tuple[str, ...]] = []
        monkeypatch.setattr(dev, "ensure_environment", lambda *_extras: self.steps.append(("ensure_environment",)))
        monkeypatch.setattr(dev, "compile_catalogs", lambda py: None)
        monkeypatch.setattr(dev, "run", lambda *args: self.steps.append(args) or 0)
        monkeypatch.setattr(subprocess, "run", self.subprocess_run)

    def subprocess_run(self, args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        self.steps.append(tuple(args))
        return subprocess.CompletedProcess(args, 0)


ALL = [row[0] for row in dev.system_tools()]


def test_the_first_line_names_each_missing_tool_its_test_and_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine_with(tmp_path, monkeypatch, *[tool for tool in ALL if tool not in ("chromium", "msgfmt")], "apt-get")
    monkeypatch.delenv("CI", raising=False)
    recorder = Recorder(monkeypatch)
    assert dev.main(["test", "-x"]) == 0
    first, *_rest = capsys.readouterr().out.splitlines()
    assert first == (
        "dev.py: not installed, so their tests are skipped: msgfmt (tests/i18n/test_catalogs.py), chromium "
        "(tests/web/test_browser.py); install with: sudo apt-get install gettext chromium"
    )
    assert recorder.steps[0] == ("ensure_environment",), "said before the venv is made (a fresh clone's first line)"
    assert [step[-1] for step in recorder.steps[1:]] == [".", ".", "mypy", "-x"], "ruff, ruff format, mypy, pytest"


def test_without_apt_get_it_names_the_debian_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine_with(tmp_path, monkeypatch)  # macOS, say: none of them, and no apt-get
    monkeypatch.delenv("CI", raising=False)
    Recorder(monkeypatch)
    dev.main(["test"])
    first = capsys.readouterr().out.splitlines()[0]
    assert all(f"{tool} (tests/" in first for tool in ALL)
    assert first.endswith("your system's package manager (gettext chromium mmdebstrap systemd-container gcc systemd "
                          "espeak-ng alsa-utils qemu-user-static binfmt-support arch-test genimage dosfstools mtools "
                          "e2fsprogs qemu-system-arm device-tree-compiler initramfs-tools-core on Debian)")  # fmt: skip


def test_nothing_is_said_when_every_tool_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine_with(tmp_path, monkeypatch, *ALL)
    Recorder(monkeypatch)
    dev.main(["test"])
    assert "not installed" not in capsys.readouterr().out


def test_as_root_in_ci_it_installs_them_with_apt_get(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    machine_with(tmp_path, monkeypatch, *[tool for tool in ALL if tool != "chromium"], "apt-get")
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    recorder = Recorder(monkeypatch)
    dev.main(["test"])
    assert recorder.steps[:2] == [("apt-get", "update", "-qq"), ("apt-get", "install", "-y", "-qq", "chromium")]
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "dev.py: installing chromium (apt-get, as root with CI set)"
    assert "not installed" in out[1], "still missing after apt-get (the stand-in installed nothing): said"
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    recorder.steps.clear()
    dev.main(["test"])
    assert not [step for step in recorder.steps if step[0] == "apt-get"], "not root: it only says so"


def test_ci_runs_the_readmes_command_and_nothing_else() -> None:
    """.ci/run installs nothing itself any more: dev.py does, so the README's command is the whole of CI."""
    steps = [line for line in (dev.ROOT / ".ci" / "run").read_text().splitlines() if line and line[0] != "#"]
    assert steps[-1] == "python3 dev.py test" and not [step for step in steps if "apt-get" in step]


def test_a_missing_tool_skips_its_test_outside_ci_and_fails_it_in_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine_with(tmp_path, monkeypatch, "apt-get")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"msgfmt is not installed \(install with: sudo apt-get install "
                       r"gettext\)"):  # fmt: skip
        need_tool("msgfmt")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run this test"):
        need_tool("msgfmt")
    machine_with(tmp_path / "more", monkeypatch, "msgfmt")
    assert need_tool("msgfmt") == str(tmp_path / "more" / "bin" / "msgfmt")


def test_the_suite_draws_the_same_examples_on_every_run_ci_or_not() -> None:
    """The README's command gives CI's verdict: hypothesis's examples are derived from each test, not drawn at
    random, and no database of earlier failures changes what runs (conftest's "fixed" profile, CI set or not)."""
    if os.environ.get("DOGE_HYPOTHESIS") == "explore":
        pytest.skip("an exploring run draws random examples on purpose")
    assert settings().derandomize and settings().database is None


def test_explore_runs_the_property_tests_round_after_round_with_new_seeds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    recorder = Recorder(monkeypatch)
    monkeypatch.setenv("DOGE_HYPOTHESIS", "fixed")
    assert dev.main(["test", "--explore", "3", "tests/engine"]) == 0
    rounds = [step for step in recorder.steps if "-m" in step and "hypothesis" in step]
    assert len(rounds) == 3 and all(step[-1] == "tests/engine" for step in rounds)
    seeds = {step[5] for step in rounds}
    assert len(seeds) == 3 and all(seed.startswith("--hypothesis-seed=") for seed in seeds)
    assert os.environ["DOGE_HYPOTHESIS"] == "explore"
    assert "3 of 3 exploring rounds passed" in capsys.readouterr().out
    assert dev.main(["test", "--explore"]) == 64
