"""What each supported board needs on the Pi's own boot path, made and checked against the DTBs the card ships.

The GPU firmware hands the kernel one of the DTBs raspi-firmware's hook copies onto the FAT (the newest kernel's
``broadcom/bcm*.dtb``), merged with the overlays config.txt names. Debian's arm64 DTBs have no ``__symbols__`` and no
``__overrides__``: ``dtparam=spi=on`` is ignored and an overlay can name no base label. So the card brings its own
overlay (overlays/doge-companion-spi.dts, compiled here with dtc onto the FAT's ``overlays/``, loaded by a
``dtoverlay=`` line in /etc/default/raspi-firmware-custom, which the hook writes into config.txt again at every
kernel update), and the build refuses a card if, merged by fdtoverlay into any shipped DTB, it does not leave spi0
``okay`` with two spidev children and GPIO chip selects. A Pi 4's SD controller takes its supplies from
regulator-gpio and regulator-fixed, modules in Debian's kernel that the initramfs (``MODULES=list``) must hold or the
root never appears: the modules each SD controller's chain of supplies, GPIOs and clocks needs are read from the DTBs
and the kernel's modules.alias, not from a list alone.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from build_support.image import host

OVERLAY = "doge-companion-spi"
OVERLAY_SOURCE = Path(__file__).resolve().parent / "overlays" / f"{OVERLAY}.dts"
GPIO_PATH, GPIO_PHANDLE = "/soc/gpio@7e200000", 6  # the overlay's cs-gpios name this phandle as a number
SPI_PATH = "/soc/spi@7e204000"
SPIDEV_COMPATIBLE = "rohm,dh2228fv"  # in spidev_dt_ids (drivers/spi/spidev.c); "spidev" itself is refused
SPIDEV_BUFSIZ = 65536  # install.sh's: spidev is built into Debian's kernel, so only the command line sets it
FIRMWARE_CUSTOM = "etc/default/raspi-firmware-custom"
# Properties whose phandles lead to what a device needs before its driver can probe, with the provider's cell count
PROVIDERS = {"gpio": "#gpio-cells", "gpios": "#gpio-cells", "clocks": "#clock-cells", "mboxes": "#mbox-cells",
             "resets": "#reset-cells"}  # fmt: skip
NODE = re.compile(r"^\s*(?:[\w-]+:\s*)*([^\s{]+) \{$")
PROPERTY = re.compile(r"^\s*([^\s=;]+)(?: = (.*))?;$")


@dataclass
class Tree:
    """A DTB as dtc decompiles it: each node's path and its properties' values as dtc writes them."""

    nodes: dict[str, dict[str, str]] = field(default_factory=dict)

    def cells(self, path: str, name: str) -> list[int]:
        raw = self.nodes.get(path, {}).get(name, "")
        return [int(cell, 0) for group in re.findall(r"<([^>]*)>", raw) for cell in group.split()]

    def strings(self, path: str, name: str) -> list[str]:
        raw = self.nodes.get(path, {}).get(name, "")
        return [part for text in re.findall(r'"((?:[^"\\]|\\.)*)"', raw) for part in text.split("\\0") if part]

    def by_phandle(self) -> dict[int, str]:
        return {self.cells(path, "phandle")[0]: path for path, props in self.nodes.items() if "phandle" in props}

    def enabled(self, path: str) -> bool:
        return self.strings(path, "status") in ([], ["okay"], ["ok"])


def read(dtb: Path) -> Tree:
    """DTB decompiled by dtc (its canonical output: one node or property a line)."""
    text = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip
    tree, stack = Tree(), []
    for line in text.splitlines():
        if node := NODE.match(line):
            name = node[1]
            stack.append("" if name == "/" else name)
            tree.nodes["/".join(stack) or "/"] = {}
        elif line.strip() == "};":
            stack.pop()
        elif (prop := PROPERTY.match(line)) and stack:
            tree.nodes["/".join(stack) or "/"][prop[1]] = prop[2] or ""
    return tree


def shipped_dtbs(root: Path) -> list[Path]:
    """The DTBs raspi-firmware's hook copies to the FAT: the newest kernel's broadcom/bcm*.dtb."""
    kernels = sorted((root / "usr" / "lib").glob("linux-image-*"), key=lambda path: [
        int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)])  # fmt: skip
    if not kernels:
        raise host.BuildError(f"no kernel's DTBs in {root}/usr/lib/linux-image-*: is linux-image-arm64 installed?")
    return sorted((kernels[-1] / "broadcom").glob("bcm*.dtb"))


def compile_overlay(folder: Path) -> Path:
    """The overlay compiled by dtc into FOLDER (-@: its own labels become local fixups the merge resolves)."""
    folder.mkdir(parents=True, exist_ok=True)
    dtbo = folder / f"{OVERLAY}.dtbo"
    host.run(["dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", str(dtbo), str(OVERLAY_SOURCE)], "dtc (the overlay)",
             quiet=True)  # fmt: skip
    return dtbo


def spi_problems(dtb: Path, dtbo: Path) -> list[str]:
    """What keeps spidev0.0 and 0.1 from appearing on DTB's board once the firmware merged DTBO (empty: nothing)."""
    name = dtb.name
    base = read(dtb)
    phandle = base.cells(GPIO_PATH, "phandle")
    if phandle != [GPIO_PHANDLE]:
        return [f"{name}: {GPIO_PATH} has phandle {phandle or 'none'}, not {GPIO_PHANDLE}: the overlay's cs-gpios "
                "would name another node (change GPIO_PHANDLE and the .dts)"]  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        merged_file = Path(scratch) / name
        done = subprocess.run(["fdtoverlay", "-i", str(dtb), "-o", str(merged_file), str(dtbo)], capture_output=True,
                              text=True)  # fmt: skip
        if done.returncode:
            return [f"{name}: fdtoverlay cannot apply {dtbo.name}: {done.stderr.strip() or done.stdout.strip()}"]
        merged = read(merged_file)
    found = []
    if merged.strings(SPI_PATH, "status") != ["okay"]:
        found.append(f"{name}: {SPI_PATH} is {merged.strings(SPI_PATH, 'status')}, not okay")
    children = sorted(path for path in merged.nodes if path.rsplit("/", 1)[0] == SPI_PATH)
    bound = [path for path in children if SPIDEV_COMPATIBLE in merged.strings(path, "compatible")]
    if [merged.cells(path, "reg") for path in bound] != [[0], [1]]:
        found.append(f"{name}: {SPI_PATH} has no spidev ({SPIDEV_COMPATIBLE}) at chip selects 0 and 1: {children}")
    cs = merged.cells(SPI_PATH, "cs-gpios")
    if cs[0::3] != [GPIO_PHANDLE, GPIO_PHANDLE] or cs[1::3] != [8, 7]:
        found.append(f"{name}: {SPI_PATH} has no cs-gpios on GPIO 8 and 7 ({cs})")
    return found


