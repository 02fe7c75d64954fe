"""What the image build needs of the machine it runs on, and the way it runs and shows its slow commands."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

# The host tools the build runs (their Debian packages in requirements/system.txt)
TOOLS = {
    "mmdebstrap": "mmdebstrap",
    "qemu-aarch64-static": "qemu-user-static",
    "update-binfmts": "binfmt-support",
    "arch-test": "arch-test",
    "genimage": "genimage",
    "mkfs.vfat": "dosfstools",
    "mcopy": "mtools",
    "mke2fs": "e2fsprogs",
    "xz": "xz-utils",
    "dtc": "device-tree-compiler",  # the SPI overlay, and each shipped DTB read back
    "fdtoverlay": "device-tree-compiler",
}


class BuildError(Exception):
    """A step of the build failed: the message says which and what to do."""


def problems() -> list[str]:
    """Why this machine cannot build an image, one line each (empty: it can)."""
    found = []
    if os.geteuid() != 0:
        found.append("it needs root (a chroot, and files owned by the image's users): sudo python3 dev.py image")
    absent = [package for tool, package in TOOLS.items() if shutil.which(tool) is None]
    if absent:
        found.append(f"missing tools: sudo apt-get install {' '.join(dict.fromkeys(absent))}")
    return found


def enable_arm64() -> None:
    """arm64 programs run here through qemu-user (binfmt_misc); mounted and enabled if a container left it off."""
    if subprocess.run(["arch-test", "arm64"], capture_output=True).returncode == 0:
        return
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)], check=False)
    subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], capture_output=True, check=False)
    if subprocess.run(["arch-test", "arm64"], capture_output=True).returncode != 0:
        raise BuildError("this machine cannot run arm64 programs (arch-test arm64): install qemu-user-static and "
                         "binfmt-support, and mount binfmt_misc (mount -t binfmt_misc binfmt_misc "
                         "/proc/sys/fs/binfmt_misc)")  # fmt: skip


def say(message: str) -> None:
    print(f"image: {message}", flush=True)


def run(command: Sequence[str], what: str, env: dict[str, str] | None = None, quiet: bool = False,
        shown: re.Pattern[str] | None = None) -> str:  # fmt: skip
    """COMMAND with its lines shown as they come (prefixed, with the seconds so far; only those matching SHOWN if
    given) unless QUIET; its output. A failure says which step, with the output's last lines."""
    started = time.monotonic()
    process = subprocess.Popen(
        list(command), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, errors="replace"
    )
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line)
        if not quiet and (shown is None or shown.match(line)):
            sys.stdout.write(f"  {time.monotonic() - started:5.0f}s  {line}")
            sys.stdout.flush()
    if process.wait():
        tail = "".join(lines[-30:]) if quiet or shown else ""
        raise BuildError(f"{what} failed (status {process.returncode}): {tail}{' '.join(command)[:300]}")
    return "".join(lines)


def mounted_under(tree: Path) -> list[str]:
    """The mount points at or under TREE (/proc/self/mounts; its octal escapes of spaces left as they are)."""
    prefix = str(tree.resolve())
    points = [line.split()[1] for line in Path("/proc/self/mounts").read_text().splitlines()]
    return [point for point in points if point == prefix or point.startswith(prefix + "/")]


def remove_tree(tree: Path) -> None:
    """TREE deleted, never while anything is mounted in it (a chroot's /dev is the host's own)."""
    if busy := mounted_under(tree):
        raise BuildError(f"{tree} still has {busy[0]} mounted in it: nothing removed (umount it, then build again)")
    if tree.exists() or tree.is_symlink():
        subprocess.run(["rm", "-rf", "--one-file-system", str(tree)], check=True)


@contextmanager
def chroot_mounts(root: Path) -> Iterator[None]:
    """/proc, /sys, /dev, the host's name servers and certificate authorities inside ROOT while a chroot runs there
    (pip in it trusts what the host's pip trusts: a proxy's own authority too), unmounted after. Each mount is
    private and /dev is bound without what is mounted under it, so that two builds at once never see each other's."""
    mounts = [(["-t", "proc", "proc"], root / "proc"), (["-t", "sysfs", "sysfs"], root / "sys"),
              (["--bind", "/dev"], root / "dev")]  # fmt: skip
    authorities = Path("/etc/ssl/certs/ca-certificates.crt")
    if authorities.exists() and (root / authorities.relative_to("/")).exists():
        mounts.append((["--bind", "-o", "ro", str(authorities)], root / authorities.relative_to("/")))
    done: list[Path] = []
    resolv = root / "etc" / "resolv.conf"
    resolv.unlink(missing_ok=True)
    shutil.copyfile("/etc/resolv.conf", resolv)
    try:
        for args, target in mounts:
            if not target.exists():
                target.mkdir(parents=True)
            subprocess.run(["mount", *args, str(target)], check=True)
            done.append(target)
            subprocess.run(["mount", "--make-private", str(target)], check=True)
        yield
    finally:
        for target in reversed(done):
            subprocess.run(["umount", str(target)], check=False)
        resolv.unlink(missing_ok=True)
    if busy := mounted_under(root):
        raise BuildError(f"could not unmount {busy[0]} (a process of the chroot still running?)")


def chroot(root: Path, script: str, what: str, env: dict[str, str] | None = None, quiet: bool = False) -> str:
    """SCRIPT in bash inside ROOT (its programs run through qemu-user), with a clean environment."""
    clean = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
             "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive", **(env or {})}  # fmt: skip
    return run(["chroot", str(root), "/bin/bash", "-c", script], what, env=clean, quiet=quiet)
