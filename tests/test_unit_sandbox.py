"""The unit runs where ProtectSystem=strict puts it: lgpio's import-time FIFO has a writable place.

lgpio has no desktop wheel, so ``tests/fake_lgpio`` does exactly what lgpio 0.2.2 does to the file system when it is
imported (traced in its source; see that module). The companion is then started with the unit's ExecStart arguments,
environment and working directory on a read-only file system in which only the unit's writable directories are
writable (``tests/service_sandbox.py``, in a mount namespace of its own), and plays a short scripted game.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from tests.test_service import unit_settings

ROOT = Path(__file__).resolve().parents[1]
FAKE_LGPIO = ROOT / "tests" / "fake_lgpio"


def writable_directories(settings: dict[str, list[str]]) -> list[str]:
    """What ProtectSystem=strict leaves writable for this unit (PrivateTmp's /tmp aside)."""
    found = [f"/run/{name}" for value in settings.get("RuntimeDirectory", []) for name in value.split()]
    found += [f"/var/lib/{name}" for value in settings.get("StateDirectory", []) for name in value.split()]
    return found


def unit_environment(settings: dict[str, list[str]]) -> dict[str, str]:
    """The environment systemd gives the service (those of its variables the companion or lgpio read)."""
    environment = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    for value in settings.get("Environment", []):
        environment.update(word.split("=", 1) for word in shlex.split(value))
    for key, base in (("RuntimeDirectory", "/run"), ("StateDirectory", "/var/lib")):
        if key in settings:
            environment[key.upper().replace("DIRECTORY", "_DIRECTORY")] = f"{base}/{settings[key][0]}"
    return environment


def test_every_import_time_writer_has_a_writable_place() -> None:
    settings = unit_settings()
    assert settings["ProtectSystem"] == ["strict"], "the file system stays read-only"
    writable = writable_directories(settings)
    cwd = settings.get("WorkingDirectory", ["/"])[-1]
    lg_wd = unit_environment(settings).get("LG_WD")
    assert lg_wd is not None, "lgpio writes its FIFO in $LG_WD, else in the working directory"
    assert lg_wd in writable, f"LG_WD={lg_wd} is read-only under ProtectSystem=strict"
    assert cwd == lg_wd, "lgpio chdir()s into LG_WD: relative paths would change under the companion's feet"


def test_the_service_starts_and_plays_on_a_read_only_system_with_lgpio_imported(tmp_path: Path) -> None:
    settings = unit_settings()
    exec_start = shlex.split(settings["ExecStart"][0])
    arguments = exec_start[1:]
    config = tmp_path / "config.toml"
    config.write_text('[display]\ndriver = "capture"\n[pads]\nserial = "off"\n')
    arguments[arguments.index("--config") + 1] = str(config)
    script = tmp_path / "night.txt"
    script.write_text("1 ok\n2 ok\n3 ok\nhost ok\nhost ok\n")
    record = tmp_path / "record.jsonl"
    # --resume: a script keeps to the store the service uses (without it, a script plays in a throw-away store)
    arguments += ["--hardware", "mock", "--script", str(script), "--seed", "3", "--record", str(record), "--resume"]
    # On the Pi, gpiozero imports lgpio before anything else happens; here it is imported first, explicitly.
    prelude = "import sys, lgpio; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    environment = unit_environment(settings) | {"PYTHONPATH": str(FAKE_LGPIO)}
    command = [
        *_namespace(), sys.executable, str(ROOT / "tests" / "service_sandbox.py"),
        *(f"--writable={path}" for path in writable_directories(settings)),
        f"--cwd={settings.get('WorkingDirectory', ['/'])[-1]}",
        *(f"--env={key}={value}" for key, value in environment.items()),
        "--", sys.executable, "-c", prelude, *arguments,
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    written = sorted(line.split(" wrote ")[1] for line in result.stderr.splitlines() if " wrote " in line)
    # docs/building.md, "What it writes" (games.sqlite3-wal and -shm also exist while it runs; a clean stop removes
    # them)
    assert written == [
        "/run/doge-companion/.lgd-nfy0",
        "/var/lib/doge-companion/companion.lock",
        "/var/lib/doge-companion/games.journal",
        "/var/lib/doge-companion/games.sqlite3",
    ]
    lines = record.read_text().splitlines()
    assert lines[0].startswith('{"doge": 1') and len(lines) == 3, "three players joined, two shuffles"


def _namespace() -> list[str]:
    """A mount namespace: as root (CI) directly, else as root of a user namespace of our own."""
    unshare = shutil.which("unshare")
    assert unshare, "unshare (util-linux, on every Debian) is needed"
    mapping = [] if os.geteuid() == 0 else ["--map-root-user"]
    return [unshare, "--mount", "--propagation", "private", *mapping]
