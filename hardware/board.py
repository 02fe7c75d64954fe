"""Which Raspberry Pi this is, and its revision code where the kernel gives none.

gpiozero 2.0.1's local pin factories (pins/local.py, ``get_pi_revision``) and rpi-lgpio 0.6 (the RPi.GPIO luma
drives DC and RST with; its ``_get_rpi_info``) learn the board from ``/proc/device-tree/system/linux,revision``,
gpiozero also from a ``Revision`` line in /proc/cpuinfo. Raspberry Pi OS's kernel gives both; Debian's kernel on an
upstream device tree gives neither, and rpi-lgpio then refuses at import ("This module can only be run on a
Raspberry Pi!"). The board's own name is still in the device tree's root (``compatible``, ``model``), and each
library takes a revision another way: rpi-lgpio from ``RPI_LGPIO_REVISION`` (hex), gpiozero from a factory's
``_get_revision``, the method its ``PiFactory`` documents for descendants to override.

A revision told this way is the new-style code (bit 23) of the board's type and processor; its memory comes from
/proc/meminfo and its maker and PCB revision are not in the device tree at all (zero, "Sony UK", revision 0): both
libraries use the type for the header's pin layout and only report the rest.
"""

from __future__ import annotations

import logging
import os
import struct
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# /proc/device-tree is a link to the second; the companion's unit has ProcSubset=pid, which hides all of /proc but
# the processes (its cpuinfo and meminfo too), while sysfs stays readable.
DEVICE_TREES = ("proc/device-tree", "sys/firmware/devicetree/base")

# compatible string -> (type, processor) of the new-style revision code (Raspberry Pi's documentation,
# "Raspberry Pi revision codes"); the compatibles are those of the kernel's upstream device trees.
BOARDS: dict[str, tuple[int, int]] = {
    "raspberrypi,model-zero-w": (0x0C, 0),
    "raspberrypi,3-model-b": (0x08, 2),
    "raspberrypi,3-compute-module": (0x0A, 2),
    "raspberrypi,3-model-b-plus": (0x0D, 2),
    "raspberrypi,3-model-a-plus": (0x0E, 2),
    "raspberrypi,model-zero-2-w": (0x12, 2),
    "raspberrypi,4-model-b": (0x11, 3),
    "raspberrypi,400": (0x13, 3),
    "raspberrypi,4-compute-module": (0x14, 3),
    "raspberrypi,5-model-b": (0x17, 4),
}
# What /proc/device-tree/model says on the same boards, longest first so "3 Model B Plus" is not "3 Model B".
MODELS: tuple[tuple[str, str], ...] = (
    ("Raspberry Pi 3 Model B Plus", "raspberrypi,3-model-b-plus"),
    ("Raspberry Pi 3 Model A Plus", "raspberrypi,3-model-a-plus"),
    ("Raspberry Pi Compute Module 3", "raspberrypi,3-compute-module"),
    ("Raspberry Pi Compute Module 4", "raspberrypi,4-compute-module"),
    ("Raspberry Pi 3 Model B", "raspberrypi,3-model-b"),
    ("Raspberry Pi 4 Model B", "raspberrypi,4-model-b"),
    ("Raspberry Pi 5 Model B", "raspberrypi,5-model-b"),
    ("Raspberry Pi Zero 2 W", "raspberrypi,model-zero-2-w"),
    ("Raspberry Pi Zero W", "raspberrypi,model-zero-w"),
    ("Raspberry Pi 400", "raspberrypi,400"),
)
_MEMORY_MB = (256, 512, 1024, 2048, 4096, 8192, 16384)


@dataclass(frozen=True)
class Board:
    """What the device tree and /proc say: ``revision`` is None when neither the kernel nor the board's name gives
    one; ``told`` is True when the revision was worked out here rather than read."""

    model: str
    compatible: tuple[str, ...]
    revision: int | None
    told: bool

    @property
    def name(self) -> str:
        return self.model or (self.compatible[0] if self.compatible else "not a known board")

    @property
    def known(self) -> str | None:
        """The first compatible string this module knows, or the one the model names."""
        for entry in self.compatible:
            if entry in BOARDS:
                return entry
        for prefix, entry in MODELS:
            if self.model.startswith(prefix):
                return entry
        return None


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _node(root: Path, name: str) -> bytes | None:
    """A property of the device tree, through /proc or, where /proc is hidden, sysfs."""
    for tree in DEVICE_TREES:
        found = _read(root / tree / name)
        if found is not None:
            return found
    return None


