"""`python3 dev.py image`: the card image from Debian's archive and this checkout, step by step with the time each took.

    sudo python3 dev.py image [--out DIR] [--no-xz] [--console]

Writes DIR/doge-companion-<version>-arm64.img.xz (DIR: dist/) and beside it .packages.txt, every Debian and Python
package in the image with its version. --no-xz leaves the raw .img (for QEMU; flashing tools take either).
--console logs root in on the serial and HDMI consoles without a password: a builder's card for the hardware checklist
(docs/installing.md), never one for a table, whose console must not show the game's secrets.
The rules engine is compiled with mypyc in the chroot, as install.sh does on a Pi (about 4.5 minutes under
emulation, twice as fast on the Pi); DOGE_COMPILE_ENGINE=0 installs it as plain Python instead.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from build_support.image import base, boards, card, host, layers

CHECKOUT = Path(__file__).resolve().parents[2]
AUTOLOGIN = """[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,57600,38400,9600 %I $TERM
"""
CONSOLE = {
    f"etc/systemd/system/{getty}.service.d/autologin.conf": AUTOLOGIN
    for getty in ("serial-getty@ttyAMA0", "serial-getty@ttyS0", "serial-getty@ttyS1", "getty@tty1")
}


@dataclass
class Timings:
    steps: dict[str, float] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)

    def mark(self, step: str, since: float) -> None:
        self.steps[step] = time.monotonic() - since
        host.say(f"{step}: {self.steps[step]:.0f} s")


def version(checkout: Path) -> str:
    text = (checkout / "companion" / "__init__.py").read_text()
    found = re.search(r'__version__ = "([^"]+)"', text)
    assert found, "companion/__init__.py names its __version__"
    return found[1]


def commit(checkout: Path) -> tuple[str, int]:
    """The checkout's commit (with -dirty if it has changes) and its time: SOURCE_DATE_EPOCH."""
    git = ["git", "-C", str(checkout)]
    sha, epoch = subprocess.run([*git, "log", "-1", "--format=%h %ct"], capture_output=True, text=True,
                                check=True).stdout.split()  # fmt: skip
    # an untracked file makes it -dirty too: the image is built from tracked files only (layers.checkout_files)
    dirty = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True)
    return sha + ("-dirty" if dirty.stdout.strip() else ""), int(os.environ.get("SOURCE_DATE_EPOCH", epoch))


def build_root(root: Path, extra: Mapping[str, str] = {}, checkout: Path = CHECKOUT,
               timings: Timings | None = None, compile_engine: bool = True) -> str:  # fmt: skip
    """ROOT: the image's root file system, the companion installed (its rules engine compiled by mypyc unless
    not COMPILE_ENGINE); the list of versions in it."""
    timings = timings or Timings()
    host.enable_arm64()
    sha, epoch = commit(checkout)
    since = time.monotonic()
    tree = base.base(checkout, epoch)
    timings.mark("the Debian root and the pinned packages", since)
    since = time.monotonic()
    layers.copy_base(tree, root)
    host.say("install.sh --image in the chroot (the companion's wheel, config, units)")
    env = {"DOGE_COMPILE_ENGINE": "1" if compile_engine else "0", "SOURCE_DATE_EPOCH": str(epoch)}
    layers.install(checkout, root, env)
    layers.add_files(root, extra)
    boards.install(root)
    boards.check_root_modules(root, base.INITRAMFS_MODULES)
    layers.initramfs(root, epoch)
    boards.check_initramfs(root)
    layers.refresh_firmware(root)
    listed = layers.versions(root, sha)
    layers.clean(root)
    layers.clamp_times(root, epoch)
    timings.mark("the companion installed (install.sh --image)", since)
    return listed


def build(
    out: Path, xz: bool = True, extra: Mapping[str, str] = {}, checkout: Path = CHECKOUT, suffix: str = ""
) -> Path:
    """The card image in OUT (and its .packages.txt); its path. SUFFIX marks its name (a builder's console card:
    never to be taken for a table's)."""
    timings = Timings()
    name = f"doge-companion-{version(checkout)}-arm64{suffix}"
    work = base.cache_dir() / "image-work"
    root = work / "root"
    compile_engine = os.environ.get("DOGE_COMPILE_ENGINE", "1") != "0"
    listed = build_root(root, extra, checkout, timings, compile_engine)
    since = time.monotonic()
    image = card.make(root, out / f"{name}.img", work / "genimage", commit(checkout)[1])
    (out / f"{name}.packages.txt").write_text(listed)
    timings.mark("the card (genimage)", since)
    if xz:
        since = time.monotonic()
        host.say("compressing (xz, every core)")
        image = card.compress(image)
        timings.mark("xz", since)
    host.remove_tree(work)
    size = image.stat().st_size / 2**20
    host.say(f"{image} ({size:.0f} MiB) in {time.monotonic() - timings.started:.0f} s; its packages: "
             f"{out / (name + '.packages.txt')}")  # fmt: skip
    return image


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 dev.py image", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=CHECKOUT / "dist", help="where the image goes (dist/)")
    parser.add_argument("--no-xz", action="store_true", help="leave the raw .img uncompressed")
    parser.add_argument("--console", action="store_true", help="root logs in on the consoles without a password")
    args = parser.parse_args(argv)
    if found := host.problems():
        for problem in found:
            print(f"dev.py image: {problem}")
        return 1
    try:
        if args.console:
            build(args.out, xz=not args.no_xz, extra=CONSOLE, suffix="-console")
        else:
            build(args.out, xz=not args.no_xz)
    except host.BuildError as error:
        print(f"dev.py image: {error}")
        return 1
    except subprocess.CalledProcessError as error:
        command = " ".join(map(str, error.cmd))[:200]
        print(f"dev.py image: {command} failed (status {error.returncode}): see the lines above, then run it again")
        return 1
    except OSError as error:
        print(f"dev.py image: {error.strerror or error} ({error.filename or 'the build'}): free space? run it again")
        return 1
    return 0