def check_spi(dtbs: list[Path], dtbo: Path) -> None:
    """A card whose overlay leaves any shipped board without spidev is refused, in one line."""
    if not dtbs:
        raise host.BuildError("no bcm*.dtb to check the SPI overlay against: the kernel package ships none?")
    found = [problem for dtb in dtbs for problem in spi_problems(dtb, dtbo)]
    if found:
        raise host.BuildError(f"the SPI overlay does not work on every board: {'; '.join(found)}")


def module_aliases(modules: Path) -> dict[str, str]:
    """Each device-tree compatible a loadable module binds, from modules.alias (built-in drivers are not there)."""
    aliases = {}
    for line in (modules / "modules.alias").read_text().splitlines():
        if found := re.fullmatch(r"alias of:N\*T\*C(.+?)(?:C\*)? (\S+)", line):
            aliases[found[1]] = found[2]
    return aliases


def root_modules(dtb: Path, aliases: dict[str, str]) -> set[str]:
    """The modules DTB's board loads before its SD card can be read: each enabled SD controller's driver and those
    of everything it needs first (its supplies, and their GPIO, clock, mailbox and reset providers), followed from
    node to node by phandle."""
    tree = read(dtb)
    handles = tree.by_phandle()
    mmc = [path for path in tree.nodes if tree.enabled(path)
           and any(aliases.get(compatible, "").startswith(("sdhci", "bcm2835")) and re.search(r"/mmc@", path)
                   for compatible in tree.strings(path, "compatible"))]  # fmt: skip
    needed: set[str] = set()
    seen: set[str] = set()
    todo = list(mmc)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        needed.update(aliases[c] for c in tree.strings(path, "compatible") if c in aliases)
        props = tree.nodes[path]
        for name in props:
            if name.endswith("-supply"):
                todo.extend(handles[cell] for cell in tree.cells(path, name)[:1] if cell in handles)
            elif name in PROVIDERS or name.endswith("-gpios"):
                cells, index = tree.cells(path, name), 0
                while index < len(cells) and cells[index] in handles:
                    provider = handles[cells[index]]
                    todo.append(provider)
                    count = tree.cells(provider, PROVIDERS.get(name, "#gpio-cells"))
                    index += 1 + (count[0] if count else 0)
        parent = path.rsplit("/", 1)[0] or "/"
        if parent != "/" and tree.strings(parent, "compatible") not in ([], ["simple-bus"]):
            todo.append(parent)  # a GPIO expander on the firmware's node needs the firmware's driver first
    return needed


