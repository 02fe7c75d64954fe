"""A card image booted under QEMU's ``virt`` machine, as the card image test and ``bench image`` boot it.

The kernel and initrd come from the card's own FAT partition with its own cmdline.txt, and the card is the machine's
disk, so what boots is what a Pi would boot but for the GPU firmware (docs/installing.md's checklist). The card file
is written into the FAT partition with mtools, as a person's computer would, and the card is made larger than the
image, as a real card is, so that the first boot grows the root.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from build_support.image import card

GROWN_MIB = 512  # the card is this much larger than the image: the first boot grows the root into it


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def mtools(image: Path, *args: str) -> str:
    """An mtools command on the card's FAT partition (at 4 MiB), as a computer's card reader would see it."""
    env = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}  # genimage's FAT need not fit mtools' idea of a disk's geometry
    return subprocess.run([args[0], "-i", f"{image}@@4M", *args[1:]], capture_output=True, text=True, check=True,
                          env=env).stdout  # fmt: skip


@dataclass
class Card:
    image: Path
    kernel: Path
    initrd: Path
    cmdline: str
    root_mib: int  # the root partition's size as built


def prepare(image: Path, card_file: str) -> Card:
    """IMAGE (a raw card) ready to boot: its kernel, initrd and cmdline read off its FAT partition, CARD_FILE
    written there as doge-companion.toml, and the card grown by GROWN_MIB."""
    folder = image.parent
    root_mib = image.stat().st_size // 2**20 - 4 - card.FIRMWARE_MIB
    files = mtools(image, "mdir", "-b", "::/").split()
    kernel_name = max(name for name in files if name.startswith("::/vmlinuz-"))
    initrd_name = max(name for name in files if name.startswith("::/initrd.img-"))
    kernel, initrd = folder / "vmlinuz", folder / "initrd.img"
    mtools(image, "mcopy", "-o", kernel_name, str(kernel))
    mtools(image, "mcopy", "-o", initrd_name, str(initrd))
    cmdline = mtools(image, "mtype", "::/cmdline.txt").strip()
    written = folder / "doge-companion.toml"
    written.write_text(card_file)
    mtools(image, "mcopy", "-o", str(written), "::/doge-companion.toml")
    with image.open("r+b") as disk:
        disk.truncate(image.stat().st_size + GROWN_MIB * 2**20)
    return Card(image, kernel, initrd, cmdline, root_mib)


def pi3_device_tree(made: Card, folder: Path) -> Path:
    """What a Pi 3 B's GPU firmware would hand the kernel from this card: the FAT's bcm2837-rpi-3-b.dtb merged with
    the overlays config.txt names (fdtoverlay, as the firmware's own dtoverlay code merges them)."""
    board = folder / "bcm2837-rpi-3-b.dtb"
    mtools(made.image, "mcopy", "-o", "::/bcm2837-rpi-3-b.dtb", str(board))
    overlays = []
    for name in re.findall(r"^dtoverlay=([\w-]+)", mtools(made.image, "mtype", "::/config.txt"), re.MULTILINE):
        overlays.append(folder / f"{name}.dtbo")
        mtools(made.image, "mcopy", "-o", f"::/overlays/{name}.dtbo", str(overlays[-1]))
    if not overlays:
        return board
    merged = folder / "merged.dtb"
    subprocess.run(["fdtoverlay", "-i", str(board), "-o", str(merged), *map(str, overlays)], check=True)
    return merged


class Boot:
    """The card booted: its serial console in a file, each guest port of FORWARDS on a free port of this machine
    (``ports[guest_port]``). MACHINE ``virt`` (virtio disk and network) or ``raspi3b``: the Pi 3's SD host with the
    card as its SD card (QEMU wants a power of two: the card is made that large, sparse), its mini UART as the
    console (cmdline.txt's last console=ttyS1), the network over emulated USB, and pi3_device_tree's DTB."""

    def __init__(self, made: Card, folder: Path, forwards: tuple[int, ...] = (8080,), machine: str = "virt") -> None:
        self.ports: Mapping[int, int] = {guest: free_port() for guest in forwards}
        self.console = folder / "console.log"
        fwd = ",".join(f"hostfwd=tcp:127.0.0.1:{outside}-:{inside}" for inside, outside in self.ports.items())
        if machine == "raspi3b":
            size = made.image.stat().st_size
            os.truncate(made.image, 1 << (size - 1).bit_length())
            # One host thread runs the board's four cores in turn (the guest still sees four). Held to less CPU
            # than four threads want, as a shared CI machine may be, it boots sooner: 273 s against 368 s on one
            # core's quota, 187 s against 178 s on a quiet machine (docs/installing.md, "The card image").
            board = ["-accel", "tcg,thread=single",
                     "-M", "raspi3b", "-m", "1G", "-dtb", str(pi3_device_tree(made, folder)), "-serial", "null",
                     "-append", made.cmdline, "-drive", f"if=sd,format=raw,file={made.image}",
                     "-netdev", f"user,id=net,{fwd}", "-device", "usb-net,netdev=net"]  # fmt: skip
        else:
            board = ["-M", "virt", "-cpu", "cortex-a53", "-smp", "2", "-m", "1024", "-append",
                     f"{made.cmdline} console=ttyAMA0", "-drive", f"if=none,id=card,format=raw,file={made.image}",
                     "-device", "virtio-blk-device,drive=card", "-netdev", f"user,id=net,{fwd}",
                     "-device", "virtio-net-device,netdev=net"]  # fmt: skip
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            ["qemu-system-aarch64", "-nodefaults", "-display", "none", "-kernel", str(made.kernel),
             "-initrd", str(made.initrd), *board, "-serial", f"file:{self.console}"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def url(self, guest_port: int = 8080) -> str:
        return f"http://127.0.0.1:{self.ports[guest_port]}"

    def log(self) -> str:
        return self.console.read_text(errors="replace")[-6000:] if self.console.exists() else ""

    def until_answers(self, url: str, timeout: float = 900) -> float:
        """Seconds since QEMU started when URL first answers 200 (a hang guard, not a verdict on time)."""
        while True:
            assert self.process.poll() is None, f"QEMU stopped\n{self.log()}"
            try:
                with urllib.request.urlopen(url, timeout=10) as answer:
                    if answer.status == 200:
                        return time.monotonic() - self.started
            except (urllib.error.URLError, OSError):
                pass
            assert time.monotonic() - self.started < timeout, f"{url} never answered\n{self.log()}"
            time.sleep(1)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
