"""The card image's figures (docs/installing.md "The card image"): its size, its build with a cold and with a warm
cache, and its boot to the join page under QEMU.

``python3 dev.py bench image`` builds the image twice as ``sudo python3 dev.py image`` does (the rules engine
compiled, xz): first with an empty cache of its own (the Debian root and the pinned venv made under qemu-user),
then again over the base that build left (what every later build of a changed checkout costs). Then it boots the
card under QEMU's ``virt`` machine with a card file that says mock hardware (QEMU has no GPIO or SPI) and times the
join page's first answer. Needs root and the image's host tools (requirements/system.txt); about an hour on two
cores. The smoke run builds nothing: it works out the base's inputs and says the figures are not measured.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

from build_support.image import base, build, host, qemu

from . import figures

CARD_FILE = 'hardware = "mock"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'
ROWS = (
    ("card image, compressed (.img.xz)", "MiB"),
    ("card image, raw", "MiB"),
    ("image build, cold cache (sudo python3 dev.py image)", "min"),
    ("image build, warm cache (the base cached)", "min"),
    ("boot to the join page under QEMU (-M virt, 2 cores)", "s"),
)


def measure(work: Path) -> list[float]:
    """[compressed MiB, raw MiB, cold min, warm min, boot s], with WORK as the cache and output."""
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    out = work / "dist"
    timed = []
    for _cold_then_warm in range(2):
        started = time.monotonic()
        image = build.build(out)
        timed.append((time.monotonic() - started) / 60)
    packed = image.stat().st_size / 2**20
    subprocess.run(["xz", "--decompress", "--keep", "--force", str(image)], check=True)
    raw = image.with_suffix("")
    size = raw.stat().st_size / 2**20
    made = qemu.prepare(raw, CARD_FILE)
    booted = qemu.Boot(made, work)
    try:
        boot = booted.until_answers(booted.url() + "/")
    finally:
        booted.close()
    return [packed, size, *timed, boot]


def main(smoke: bool) -> None:
    if smoke:
        inputs = base.packages(build.CHECKOUT)
        print(f"the base's inputs: {len(inputs)} Debian packages, key {base.key(build.CHECKOUT)}")
        for what, unit in ROWS:
            print(f"{what}: not measured in a smoke run ({unit})")
            figures.report(what, f"not measured ({unit})")
        return
    if found := host.problems():
        raise SystemExit("bench image: " + "; ".join(found))
    work = Path(tempfile.mkdtemp(prefix="bench-image-", dir=base.cache_dir().parent))
    kept = os.environ.get("XDG_CACHE_HOME")
    try:
        values = measure(work)
    finally:
        if kept is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = kept
        host.remove_tree(work)
    for (what, unit), value in zip(ROWS, values, strict=True):
        shown = f"{value:.0f} {unit}" if unit != "min" else f"{value:.1f} {unit}"
        print(f"{what}: {shown}")
        figures.report(what, shown)
