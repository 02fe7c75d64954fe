"""The card's part of a real Pi's boot path, checked in seconds from the packages the image installs.

The `virt` boot (tests/test_card_image.py) skips what only a Pi reads: config.txt, the board's DTB merged with the
overlays config.txt names, and the initramfs a Pi 4 needs to reach its root. Here raspi-firmware's own kernel hook
(the one the card runs at every kernel update) writes config.txt in a sandbox from the settings the build writes,
then again after a simulated kernel upgrade; each DTB it copies is merged by fdtoverlay with the overlays that
config.txt names, as the GPU firmware would, and must give spi0 two spidev children with GPIO chip selects. The
packages are bookworm's (build_support/image/debs.py: the cached base if there is one, else downloaded once).
"""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from build_support.image import base, boards, card, debs, host, layers
from tests.system_tools import need_tool

CHECKOUT = Path(__file__).resolve().parents[1]
# The hook's absolute paths, each moved under the sandbox's root; ischroot says yes, dpkg says arm64 (shims)
HOOK_PATHS = ("/boot/", "/etc/default/raspi-", "/usr/lib/linux-image-", "/sys/firmware/devicetree/base/model")


@pytest.fixture(scope="module")
def packages() -> Path:
    for tool in ("dtc", "fdtoverlay"):
        need_tool(tool)
    if absent := [tool for tool in ("apt-get", "dpkg-deb", "depmod") if shutil.which(tool) is None]:
        pytest.skip(f"{', '.join(absent)} not here: Debian's packages cannot be fetched and unpacked (not Debian?)")
    try:
        return debs.unpacked(CHECKOUT)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"bookworm's packages could not be fetched ({' '.join(map(str, error.cmd))[:120]}): no archive?")


def sandbox_root(packages: Path, folder: Path) -> Path:
    """A root with what raspi-firmware's hook reads: its settings as the image build leaves them, the kernel, the
    initrd, the DTBs, and the FAT's overlays (boards.install, the build's own step)."""
    root = folder / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "usr" / "lib").mkdir(parents=True)
    (root / "etc" / "default").mkdir(parents=True)
    settings = (packages / "etc" / "default" / "raspi-firmware").read_text() + layers.FIRMWARE_SETTINGS
    (root / "etc" / "default" / "raspi-firmware").write_text(settings + "KERNEL_ARCH=arm64\n")  # dpkg here: amd64
    (root / boards.FIRMWARE_CUSTOM).write_text("dtparam=spi=on\n")  # install.sh's own line (tests/test_install_script)
    for kernel in (packages / "usr" / "lib").glob("linux-image-*"):
        shutil.copytree(kernel, root / "usr" / "lib" / kernel.name)
        version = kernel.name.removeprefix("linux-image-")
        (root / "boot" / f"vmlinuz-{version}").write_bytes(b"kernel")
        (root / "boot" / f"initrd.img-{version}").write_bytes(b"initrd")
    boards.install(root)
    return root


def run_hook(packages: Path, root: Path, version: str) -> str:
    """raspi-firmware's z50 hook for kernel VERSION, its paths moved under ROOT; the config.txt it wrote."""
    text = (packages / "etc" / "kernel" / "postinst.d" / "z50-raspi-firmware").read_text()
    for path in HOOK_PATHS:
        assert path in text, f"raspi-firmware's hook no longer reads {path}: the sandbox needs updating"
        text = text.replace(path, f"{root}{path}")
    hook = root.parent / "z50-raspi-firmware"
    hook.write_text(text)
    shims = root.parent / "bin"
    shims.mkdir(exist_ok=True)
    (shims / "ischroot").write_text("#!/bin/sh\nexit 0\n")
    (shims / "dpkg").write_text("#!/bin/sh\necho arm64\n")
    for shim in shims.iterdir():
        shim.chmod(0o755)
    env = {"PATH": f"{shims}:/usr/bin:/bin", "DEB_MAINT_PARAMS": "configure"}
    subprocess.run(["sh", str(hook), version], env=env, check=True, capture_output=True)
    return (root / "boot" / "firmware" / "config.txt").read_text()


