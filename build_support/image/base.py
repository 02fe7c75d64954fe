"""The slow layer: Debian bookworm's arm64 root with the pinned Python packages, made once per inputs and kept.

mmdebstrap builds it under qemu-user (minutes), then ``install.sh --image --pins-only`` creates the user and groups,
SPI, and the venv from requirements/pi-aarch64.txt (lgpio and spidev compiled in the chroot). It is kept as a
directory in ~/.cache/doge-companion named by a hash of everything that went into it, so a change to the companion's
code reuses it; a change to the lock or the package list makes a new one. Whatever install.sh changes later is
redone by the next layer's full ``install.sh --image`` (each step looks first), so a base is never wrong, only slower.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from build_support.image import host

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
COMPONENTS = "main non-free-firmware"  # raspi-firmware and firmware-brcm80211 are non-free-firmware
# What the card needs beside what install.sh installs (install.sh --list-packages): a system that boots on a Pi 3,
# Pi 4 and Zero 2 W (Debian's kernel and the GPU's firmware), joins or opens Wi-Fi (NetworkManager; dnsmasq-base
# serves the access point's addresses), keeps its clock (a Pi has no RTC, and mmdebstrap installs no Recommends, so
# systemd-timesyncd only if named), and grows its root to the card at first boot (growpart).
IMAGE_PACKAGES = (
    "systemd", "systemd-sysv", "systemd-timesyncd", "dbus", "udev", "kmod", "procps", "ca-certificates", "python3",
    "less", "linux-image-arm64", "raspi-firmware", "firmware-brcm80211", "initramfs-tools",
    "cloud-guest-utils", "fdisk", "e2fsprogs", "dosfstools",
    "network-manager", "wpasupplicant", "dnsmasq-base", "wireless-regdb", "iproute2", "iputils-ping",
)  # fmt: skip
# The initramfs holds only the modules that find the root: the Pi's SD card (sdhci-iproc on a Pi 4, bcm2835 on a
# Pi 3 and Zero 2 W; a Pi 4's card takes its power from regulator-gpio and regulator-fixed, modules gpio-regulator and
# fixed) and QEMU's virtio disk (virtio_mmio on -M virt). Debian's default, every module, takes 8-17 minutes under
# emulation. The build checks this list against the DTBs it ships (boards.check_root_modules). Not part of the
# base's key: the next layer makes the initramfs again if this list changed.
INITRAMFS_MODULES = ("sdhci-iproc", "bcm2835", "gpio-regulator", "fixed", "mmc_block", "ext4", "virtio_mmio",
                     "virtio_blk")  # fmt: skip
MODULES_FILE = "usr/share/initramfs-tools/modules.d/doge-companion.conf"
SETUP = """set -e
mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d" "$1/boot/firmware"
echo MODULES=list >"$1/etc/initramfs-tools/conf.d/doge-companion.conf"
printf '%s\\n' {modules} >"$1/usr/share/initramfs-tools/modules.d/doge-companion.conf"
"""
# mmdebstrap's lines shown as it goes (--verbose: a line per package set up, a few hundred in all)
PROGRESS = re.compile(r"I: |E: |W: |Setting up |update-initramfs|raspi-firmware")
# Changed when what this module does changes in a way its inputs do not show.
FORMAT = "1"


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "doge-companion"


def packages(checkout: Path) -> list[str]:
    """The image's packages: its own and those install.sh installs (one list of what an installed device has)."""
    listed = subprocess.run(
        ["bash", str(checkout / "install.sh"), "--list-packages"], capture_output=True, text=True, check=True
    ).stdout.split()
    return sorted({*IMAGE_PACKAGES, *listed})


def key(checkout: Path) -> str:
    """A hash of the base's inputs: the suite, its packages and the lock."""
    digest = hashlib.sha256()
    for part in (FORMAT, SUITE, MIRROR, COMPONENTS, *packages(checkout)):
        digest.update(part.encode() + b"\0")
    digest.update((checkout / "requirements" / "pi-aarch64.txt").read_bytes())
    return digest.hexdigest()[:12]


def base(checkout: Path, epoch: int) -> Path:
    """The base root's directory in the cache, built now if there is none for these inputs."""
    tree = cache_dir() / f"image-base-{key(checkout)}"
    if (tree / "opt" / "doge-companion" / ".venv" / "bin" / "python").exists():
        host.say(f"the Debian root with the pinned packages: cached ({tree})")
        return tree
    partial = tree.with_name(tree.name + ".partial")
    debian = tree.with_name(tree.name + ".debian")  # mmdebstrap's root, kept until the venv is in it
    if not (debian / "usr" / "bin" / "python3").exists():
        host.remove_tree(debian)
        debian.parent.mkdir(parents=True, exist_ok=True)
        host.say(f"the Debian root ({SUITE}, arm64, under qemu-user): about 7 minutes, once for these packages")
        env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch)}
        host.run(
            ["mmdebstrap", "--verbose", "--arch=arm64", "--variant=minbase", f"--components={COMPONENTS}",
             f"--include={','.join(packages(checkout))}",
             f"--setup-hook={SETUP.format(modules=' '.join(INITRAMFS_MODULES))}", SUITE, str(debian), MIRROR],
            "mmdebstrap (the Debian root)", env=env, shown=PROGRESS,
        )  # fmt: skip
    host.remove_tree(partial)
    subprocess.run(["cp", "-a", "--reflink=auto", str(debian), str(partial)], check=True)
    host.say("the pinned Python packages into the venv (install.sh --image --pins-only; lgpio and spidev compiled)")
    staged = partial / "opt" / "doge-companion"
    staged.mkdir(parents=True, exist_ok=True)
    for part in ("install.sh", "requirements", "systemd"):
        source = checkout / part
        shutil.copytree(source, staged / part) if source.is_dir() else shutil.copy2(source, staged / part)
    with host.chroot_mounts(partial):
        host.chroot(partial, "cd /opt/doge-companion && ./install.sh --image --pins-only", "install.sh --pins-only")
    for part in ("install.sh", "requirements", "systemd"):
        path = staged / part
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    host.remove_tree(tree)
    partial.rename(tree)
    for old in tree.parent.glob("image-base-*"):  # earlier inputs' bases: a gigabyte and a half each
        if old.name != tree.name:
            host.remove_tree(old)
    return tree