def kernel_revision(root: Path = Path("/")) -> int | None:
    """The revision the kernel gives, read as gpiozero's ``get_pi_revision`` reads it (the device tree's node,
    else /proc/cpuinfo's ``Revision`` line, an overvolted board's ``100`` prefix dropped)."""
    node = _node(root, "system/linux,revision")
    if node is not None and len(node) >= 4:
        value = struct.unpack(">I", node[:4])[0]
        if value:
            return int(value)
    cpuinfo = _read(root / "proc/cpuinfo") or b""
    for line in cpuinfo.decode("ascii", "replace").splitlines():
        if line.startswith("Revision"):
            code = line.split(":", 1)[-1].strip().lower()
            try:
                return int(code[-4:] if code.startswith("100") else code, 16)
            except ValueError:
                return None
    return None


def _memory_code(root: Path) -> int:
    text = (_read(root / "proc/meminfo") or b"").decode("ascii", "replace")
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            megabytes = int(line.split()[1]) // 1024
            # The kernel keeps some for itself (and the GPU more): the smallest size that holds what is left.
            return next((code for code, size in enumerate(_MEMORY_MB) if megabytes <= size), len(_MEMORY_MB) - 1)
    return 2  # 1 GB, what a Pi 3 has


def revision_code(compatible: str, memory: int = 2) -> int:
    """The new-style revision code of a board named by its compatible string (Sony UK, PCB revision 0)."""
    kind, processor = BOARDS[compatible]
    return 1 << 23 | memory << 20 | processor << 12 | kind << 4


def read_board(root: Path = Path("/")) -> Board:
    """This machine's board; ``root`` is a fake tree in tests."""
    model = (_node(root, "model") or b"").decode("utf-8", "replace").rstrip("\0").strip()
    raw = _node(root, "compatible") or b""
    compatible = tuple(part for part in raw.decode("ascii", "replace").split("\0") if part)
    revision = kernel_revision(root)
    if revision is not None:
        return Board(model, compatible, revision, told=False)
    board = Board(model, compatible, None, told=False)
    known = board.known
    if known is None:
        return board
    return Board(model, compatible, revision_code(known, _memory_code(root)), told=True)


PIN_CONTROLLERS = ("brcm,bcm2835-gpio", "brcm,bcm2711-gpio", "raspberrypi,rp1-gpio")  # the header's pins


def header_chip(root: Path = Path("/")) -> int | None:
    """The gpiochip whose lines are the header's pins, from the device tree node each chip was made from. On
    Raspberry Pi OS it is 0 (4 on a Pi 5, which gpiozero knows); on Debian's kernel the firmware's GPIO expander
    may register first. rpi-lgpio looks for its own compatibles only (``raspberrypi,bcm2835-gpio``...), which
    upstream trees do not use, and falls back to 0. None: no chip says so."""
    for device in sorted((root / "sys/bus/gpio/devices").glob("gpiochip*")):
        raw = _read(device / "of_node" / "compatible") or b""
        if set(raw.decode("ascii", "replace").split("\0")) & set(PIN_CONTROLLERS):
            number = device.name[len("gpiochip") :]
            if number.isdigit():
                return int(number)
    return None


def missing_line(board: Board) -> str:
    """One line: what the kernel did not give, and what was done instead."""
    if not board.told and board.revision is not None:
        return f"{board.name}: revision {board.revision:x}"
    if board.revision is None:
        return (
            "no board revision: /proc/device-tree/system/linux,revision and /proc/cpuinfo's Revision line are "
            f"missing, and the device tree's model and compatible name no known Raspberry Pi ({board.name})"
        )
    return (
        "no /proc/device-tree/system/linux,revision nor a Revision line in /proc/cpuinfo: "
        f"{board.name} told from the device tree ({board.known}), revision {board.revision:x} supplied"
    )


def supply_rpi_lgpio(
    root: Path = Path("/"), environ: MutableMapping[str, str] | None = None, *, say: bool = True
) -> Board:
    """Before RPi.GPIO (rpi-lgpio) is first imported: give it the revision its own variable takes, where the
    kernel gives none, and the header's chip where it is not 0 (``RPI_LGPIO_CHIP``). What is already in the
    environment is the user's and is left alone."""
    environ = os.environ if environ is None else environ
    board = read_board(root)
    chip = header_chip(root)
    if chip not in (None, 0) and "RPI_LGPIO_CHIP" not in environ:
        environ["RPI_LGPIO_CHIP"] = str(chip)
    if board.revision is not None and "RPI_LGPIO_REVISION" not in environ:
        # Even a revision the kernel gives: rpi-lgpio reads it from /proc only, which the service's ProcSubset hides.
        environ["RPI_LGPIO_REVISION"] = f"{board.revision:x}"
        if say and board.told:
            log.warning("%s (RPI_LGPIO_REVISION for RPi.GPIO)", missing_line(board))
    return board
