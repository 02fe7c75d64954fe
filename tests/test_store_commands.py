"""games, export and recover where the store is not theirs to touch: an export into the state directory (it would
replace a copy of the store with the public record) and a user who may not read the state directory, or write where
--out points, are each one line and a sysexits status, never a traceback and never a changed store."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_cli_outputs import ROOT, doge

EXIT_CANT_CREATE = 73  # sysexits' EX_CANTCREAT
EXIT_NO_PERMISSION = 77  # sysexits' EX_NOPERM


def stored_game(folder: Path) -> Path:
    """A state directory holding one game, and a config file naming it."""
    from companion.engine import dump_header
    from companion.store import Store

    store = Store(folder / "state")
    store.new_game(dump_header(["red", "blue", "green"]))
    store.close()
    config = folder / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{folder / "state"}"\n')
    return config


def copies(state: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(state.iterdir())}


@pytest.mark.parametrize(
    "name", ["state/games.journal", "state/games.sqlite3", "state/public.jsonl", "link/games.journal"]
)
def test_an_export_into_the_state_directory_is_refused_and_the_store_is_unchanged(tmp_path: Path, name: str) -> None:
    config = stored_game(tmp_path)
    (tmp_path / "link").symlink_to(tmp_path / "state")  # the same folder by another name
    before = copies(tmp_path / "state")
    result = doge("export", "1", "--out", str(tmp_path / name), "--config", str(config), cwd=tmp_path)
    assert result.returncode == EXIT_CANT_CREATE, result.stderr
    assert result.stderr.count("\n") == 1 and "is in the state directory" in result.stderr, result.stderr
    assert copies(tmp_path / "state") == before
    elsewhere = doge("export", "1", "--out", str(tmp_path / "public.jsonl"), "--config", str(config), cwd=tmp_path)
    assert elsewhere.returncode == 0 and (tmp_path / "public.jsonl").read_text().startswith("{"), elsewhere.stderr


@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp_path is root's own, 0700), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="doge-perm-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def as_nobody(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The CLI as another user than the state directory's owner (root, here: it would ignore the permissions)."""
    return subprocess.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable, "-m", "companion.cli",
         *args],
        cwd=cwd, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(cwd)},
    )  # fmt: skip


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to become another user")
@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["games"], "cannot read {state}: run it as root or with sudo"),
        (["export", "1"], "cannot read {state}: run it as root or with sudo"),
        (["recover", "1"], "cannot read {state}: run it as root or with sudo"),
        (["export", "1", "--out", "{state}/../mine/x.jsonl"], "cannot write {mine}/x.jsonl: run it as root"),
    ],
)
def test_another_users_state_directory_is_one_line_naming_it_and_its_owner(
    shared: Path, args: list[str], named: str
) -> None:
    config = stored_game(shared)
    (shared / "state").chmod(0o700)  # as the service keeps it: its user's alone
    (shared / "mine").mkdir(mode=0o700)
    config.chmod(0o644)
    before = copies(shared / "state")
    state = str(shared / "state")
    result = as_nobody(*(arg.format(state=state) for arg in args), "--config", str(config), cwd=shared)
    assert result.returncode == EXIT_NO_PERMISSION, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"the user nobody {named.format(state=state, mine=shared / 'mine')}" in result.stderr, result.stderr
    assert copies(shared / "state") == before
