"""The card: genimage's MBR disk (FAT32 ``RASPIFIRM`` at 4 MiB for /boot/firmware, ext4 ``RASPIROOT``), fixed ids.

MBR, not GPT: a Pi 3's boot ROM reads only MBR. The FAT partition is what the GPU firmware reads (config.txt, the
kernel, the initrd) and what a person's computer shows when the card is plugged in (the card file). The root is made
just big enough for its files plus room to start; the first boot grows it to the card (rootfs/usr/local/sbin). The
disk signature, the FAT volume id, the ext4 UUID and its directory hash seed are fixed and every time stamp is
SOURCE_DATE_EPOCH, so the same root makes the same card.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from build_support.image import host

FIRMWARE_LABEL, ROOT_LABEL = "RASPIFIRM", "RASPIROOT"
DISK_SIGNATURE = "0xd09e0045"
FAT_VOLUME_ID = "D09E0045"
ROOT_UUID = "d09e0045-0000-4000-8000-00000000ca4d"
HASH_SEED = "d09e0045-0000-4000-8000-0000000054ed"
FIRMWARE_MIB = 256
# genimage's mkdosfs arguments for the FAT: FAT32 said, as mkfs.fat picks FAT16 for 256 MiB by itself
VFAT_ARGS = f"-F 32 -i {FAT_VOLUME_ID}"
ROOM_MIB = 384  # free space on the root before the first boot grows it (logs, the first games)
CONFIG = """image firmware.vfat {{
  temporary = true
  mountpoint = "/boot/firmware"
  size = {firmware}M
  vfat {{
    label = "{firmware_label}"
    extraargs = "{vfat_args}"
  }}
}}
image root.ext4 {{
  temporary = true
  size = {root}M
  ext4 {{
    label = "{root_label}"
    use-mke2fs = true
    features = "^metadata_csum_seed"
    extraargs = "-U {uuid} -E hash_seed={seed} -m 1"
  }}
}}
image {name} {{
  hdimage {{
    partition-table-type = "mbr"
    disk-signature = {signature}
  }}
  partition firmware {{
    partition-type = 0xC
    bootable = true
    offset = 4M
    image = "firmware.vfat"
  }}
  partition root {{
    partition-type = 0x83
    image = "root.ext4"
  }}
}}
"""


def tree_mib(root: Path) -> int:
    used = subprocess.run(["du", "-s", "--block-size=1M", "--exclude=./boot/firmware", "."], cwd=root,
                          capture_output=True, text=True, check=True).stdout.split()[0]  # fmt: skip
    return int(used)


def make(root: Path, output: Path, work: Path, epoch: int) -> Path:
    """OUTPUT (a raw card image) from ROOT, in WORK (genimage's scratch space)."""
    size = tree_mib(root) * 11 // 10 + ROOM_MIB
    config = work / "genimage.cfg"
    work.mkdir(parents=True, exist_ok=True)
    config.write_text(CONFIG.format(
        firmware=FIRMWARE_MIB, firmware_label=FIRMWARE_LABEL, vfat_args=VFAT_ARGS, root=size,
        root_label=ROOT_LABEL, uuid=ROOT_UUID, seed=HASH_SEED, name=output.name, signature=DISK_SIGNATURE,
    ))  # fmt: skip
    output.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch), "E2FSPROGS_FAKE_TIME": str(epoch)}
    host.run(
        ["genimage", "--rootpath", str(root), "--tmppath", str(work / "tmp"), "--inputpath", str(work),
         "--outputpath", str(output.parent), "--config", str(config)], "genimage (the card)", env=env, quiet=True,
    )  # fmt: skip
    return output


def compress(image: Path) -> Path:
    """IMAGE.xz (multi-threaded, the raw image removed), with xz's own progress on a terminal."""
    host.run(["xz", "--force", "--threads=0", "-6", "--verbose", str(image)], "xz", quiet=True)
    return image.with_name(image.name + ".xz")
