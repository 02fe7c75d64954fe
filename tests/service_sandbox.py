"""Runs a command the way systemd would run the unit's ExecStart, as far as the file system goes.

Usage (as root, in a fresh mount namespace): ``unshare --mount --propagation private python3 service_sandbox.py
--writable DIR ... --cwd DIR [--env K=V ...] -- COMMAND ...``

Why not systemd itself: CI has no systemd as PID 1. What ``ProtectSystem=strict`` does is simple to reproduce with
mounts: every file system read-only except the unit's writable directories (``RuntimeDirectory=`` under /run,
``StateDirectory=`` under /var/lib; ``PrivateTmp=`` keeps /tmp writable). Those directories are created on fresh
tmpfs mounts, never on this machine's own /run or /var/lib, and everything vanishes with the namespace. Then the
command starts in the unit's working directory (systemd refuses to start a unit whose WorkingDirectory= is missing,
so does this) with exactly the unit's environment. At the end it lists the files left in the writable directories.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

KEEP_WRITABLE = ("/proc", "/sys", "/dev", "/tmp")


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True)


def mount_points() -> list[str]:
    with open("/proc/self/mountinfo") as info:
        return [line.split()[4] for line in info]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writable", action="append", default=[])
    parser.add_argument("--cwd", required=True)
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    writable = [os.path.normpath(path) for path in args.writable]
    for parent in sorted({os.path.dirname(path) for path in writable}):
        mount("-t", "tmpfs", "-o", "mode=0755", "sandbox", parent)
    for path in writable:
        os.makedirs(path, mode=0o700, exist_ok=True)
        mount("--bind", path, path)
    mount("--bind", "/tmp", "/tmp")  # PrivateTmp=: a writable /tmp (here the host's, where the test's files are)
    for point in mount_points():
        inside = [point == keep or point.startswith(keep + "/") for keep in (*KEEP_WRITABLE, *writable)]
        if not any(inside):
            subprocess.run(["mount", "-o", "remount,bind,ro", point], check=False, capture_output=True)
    # Probed where nothing is kept writable: the checkout itself may sit under /tmp (a fresh clone in CI, say).
    if any(_can_write(path) for path in ("/etc", "/usr", "/var")):
        print("service_sandbox: the file system is still writable", file=sys.stderr)
        return 125
    try:
        os.chdir(args.cwd)
    except OSError as error:
        print(f"service_sandbox: Changing to the requested working directory failed: {error}", file=sys.stderr)
        return 200  # systemd's EXIT_CHDIR
    environment = dict(item.split("=", 1) for item in args.env)
    status = subprocess.run(command, env=environment).returncode
    for path in writable:  # what the service left there, for the test to compare with what docs/building.md says
        for folder, _dirs, files in os.walk(path):
            for name in files:
                print(f"service_sandbox: wrote {os.path.join(folder, name)}", file=sys.stderr)
    return status


def _can_write(directory: str) -> bool:
    probe = os.path.join(directory, f".sandbox-probe-{os.getpid()}")
    try:
        with open(probe, "w"):
            pass
    except OSError:
        return False
    os.unlink(probe)
    return True


if __name__ == "__main__":
    sys.exit(main())
