"""Which optional libraries each way of running needs, and the one line that says what to install.

The base install (Pillow only) replays records, checks configs and draws screens; the hardware modes need an extra
(pyproject.toml). Checking with ``find_spec`` before starting says so in one line instead of a traceback from deep
inside an import, and costs no import.
"""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import unquote, urlparse

# mode -> (extra, modules it must provide). On the Pi, lgpio and spidev are checked by the hardware itself: they
# are absent on a desktop by design, where "pi" means "no GPIO here" rather than "install something".
NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "mock": ("mock", ("gpiozero", "luma.core", "serial")),
    "pi": ("pi", ("gpiozero", "luma.lcd", "serial")),
    "sim": ("sim", ("gpiozero", "luma.core", "serial", "pygame")),
}


def installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:  # a missing parent package (luma for luma.core)
        return False


def install_source() -> str:
    """What pip should install the extra from: the wheel or checkout this copy was installed from (pip records it
    in direct_url.json), since the package is not published on an index yet; a plain checkout on PYTHONPATH names
    itself. Falls back to the checkout's usual spelling. importlib.metadata is imported here, on this error path
    only: with the email package it brings, it was a tenth of the imports of a start without web pads (the start-up
    benchmark's; with them on, aiohttp brings the email package anyway)."""
    from importlib import metadata

    try:
        recorded = metadata.distribution("doge-companion").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        recorded = None
    if recorded:
        origin = json.loads(recorded)
        url = urlparse(origin.get("url", ""))
        if url.scheme == "file":
            where = unquote(url.path)
            return f"-e '{where}" if origin.get("dir_info", {}).get("editable") else f"'{where}"
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():
        return f"'{checkout}"
    return "'."


def missing(mode: str, command: str) -> str | None:
    """One line naming what is missing and the extra to install, or None when everything is there."""
    extra, modules = NEEDS[mode]
    absent = [module for module in modules if not installed(module)]
    if not absent:
        return None
    names = ", ".join("pyserial" if module == "serial" else module for module in absent)
    it = "it" if len(absent) == 1 else "them"
    source = install_source()
    return f"doge-companion {command}: {names} not installed; install {it} with: pip install {source}[{extra}]'"
