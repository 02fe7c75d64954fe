"""`python3 dev.py start` installs only what starting needs and says what it is doing (the first start once took
~90 s printing two lines and installed every test tool to open a window); `test` then adds its tools and keeps the
rest. pip itself is not run here: its output is canned."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import dev

PIP = """Obtaining file:///home/me/doge
Processing /opt/pypi/files/babel-2.18.0-py3-none-any.whl
Collecting Pillow<14,>=10.0 (from doge-companion==0.1.0)
  Downloading pillow-13.0.0-cp311-cp311-manylinux_2_28_x86_64.whl (7.1 MB)
Collecting pygame<3,>=2.5 (from doge-companion==0.1.0)
Building wheels for collected packages: doge-companion
Installing collected packages: pygame, Pillow, Babel, doge-companion
Successfully installed Babel-2.18.0 Pillow-13.0.0 pygame-2.6.1 doge-companion-0.1.0
"""


class FakePip:
    def __init__(self, status: int = 0) -> None:
        self.stdout = io.StringIO(PIP)
        self.status = status

    def wait(self) -> int:
        return self.status


@pytest.fixture
def venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """dev.py pointed at a venv in tmp_path whose python exists; the pip commands it would run, collected."""
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text("")
    monkeypatch.setattr(dev, "VENV", tmp_path)
    monkeypatch.setattr(dev, "PYTHON", python)
    monkeypatch.setattr(dev, "STAMP", tmp_path / ".installed")
    commands: list[list[str]] = []

    def popen(command: list[str], **_options: Any) -> FakePip:
        commands.append(command)
        return FakePip()

    monkeypatch.setattr(dev.subprocess, "Popen", popen)
    return commands


def test_start_installs_the_simulator_and_babel_and_test_adds_its_tools_keeping_them(
    venv: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    dev.ensure_environment(dev.START)
    assert venv[-1][-3:] == ["-e", ".[sim]", "Babel"] and "--quiet" not in venv[-1]
    out = capsys.readouterr().out
    assert "installing the companion with [sim] and Babel (22 packages, about 25 seconds" in out
    assert "dev.py: [1] babel\ndev.py: [2] Pillow\ndev.py: [3] pygame\n" in out and "unpacking 3 packages" in out
    dev.ensure_environment(dev.START)
    assert len(venv) == 1, "installed: nothing to do"
    dev.ensure_environment(dev.EXTRAS)
    assert venv[-1][-2:] == ["-e", ".[sim,test]"], "the test tools, the simulator kept (Babel comes with them)"
    dev.ensure_environment(dev.START)
    assert len(venv) == 2 and json.loads(dev.STAMP.read_text())["extras"] == ["babel", "sim", "test"]


def test_new_pins_or_an_older_stamp_install_again(venv: list[list[str]]) -> None:
    dev.STAMP.write_text("0123abcd")  # an older dev.py's stamp: a bare hash
    dev.ensure_environment(dev.START)
    assert len(venv) == 1
    stamp = json.loads(dev.STAMP.read_text())
    dev.STAMP.write_text(json.dumps({**stamp, "hash": "other pins"}))
    dev.ensure_environment(dev.START)
    assert len(venv) == 2


def test_a_failing_pip_shows_its_output_and_stops(venv: list[list[str]], monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setattr(dev.subprocess, "Popen", lambda command, **_options: FakePip(status=1))
    with pytest.raises(SystemExit, match="pip failed"):
        dev.ensure_environment(dev.START)
    assert "Successfully installed" in capsys.readouterr().out and not dev.STAMP.exists()