def missing_root_modules(dtbs: list[Path], modules: Path, listed: set[str]) -> list[str]:
    """For each DTB, the modules its board needs to reach its root that LISTED (the initramfs) lacks; one line each."""
    aliases = module_aliases(modules)
    normal = {name.replace("-", "_") for name in listed}
    found = []
    for dtb in dtbs:
        lacking = sorted(module for module in root_modules(dtb, aliases) if module.replace("-", "_") not in normal)
        if lacking:
            found.append(f"{dtb.name} needs {', '.join(lacking)}")
    return found


def install(root: Path) -> None:
    """The overlay onto ROOT's /boot/firmware/overlays (which the kernel hook leaves alone), checked against every
    DTB the hook will copy, and its dtoverlay= line in raspi-firmware-custom."""
    dtbo = compile_overlay(root / "boot" / "firmware" / "overlays")
    check_spi(shipped_dtbs(root), dtbo)
    custom = root / FIRMWARE_CUSTOM
    lines = custom.read_text().splitlines() if custom.exists() else []
    if f"dtoverlay={OVERLAY}" not in lines:
        custom.write_text("".join(f"{line}\n" for line in [*lines, f"dtoverlay={OVERLAY}"]))


def check_root_modules(root: Path, modules: tuple[str, ...]) -> None:
    """The initramfs's list of MODULES holds what every shipped board needs to read its SD card, or the build stops."""
    versions = sorted((root / "lib" / "modules").iterdir())
    if not versions or not (versions[-1] / "modules.alias").exists():
        raise host.BuildError(f"no modules.alias in {root}/lib/modules: the kernel's modules were not set up")
    if found := missing_root_modules(shipped_dtbs(root), versions[-1], set(modules)):
        raise host.BuildError(f"the initramfs would not find the root: {'; '.join(found)} (base.INITRAMFS_MODULES)")


def initramfs_problems(listing: str, dtbs: list[Path], modules: Path) -> list[str]:
    """The modules each DTB's board needs for its root that LISTING (lsinitramfs's lines) lacks; one line each."""
    present = {Path(line).name.split(".ko")[0].replace("-", "_") for line in listing.split() if ".ko" in line}
    aliases = module_aliases(modules)
    found = []
    for dtb in dtbs:
        if lacking := sorted(name for name in root_modules(dtb, aliases) if name.replace("-", "_") not in present):
            found.append(f"{dtb.name} needs {', '.join(lacking)}")
    return found


def check_initramfs(root: Path) -> None:
    """The initramfs the card boots (lsinitramfs in the chroot) holds every shipped board's root modules."""
    versions = sorted((root / "lib" / "modules").iterdir())
    initrd = f"/boot/initrd.img-{versions[-1].name}"
    with host.chroot_mounts(root):
        listing = host.chroot(root, f"lsinitramfs {initrd}", "lsinitramfs", quiet=True)
    if found := initramfs_problems(listing, shipped_dtbs(root), versions[-1]):
        raise host.BuildError(f"{initrd} would not find the root: {'; '.join(found)}")