def as_the_firmware_merges(root: Path, config: str, folder: Path) -> list[str]:
    """What keeps spidev from each DTB on the FAT once merged with config.txt's overlays (empty: nothing)."""
    firmware = root / "boot" / "firmware"
    named = re.findall(r"^dtoverlay=([\w-]+)", config, re.MULTILINE)
    dtbs = sorted(firmware.glob("bcm*.dtb"))
    assert dtbs, "the hook copied the kernel's DTBs to the FAT"
    found = []
    for dtb in dtbs:
        merged = folder / dtb.name
        overlays = [str(firmware / "overlays" / f"{name}.dtbo") for name in named]
        if overlays:  # with none, the firmware hands over the DTB as it is
            subprocess.run(["fdtoverlay", "-i", str(dtb), "-o", str(merged), *overlays], check=True)
        else:
            shutil.copyfile(dtb, merged)
        tree = boards.read(merged)
        children = [path for path in tree.nodes if path.rsplit("/", 1)[0] == boards.SPI_PATH]
        spidev = [p for p in children if tree.strings(p, "compatible") == [boards.SPIDEV_COMPATIBLE]]
        if tree.strings(boards.SPI_PATH, "status") != ["okay"] or len(spidev) != 2:
            found.append(f"{dtb.name}: spi0 {tree.strings(boards.SPI_PATH, 'status')}, spidev {spidev}")
        elif len(tree.cells(boards.SPI_PATH, "cs-gpios")) != 6:
            found.append(f"{dtb.name}: no cs-gpios")
    return found


def test_each_board_gets_spidev_from_config_txt_as_the_hook_writes_it_and_after_a_kernel_upgrade(
    packages: Path, tmp_path: Path
) -> None:
    root = sandbox_root(packages, tmp_path)
    (kernel,) = (root / "usr" / "lib").glob("linux-image-*")
    version = kernel.name.removeprefix("linux-image-")
    config = run_hook(packages, root, version)
    assert f"dtoverlay={boards.OVERLAY}" in config and f"kernel=vmlinuz-{version}" in config, config
    assert as_the_firmware_merges(root, config, tmp_path) == []

    # an upgrade: a newer kernel, its DTBs copied over the FAT's again and config.txt written anew
    newer = re.sub(r"^(\d+\.\d+\.)(\d+)", lambda m: f"{m[1]}{int(m[2]) + 1}", version)
    shutil.copytree(kernel, kernel.with_name(f"linux-image-{newer}"))
    (root / "boot" / f"vmlinuz-{newer}").write_bytes(b"newer kernel")
    (root / "boot" / f"initrd.img-{newer}").write_bytes(b"newer initrd")
    config = run_hook(packages, root, newer)
    assert f"kernel=vmlinuz-{newer}" in config and f"dtoverlay={boards.OVERLAY}" in config, config
    assert as_the_firmware_merges(root, config, tmp_path) == []


def test_the_kernel_binds_the_overlays_spidev_compatible(packages: Path) -> None:
    """spidev is built in (no modules.alias line): its table is in the kernel image itself."""
    (vmlinuz,) = (packages / "boot").glob("vmlinuz-*")
    image = vmlinuz.read_bytes()  # Debian's arm64 vmlinuz is the plain Image
    image = gzip.decompress(image) if image[:2] == b"\x1f\x8b" else image
    assert boards.SPIDEV_COMPATIBLE.encode() + b"\0" in image
    builtin = next((packages / "lib" / "modules").iterdir()) / "modules.builtin"
    assert "kernel/drivers/spi/spidev.ko" in builtin.read_text().split(), "spidev built in: cmdline's bufsiz"


def test_the_initramfs_list_holds_what_each_boards_sd_card_needs(packages: Path) -> None:
    dtbs = boards.shipped_dtbs(packages)
    modules = next((packages / "lib" / "modules").iterdir())
    needed = boards.root_modules(next(dtb for dtb in dtbs if dtb.name == "bcm2711-rpi-4-b.dtb"),
                                 boards.module_aliases(modules))  # fmt: skip
    assert {"gpio_regulator", "fixed", "sdhci_iproc"} <= needed, needed
    assert boards.missing_root_modules(dtbs, modules, set(base.INITRAMFS_MODULES)) == []


