"""The board's revision where Debian's kernel gives none, on fake /proc trees; gpiozero's own factory takes it."""

from __future__ import annotations

import importlib
import struct
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from hardware.board import kernel_revision, missing_line, read_board, revision_code, supply_rpi_lgpio

PI3_MEMINFO = "MemTotal:         944676 kB\nMemFree:          500000 kB\n"


def debian_pi(root: Path, compatible: str, model: str, meminfo: str = PI3_MEMINFO) -> Path:
    """What Debian's kernel on an upstream device tree shows: a model and compatible, no /system node, and a
    /proc/cpuinfo without a Revision line (arm64's has none)."""
    tree = root / "proc" / "device-tree"
    tree.mkdir(parents=True)
    (tree / "model").write_bytes(model.encode() + b"\0")
    (tree / "compatible").write_bytes(compatible.encode() + b"\0brcm,bcm2837\0")
    (root / "proc" / "cpuinfo").write_text("processor\t: 0\nBogoMIPS\t: 38.40\nCPU part\t: 0xd03\n\n")
    (root / "proc" / "meminfo").write_text(meminfo)
    return root


def test_a_pi_3_on_debian_is_told_from_its_compatible(tmp_path: Path) -> None:
    root = debian_pi(tmp_path, "raspberrypi,3-model-b", "Raspberry Pi 3 Model B")
    assert kernel_revision(root) is None
    board = read_board(root)
    assert board.told and board.revision == 0xA02080  # new style, 1 GB, Sony UK, BCM2837, type 3B
    line = missing_line(board)
    assert "\n" not in line
    assert line.startswith("no /proc/device-tree/system/linux,revision nor a Revision line in /proc/cpuinfo")
    assert "revision a02080 supplied" in line


@pytest.mark.parametrize(
    ("compatible", "model", "kind"),
    [
        ("raspberrypi,3-model-b-plus", "Raspberry Pi 3 Model B Plus Rev 1.3", 0x0D),
        ("raspberrypi,4-model-b", "Raspberry Pi 4 Model B Rev 1.1", 0x11),
        ("raspberrypi,model-zero-2-w", "Raspberry Pi Zero 2 W Rev 1.0", 0x12),
    ],
)
def test_the_model_alone_tells_the_board(tmp_path: Path, compatible: str, model: str, kind: int) -> None:
    root = debian_pi(tmp_path, "vendor,unknown", model)
    revision = read_board(root).revision
    assert revision is not None and revision >> 4 & 0xFF == kind
    assert revision == revision_code(compatible, revision >> 20 & 7)


def test_the_kernels_own_revision_wins(tmp_path: Path) -> None:
    root = debian_pi(tmp_path, "raspberrypi,3-model-b", "Raspberry Pi 3 Model B")
    (root / "proc" / "device-tree" / "system").mkdir()
    (root / "proc" / "device-tree" / "system" / "linux,revision").write_bytes(struct.pack(">I", 0xA22082))
    board = read_board(root)
    assert (board.revision, board.told) == (0xA22082, False)
    (root / "proc" / "device-tree" / "system" / "linux,revision").unlink()
    (root / "proc" / "cpuinfo").write_text("Hardware\t: BCM2835\nRevision\t: 1000a020d3\n")
    assert kernel_revision(root) == 0x20D3  # overvolted: gpiozero keeps the last four digits


def test_a_machine_that_is_no_pi_says_so_in_one_line(tmp_path: Path) -> None:
    root = debian_pi(tmp_path, "qemu,virt", "linux,dummy-virt")
    board = read_board(root)
    assert board.revision is None
    assert "no known Raspberry Pi (linux,dummy-virt)" in missing_line(board)
    environ: dict[str, str] = {}
    supply_rpi_lgpio(root, environ)
    assert environ == {}


def test_rpi_lgpio_is_given_its_own_variable(tmp_path: Path) -> None:
    root = debian_pi(tmp_path, "raspberrypi,4-model-b", "Raspberry Pi 4 Model B Rev 1.5", "MemTotal: 3880000 kB\n")
    environ: dict[str, str] = {}
    supply_rpi_lgpio(root, environ)
    assert environ == {"RPI_LGPIO_REVISION": "c03110"}  # 4 GB, BCM2711, 4B
    environ["RPI_LGPIO_REVISION"] = "c03111"
    supply_rpi_lgpio(root, environ)
    assert environ["RPI_LGPIO_REVISION"] == "c03111", "a revision the user set is kept"


