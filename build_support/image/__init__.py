"""The card image (`python3 dev.py image`): Debian bookworm's arm64 archive, the companion installed by install.sh.

Layers, slowest first, each kept only as long as its inputs are the same:

- ``base``: the Debian root file system (mmdebstrap under qemu-user: the kernel, the Pi's firmware, Wi-Fi, the voice)
  with the hashed aarch64 lock installed in the companion's venv (``install.sh --image --pins-only``), kept as a
  directory in ~/.cache/doge-companion named by a hash of the package list and the lock: 10-17 minutes, once.
- ``layers``: the checkout's own code into that root by ``install.sh --image`` (the same steps as on Raspberry Pi OS),
  the first-boot files, the SPI overlay and the initramfs's modules checked against every board's DTB (boards.py),
  the initramfs if its modules changed, clamped time stamps and the list of package versions: two minutes, six with
  the rules engine compiled by mypyc under emulation.
- ``card``: genimage's MBR card (FAT ``RASPIFIRM`` for /boot/firmware, ext4 ``RASPIROOT``) with fixed disk ids.

Everything needs root (chroot, ownership in the file systems) and the host tools of requirements/system.txt.
"""