def test_the_cached_roots_initramfs_holds_what_each_boards_sd_card_needs() -> None:
    """The initramfs the base made, when its module list is this checkout's (else the image layer makes it anew and
    the build's own check, boards.check_initramfs, reads that one)."""
    need_tool("lsinitramfs")
    tree = debs.cached_base(CHECKOUT)
    if tree is None:
        pytest.skip("no cached image base for these inputs (python3 dev.py image or the card image test makes it)")
    if (tree / base.MODULES_FILE).read_text().split() != list(base.INITRAMFS_MODULES):
        pytest.skip("the cached base's initramfs has another module list: the image layer makes it again")
    (initrd,) = (tree / "boot").glob("initrd.img-*")
    listing = subprocess.run(["lsinitramfs", str(initrd)], capture_output=True, text=True, check=True).stdout
    modules = next((tree / "lib" / "modules").iterdir())
    assert boards.initramfs_problems(listing, boards.shipped_dtbs(tree), modules) == []
    assert "regulator/gpio-regulator.ko" in listing and "regulator/fixed.ko" in listing


def test_the_boot_partition_is_fat32_as_genimage_makes_it(tmp_path: Path) -> None:
    """mkfs.fat with the card's own arguments (genimage adds the label and the file) on a partition its size."""
    mkfs = need_tool("mkfs.vfat")
    partition = tmp_path / "firmware.vfat"
    with partition.open("wb") as file:
        file.truncate(card.FIRMWARE_MIB * 2**20)
    subprocess.run([mkfs, *card.VFAT_ARGS.split(), "-n", card.FIRMWARE_LABEL, str(partition)], check=True,
                   capture_output=True)  # fmt: skip
    boot_sector = partition.read_bytes()[:512]
    assert boot_sector[82:90] == b"FAT32   ", boot_sector[54:62]  # the FAT32 file-system type field, else FAT16's


def test_alsas_default_is_the_jack_where_its_card_is_there_else_card_0(tmp_path: Path) -> None:
    """The image's ALSA files read by this machine's alsa-lib (no sound card here: each open fails, naming the card
    it looked for): the udev rule's copy makes "default" the jack; without it, ALSA's card 0 (HDMI or USB)."""
    aplay = need_tool("aplay")
    if Path("/proc/asound/card0").exists():
        pytest.skip("this machine has a sound card: an open would not fail naming the card it looked for")
    files = layers.FILES
    rule = (files / "etc/udev/rules.d/70-doge-companion-jack.rules").read_text()
    copied = re.search(r'ATTR\{id\}=="Headphones", RUN\+="/bin/cp (\S+) (\S+)"', rule)
    assert copied, rule
    source, target = files / copied[1].lstrip("/"), tmp_path / "jack.conf"
    hook = (files / "etc/alsa/conf.d/50-doge-companion-jack.conf").read_text()
    assert f'"{copied[2]}"' in hook, "the hook loads what the rule writes"
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "conf.d" / "50-doge-companion-jack.conf").write_text(hook.replace(copied[2], str(target)))
    top = Path("/usr/share/alsa/alsa.conf").read_text()
    assert '"/etc/alsa/conf.d"' in top
    (tmp_path / "alsa.conf").write_text(top.replace('"/etc/alsa/conf.d"', f'"{tmp_path}/conf.d"'))

    def looked_for() -> str:
        env = {"ALSA_CONFIG_PATH": str(tmp_path / "alsa.conf"), "PATH": "/usr/bin:/bin"}
        done = subprocess.run([aplay, "-D", "default", "/dev/null"], env=env, capture_output=True, text=True)
        found = re.search(r"cannot find card '([^']+)'", done.stderr)
        assert done.returncode != 0 and found, done.stderr
        return found[1]

    assert looked_for() == "0", "no jack: ALSA's own default"
    shutil.copyfile(source, target)
    assert looked_for() == "Headphones"


def test_the_build_refuses_a_card_whose_overlay_names_another_gpio_node(packages: Path, tmp_path: Path) -> None:
    """The overlay's cs-gpios hold the gpio node's phandle as a number: a kernel whose DTBs number it otherwise
    stops the build in one line, naming the board."""
    dtb = tmp_path / "bcm2837-rpi-3-b.dtb"
    shutil.copyfile(next(path for path in boards.shipped_dtbs(packages) if path.name == dtb.name), dtb)
    subprocess.run(["fdtput", "-t", "x", str(dtb), boards.GPIO_PATH, "phandle", "0x1000"], check=True)
    dtbo = boards.compile_overlay(tmp_path / "overlays")
    with pytest.raises(host.BuildError) as refused:
        boards.check_spi([dtb], dtbo)
    message = str(refused.value)
    assert "\n" not in message and "bcm2837-rpi-3-b.dtb: /soc/gpio@7e200000 has phandle [4096], not 6" in message
