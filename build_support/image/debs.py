"""The image's kernel and raspi-firmware unpacked on this machine without building a root: for the fast checks.

The base (base.py) installs whatever bookworm's archive has today: ``linux-image-arm64`` names one kernel package
and its version. This asks the same archive the same question with apt's own client (a private state folder, the
host's Debian keys, arm64), downloads those two packages with ``apt-get download`` into the cache once per
version, and unpacks them with ``dpkg-deb -x``; ``depmod`` writes the modules.alias a root would have. If the cached
base for these inputs exists, its files are the ones the card ships and are used instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from build_support.image import base

APT_CONF = """Dir::Etc "{root}/etc";
Dir::Etc::TrustedParts "/etc/apt/trusted.gpg.d";
Dir::State "{root}/state";
Dir::State::status "/dev/null";
Dir::Cache "{root}/cache";
APT::Architecture "arm64";
APT::Architectures "arm64";
APT::Sandbox::User "root";
"""


def cached_base(checkout: Path) -> Path | None:
    """The cached base root for CHECKOUT's inputs, if one was built (the kernel, its modules, raspi-firmware)."""
    tree = base.cache_dir() / f"image-base-{base.key(checkout)}"
    return tree if (tree / "opt" / "doge-companion" / ".venv" / "bin" / "python").exists() else None


def apt(folder: Path, *args: str) -> str:
    env = {**os.environ, "APT_CONFIG": str(folder / "apt.conf")}
    return subprocess.run(["apt-get" if args[0] != "show" else "apt-cache", *args], cwd=folder / "debs", env=env,
                          capture_output=True, text=True, check=True).stdout  # fmt: skip


def unpacked(checkout: Path) -> Path:
    """A folder holding what the card's root would: the kernel's DTBs, modules (with modules.alias) and vmlinuz, and
    raspi-firmware's kernel hook and settings."""
    if found := cached_base(checkout):
        return found
    folder = base.cache_dir() / "boot-path"
    for part in ("etc/apt.conf.d", "etc/preferences.d", "state/lists/partial", "cache/archives/partial", "debs"):
        (folder / part).mkdir(parents=True, exist_ok=True)
    (folder / "apt.conf").write_text(APT_CONF.format(root=folder))
    (folder / "etc" / "sources.list").write_text(f"deb {base.MIRROR} {base.SUITE} {base.COMPONENTS}\n")
    apt(folder, "-qq", "update")
    depends = re.search(r"^Depends: (linux-image-\S+)", apt(folder, "show", "linux-image-arm64"), re.MULTILINE)
    assert depends, "linux-image-arm64 names its kernel package"
    tree = folder / f"root-{depends[1]}"
    if not (tree / "lib" / "modules").exists():
        apt(folder, "-qq", "download", depends[1], "raspi-firmware")
        shutil.rmtree(tree, ignore_errors=True)
        for deb in sorted((folder / "debs").glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
            deb.unlink()
        for version in (tree / "lib" / "modules").iterdir():
            subprocess.run(["depmod", "-b", str(tree), version.name], check=True)
    return tree