def test_rpi_lgpio_imports_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rpi-lgpio 0.6 itself, where it is installed (a Pi's venv; it is no desktop dependency): it refuses at
    import without the variable on a tree like Debian's, and imports with it."""
    spec = importlib.util.find_spec("RPi")
    if spec is None or not any(Path(p, "GPIO", "__init__.py").exists() for p in spec.submodule_search_locations or ()):
        pytest.skip("rpi-lgpio is not installed here")
    monkeypatch.setitem(sys.modules, "lgpio", FakeLgpio())
    without(monkeypatch, "RPI_LGPIO_REVISION", "RPI_LGPIO_CHIP")
    if Path("/proc/device-tree/system/linux,revision").exists():
        pytest.skip("this machine's kernel gives a revision")
    for name in ("RPi.GPIO", "RPi"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(RuntimeError, match="can only be run on a Raspberry Pi"):
        importlib.import_module("RPi.GPIO")
    sys.modules.pop("RPi.GPIO", None)
    environ: dict[str, str] = {}
    supply_rpi_lgpio(debian_pi(tmp_path, "raspberrypi,3-model-b", "Raspberry Pi 3 Model B"), environ)
    monkeypatch.setenv("RPI_LGPIO_REVISION", environ["RPI_LGPIO_REVISION"])  # restored by the without() above
    gpio: Any = importlib.import_module("RPi.GPIO")
    assert gpio.RPI_INFO["TYPE"] == "Pi 3 Model B"
    sys.modules.pop("RPi.GPIO", None)


def without(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Variables gone for the test and as they were after it, including ones the code under test sets (delenv
    alone restores nothing that was absent)."""
    for name in names:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


class FakeLgpio(types.ModuleType):
    """The two calls gpiozero's LGPIOFactory makes when it is built and closed (gpiozero/pins/lgpio.py); the
    constants it and rpi-lgpio read at import are distinct numbers."""

    def __init__(self) -> None:
        super().__init__("lgpio")
        self.opened: list[int] = []

    def gpiochip_open(self, chip: int) -> int:
        self.opened.append(chip)
        return 7

    def gpiochip_close(self, handle: int) -> None:
        pass

    def __getattr__(self, name: str) -> int:
        if name.isupper():
            return hash(name) & 0xFFFF
        raise AttributeError(name)


@pytest.mark.parametrize("chosen", [None, "lgpio"])
def test_gpiozero_lgpio_factory_knows_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chosen: str | None
) -> None:
    """On a tree like Debian's, gpiozero's own lookup fails (this machine's /proc has no revision either) and the
    factory the companion builds still knows the header: the board info gpiozero derives from the revision. Also
    when GPIOZERO_PIN_FACTORY names lgpio (gpiozero would build its own, which asks /proc)."""
    from gpiozero.exc import PinUnknownPi
    from gpiozero.pins.local import get_pi_revision

    from hardware.gpio import pi_pin_factory

    if kernel_revision(Path("/")) is not None:
        pytest.skip("this machine's kernel gives a revision")
    with pytest.raises(PinUnknownPi):
        get_pi_revision()
    fake = FakeLgpio()
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    without(monkeypatch, "GPIOZERO_PIN_FACTORY", "RPI_LGPIO_REVISION", "RPI_LGPIO_CHIP")
    if chosen:
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", chosen)
    factory = pi_pin_factory(debian_pi(tmp_path, "raspberrypi,3-model-b", "Raspberry Pi 3 Model B"))
    try:
        assert type(factory).__name__ == "LGPIOFactory" and fake.opened == [0]
        assert factory.board_info.model == "3B"
        assert factory.board_info.to_gpio("J8:11") == "GPIO17"
    finally:
        factory.close()
        sys.modules.pop("gpiozero.pins.lgpio", None)  # built over the fake: no later test may find it


def test_no_pi_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.gpio import pi_pin_factory

    without(monkeypatch, "GPIOZERO_PIN_FACTORY", "RPI_LGPIO_REVISION", "RPI_LGPIO_CHIP")
    with pytest.raises(RuntimeError) as raised:
        pi_pin_factory(debian_pi(tmp_path, "qemu,virt", "linux,dummy-virt"))
    assert "\n" not in str(raised.value) and str(raised.value).startswith("no board revision")


STAND_IN_RPI_GPIO = '''"""rpi-lgpio's import-time check (its _get_rpi_info) and the calls luma makes; nothing else."""
import os

if "RPI_LGPIO_REVISION" not in os.environ and not os.path.exists("/proc/device-tree/system/linux,revision"):
    raise RuntimeError("This module can only be run on a Raspberry Pi!")
REVISION = os.environ.get("RPI_LGPIO_REVISION")
BCM, OUT, IN, HIGH, LOW = 11, 0, 1, 1, 0
calls = []


def setmode(mode):
    calls.append(("setmode", mode))


def setwarnings(on):
    pass


def setup(pin, *args, **kwargs):
    calls.append(("setup", pin))


def output(pin, value):
    calls.append(("output", pin, value))


def cleanup(*pins):
    pass
'''


def test_the_lcds_dc_and_reset_lines_get_rpi_gpio_on_debians_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """build_display hands RPi.GPIO its revision before luma imports it: the DC and RST pins are set up."""
    from unittest.mock import Mock

    import hardware.board
    from companion.system import config
    from display.backends import build_display

    package = tmp_path / "lib" / "RPi" / "GPIO"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (package / "__init__.py").write_text(STAND_IN_RPI_GPIO)
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    for name in ("RPi", "RPi.GPIO"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    without(monkeypatch, "RPI_LGPIO_REVISION", "RPI_LGPIO_CHIP")
    pi = debian_pi(tmp_path / "root", "raspberrypi,3-model-b", "Raspberry Pi 3 Model B")
    monkeypatch.setattr(hardware.board, "read_board", lambda root=pi: read_board(pi))
    data = config.load(None, search=False).data
    settings = {**data, "display": {**data["display"], "driver": "st7735", "width": 160, "height": 128}}
    display = build_display(settings, (160, 128), spi=Mock())
    try:
        gpio: Any = sys.modules["RPi.GPIO"]
        assert gpio.REVISION == "a02080"
        dc, reset = settings["display"]["dc_pin"], settings["display"]["reset_pin"]
        assert ("setup", dc) in gpio.calls and ("setup", reset) in gpio.calls
    finally:
        display.close()
        for name in ("RPi", "RPi.GPIO"):
            sys.modules.pop(name, None)


def test_the_headers_chip_is_told_from_the_device_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi 4 on Debian's kernel whose firmware GPIO expander registered first: gpiozero and rpi-lgpio would open
    gpiochip0 (both fall back to it); the header's pins are gpiochip1's."""
    from hardware.board import header_chip
    from hardware.gpio import pi_pin_factory

    root = debian_pi(tmp_path, "raspberrypi,4-model-b", "Raspberry Pi 4 Model B Rev 1.5")
    for number, compatible in ((0, b"raspberrypi,firmware-gpio\0"), (1, b"brcm,bcm2711-gpio\0")):
        node = root / "sys" / "bus" / "gpio" / "devices" / f"gpiochip{number}" / "of_node"
        node.mkdir(parents=True)
        (node / "compatible").write_bytes(compatible)
    assert header_chip(root) == 1
    environ: dict[str, str] = {}
    supply_rpi_lgpio(root, environ)
    assert environ["RPI_LGPIO_CHIP"] == "1"
    fake = FakeLgpio()
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    without(monkeypatch, "GPIOZERO_PIN_FACTORY", "RPI_LGPIO_REVISION", "RPI_LGPIO_CHIP")
    factory = pi_pin_factory(root)
    try:
        assert fake.opened == [1] and factory.board_info.model == "4B"
    finally:
        factory.close()
        sys.modules.pop("gpiozero.pins.lgpio", None)
    assert header_chip(debian_pi(tmp_path / "pi3", "raspberrypi,3-model-b", "Raspberry Pi 3 Model B")) is None


def test_under_the_services_procsubset_the_tree_is_read_from_sysfs(tmp_path: Path) -> None:
    """The companion's unit hides /proc's non-process files (ProcSubset=pid): /proc/device-tree and /proc/cpuinfo
    are gone, /sys/firmware/devicetree/base is not; the kernel's own revision is found there too."""
    root = debian_pi(tmp_path, "raspberrypi,3-model-b", "Raspberry Pi 3 Model B")
    tree = root / "sys" / "firmware" / "devicetree"
    tree.mkdir(parents=True)
    (root / "proc" / "device-tree").rename(tree / "base")
    (root / "proc" / "cpuinfo").unlink()
    (root / "proc" / "meminfo").unlink()
    board = read_board(root)
    assert (board.model, board.revision, board.told) == ("Raspberry Pi 3 Model B", 0xA02080, True)
    (tree / "base" / "system").mkdir()
    (tree / "base" / "system" / "linux,revision").write_bytes(struct.pack(">I", 0xA22082))
    assert read_board(root).revision == 0xA22082 and not read_board(root).told
    environ: dict[str, str] = {}
    supply_rpi_lgpio(root, environ)
    assert environ == {"RPI_LGPIO_REVISION": "a22082"}, "rpi-lgpio would look in the hidden /proc"
