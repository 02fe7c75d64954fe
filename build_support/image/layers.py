"""The cheap layers over the cached base: the checkout installed by install.sh, the first-boot files, the time stamps.

These are redone at every build (a minute or two): copying the base, ``install.sh --image`` in a chroot (it finds
the packages, user, SPI and pinned venv done and builds and installs the companion's wheel, the config, the units),
the files of ``rootfs/`` (first boot: the root grows to the card, a new machine-id), the list of versions, and every
time stamp clamped to SOURCE_DATE_EPOCH so that the same inputs make the same file systems.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from build_support.image import base, host

FILES = Path(__file__).resolve().parent / "rootfs"
CHECKOUT_IN_IMAGE = "opt/doge-companion"  # where the README's install puts the checkout, and install.sh's venv
# Removed from the card: caches of the build, and what each card makes afresh at its first boot.
LEFT_OUT = ("var/cache/doge-companion", "var/cache/apt", "var/lib/apt/lists", "var/log/apt", "var/log/dpkg.log",
            "var/log/alternatives.log", "var/lib/dbus/machine-id", "var/lib/systemd/random-seed",
            "etc/ssh/ssh_host_*", "root/.cache", "tmp/*", "var/tmp/*", "etc/resolv.conf",
            "etc/systemd/system/doge-companion.service.d/.keep")  # fmt: skip

# The card's own lines in raspi-firmware's settings: the root by its label (the same on every card and in QEMU), the
# Pi 3's and Pi 4's serial port and the screen as consoles, and no memory kept for a GPU driver the LCD (on SPI) does
# not use (CMA=0, "for a headless setup"; a 64 MB pool can keep a Pi 4 from booting, the file says).
FIRMWARE_SETTINGS = """
# the card image (build_support/image/layers.py)
ROOTPART="LABEL=RASPIROOT"
CONSOLES="tty0 ttyS1,115200"
CMA=0
"""

# rootfs/'s units, with the target each is wanted by (their [Install] sections say the same)
ENABLED = (("sysinit.target.wants", "doge-companion-grow-root.service"),)


def checkout_files(checkout: Path) -> list[str]:
    """The files git tracks: what a clone would hold. Never an untracked one, such as a test card file holding the
    builder's own Wi-Fi password: an image is handed to others."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached"],
        cwd=checkout, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    return sorted(name for name in listed.split("\0") if name and (checkout / name).is_file())


def copy_base(tree: Path, root: Path) -> None:
    host.remove_tree(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", "--reflink=auto", str(tree), str(root)], check=True)


def install(checkout: Path, root: Path, env: Mapping[str, str]) -> str:
    """The checkout at /opt/doge-companion and `install.sh --image` run there, in the chroot; what it said."""
    target = root / CHECKOUT_IN_IMAGE
    for name in checkout_files(checkout):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(checkout / name, target / name)
    with host.chroot_mounts(root):
        script = f"cd /{CHECKOUT_IN_IMAGE} && ./install.sh --image"
        return host.chroot(root, script, "install.sh --image", env=dict(env))


def add_files(root: Path, extra: Mapping[str, str]) -> None:
    """rootfs/ into ROOT and its units enabled (as `systemctl enable` would link them), then EXTRA (path in the
    image: text)."""
    subprocess.run(["cp", "-a", "--no-preserve=ownership", f"{FILES}/.", str(root)], check=True)
    for wants, unit in ENABLED:
        link = root / "etc" / "systemd" / "system" / wants / unit
        link.parent.mkdir(parents=True, exist_ok=True)
        link.unlink(missing_ok=True)
        link.symlink_to(f"/etc/systemd/system/{unit}")
    fstab = root / "etc" / "fstab"
    fstab.write_text(fstab.read_text().replace("@DOGE_GID@", str(group_id(root, "doge"))))
    for path, text in extra.items():
        file = root / path.lstrip("/")
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text)
    (root / "etc" / "machine-id").write_text("")  # systemd makes one at the first boot (and ConditionFirstBoot holds)


def group_id(root: Path, name: str) -> int:
    """NAME's number in ROOT's /etc/group (install.sh made the group; numbers are given in order, so read, not
    assumed)."""
    for line in (root / "etc" / "group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return int(fields[2])
    raise LookupError(f"no group {name} in {root}/etc/group: install.sh --image should have made it")


def initramfs(root: Path, epoch: int) -> None:
    """The initramfs made again (once, under emulation: about a minute) if its list of modules is not the base's;
    its files dated EPOCH (mkinitramfs reads SOURCE_DATE_EPOCH), so that it is the same at every build."""
    listed = root / base.MODULES_FILE
    wanted = "".join(f"{module}\n" for module in base.INITRAMFS_MODULES)
    if listed.exists() and listed.read_text() == wanted:
        return
    listed.parent.mkdir(parents=True, exist_ok=True)
    listed.write_text(wanted)
    host.say("the initramfs again, with " + " ".join(base.INITRAMFS_MODULES))
    with host.chroot_mounts(root):
        host.chroot(root, "update-initramfs -u -k all", "update-initramfs", env={"SOURCE_DATE_EPOCH": str(epoch)})


def refresh_firmware(root: Path) -> None:
    """raspi-firmware's kernel hook again, with the card's settings: /boot/firmware's cmdline.txt and config.txt.

    Left to itself the hook would take the build machine's root device and serial ports (it looks at / and /dev)."""
    settings = root / "etc" / "default" / "raspi-firmware"
    text = settings.read_text()
    if FIRMWARE_SETTINGS not in text:
        settings.write_text(text + FIRMWARE_SETTINGS)
    with host.chroot_mounts(root):
        host.chroot(
            root, "for k in /boot/vmlinuz-*; do /etc/kernel/postinst.d/z50-raspi-firmware ${k#/boot/vmlinuz-}; done",
            "raspi-firmware's kernel hook", env={"DEB_MAINT_PARAMS": "configure"}, quiet=True,
        )  # fmt: skip


def versions(root: Path, commit: str) -> str:
    """Every Debian package and Python package in the image with its version: the list written beside the card."""
    with host.chroot_mounts(root):
        debian = host.chroot(root, "dpkg-query -W -f '${Package} ${Version} ${Architecture}\\n'", "dpkg-query",
                             quiet=True)  # fmt: skip
        python = host.chroot(root, f"/{CHECKOUT_IN_IMAGE}/.venv/bin/pip freeze --all --disable-pip-version-check",
                             "pip freeze", quiet=True)  # fmt: skip
    return (f"# doge-companion card image, from commit {commit}\n# Debian packages (dpkg-query)\n{debian}"
            f"# Python packages in /{CHECKOUT_IN_IMAGE}/.venv (pip freeze)\n{python}")  # fmt: skip


def clean(root: Path) -> None:
    for pattern in LEFT_OUT:
        for path in root.glob(pattern):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    for kept in ("var/cache/apt/archives/partial", "var/lib/apt/lists/partial", "tmp", "var/tmp"):
        (root / kept).mkdir(parents=True, exist_ok=True)
    os.chmod(root / "tmp", 0o1777)
    os.chmod(root / "var" / "tmp", 0o1777)


def clamp_times(root: Path, epoch: int) -> None:
    """No time stamp later than EPOCH (the commit's time), so that two builds of one commit give the same files."""
    subprocess.run(
        ["find", str(root), "-newermt", f"@{epoch}", "-exec", "touch", "--no-dereference", "--date", f"@{epoch}", "{}",
         "+"], check=True,
    )  # fmt: skip
