"""What this Pi has, line by line (``doge-companion check-hardware``, docs/installing.md's checklist): the board, the
SPI device and its buffer, the GPIO chip and whether the configured pins are free, the sound cards and the one the
voice plays on, the Wi-Fi chip's firmware, the clock's sync.

Everything is read from files under ``root`` (``/`` on the Pi, a fake tree in tests): /proc, /sys, /dev, /run and
the kernel's log through /dev/kmsg. Nothing is opened for writing and no pin is claimed, so it can run beside the
service. The first-boot screen shows the lines that found something missing (first_boot.py).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from hardware.board import header_chip, missing_line, read_board
from hardware.sound_cards import cards, choose_device

from .. import RELEASED
from ..system.schema import SPI0_CE, SPI0_PINS, pins_in_use

State = Literal["ok", "missing", "note"]
FULL_BUFFER = 65536  # a 320x240 frame in 3 writes (install.sh's and the card's spidev.bufsiz)
ZERO_2_W_FIRMWARE = "brcmfmac43430b0-sdio"  # what brcmfmac asks for on a Zero 2 W's BCM43436: in no Debian package


@dataclass(frozen=True)
class Finding:
    part: str  # board, spi, gpio, sound, wifi, clock
    state: State
    text: str

    def line(self) -> str:
        return f"{self.part:<6} {self.state:<7} {self.text}"


def _text(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return None


def kernel_log(root: Path) -> list[str]:
    """The kernel's messages still in its ring buffer: /dev/kmsg read to its end without waiting (each read is one
    record there; a fake tree's plain file reads in chunks). Empty when it cannot be read (not root)."""
    try:
        handle = os.open(root / "dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return []
    chunks: list[bytes] = []
    try:
        while True:
            try:
                chunk = os.read(handle, 8192)
            except BlockingIOError:
                break
            except OSError:  # EPIPE: a record overwritten while reading; what was read stands
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(handle)
    lines = b"".join(chunks).decode("utf-8", "replace").splitlines()
    return [line.split(";", 1)[-1] for line in lines if line and not line.startswith(" ")]


def check_board(root: Path) -> Finding:
    board = read_board(root)
    if board.revision is None:
        return Finding("board", "missing", missing_line(board))
    if board.told:
        return Finding(
            "board",
            "note",
            f"{board.name}: revision {board.revision:x} told from the device tree (the kernel gives none)",
        )
    return Finding("board", "ok", f"{board.name}: revision {board.revision:x}")


def check_spi(root: Path, display: Mapping[str, Any]) -> Finding:
    device = f"spidev{display['spi_port']}.{display['spi_device']}"
    buffer = _text(root / "sys/module/spidev/parameters/bufsiz")
    if not (root / "dev" / device).exists():
        state: State = "note" if display["driver"] == "capture" else "missing"
        return Finding("spi", state, f"no /dev/{device}: SPI is not switched on (docs/installing.md)")
    if buffer is None:
        return Finding("spi", "note", f"/dev/{device}; spidev's buffer unknown (no /sys/module/spidev)")
    if not buffer.isdigit() or int(buffer) < FULL_BUFFER:
        return Finding(
            "spi",
            "note",
            f"/dev/{device}, buffer {buffer} bytes (spidev.bufsiz={FULL_BUFFER} sends a frame in fewer writes)",
        )
    return Finding("spi", "ok", f"/dev/{device}, buffer {buffer} bytes")


def _held_lines(root: Path) -> tuple[str | None, int, dict[int, str]] | None:
    """The header's GPIO chip in the kernel's debugfs listing: its label, its line count and who holds which line.
    None when debugfs cannot be read (not root, or not mounted)."""
    text = _text(root / "sys/kernel/debug/gpio")
    if text is None:
        return None
    header = re.compile(r"gpiochip\d+: GPIOs (\d+)-(\d+), (?:parent: \S+, )?([^:]+):")
    held = re.compile(r"\s*gpio-(\d+)\s+\(([^|]*)\|([^)]*)\)")
    chips: list[tuple[str, int, dict[int, str]]] = []
    base = 0
    for line in text.splitlines():
        match = header.match(line)
        if match:
            base = int(match[1])
            chips.append((match[3].strip(), int(match[2]) - base + 1, {}))
            continue
        match = held.match(line)
        if match and chips:
            chips[-1][2][int(match[1]) - base] = match[3].strip() or "?"
    if not chips:
        return None, 0, {}
    # The header's chip is the pin controller (pinctrl-bcm2835, -bcm2711, -rp1), whichever registered first.
    return next((chip for chip in chips if chip[0].startswith("pinctrl-")), chips[0])


def check_gpio(root: Path, settings: Mapping[str, Any]) -> Finding:
    chips = sorted(path.name for path in (root / "dev").glob("gpiochip*"))
    if not chips:
        return Finding("gpio", "missing", "no /dev/gpiochip*: this kernel gives no GPIO character device")
    header = header_chip(root)
    if header is not None and f"gpiochip{header}" in chips:
        chips.insert(0, f"gpiochip{header}")
    spi = set(SPI0_PINS) | set(SPI0_CE.values())  # the kernel's SPI driver holds these: that is right
    wanted = [(name, pin) for name, pin in pins_in_use(settings) if pin not in spi]
    listing = _held_lines(root)
    if listing is None:
        return Finding(
            "gpio",
            "note",
            f"/dev/{chips[0]}; whether pins are free is not known (no /sys/kernel/debug/gpio: run as root)",
        )
    label, count, held = listing
    taken = [f"GPIO {pin} ({name}) is held by {held[pin]}" for name, pin in wanted if pin in held]
    chip = f"/dev/{chips[0]} {label}, {count} lines"
    if taken:
        return Finding("gpio", "missing", f"{chip}; " + "; ".join(taken))
    pins = ", ".join(str(pin) for pin in sorted({pin for _name, pin in wanted}))
    return Finding("gpio", "ok", f"{chip}; the configured pins are free ({pins or 'none'})")


def check_sound(root: Path, sound: Mapping[str, Any], home: Path | None) -> Finding:
    found = cards(root)
    if sound["voice"] == "off":
        return Finding("sound", "note", 'sound.voice = "off"')
    listed = ", ".join(f"{card.number} {card.id}" for card in found) or "none"
    choice = choose_device(sound["device"], root, home)
    state: State = "ok" if found else "missing"
    return Finding("sound", state, f"cards: {listed}; plays on {choice.why}")


def check_wifi(root: Path, messages: list[str]) -> Finding:
    """From brcmfmac's own messages: the firmware it loaded, or the files it asked for and did not find."""
    loaded = [line for line in messages if "brcmfmac" in line and "Firmware: " in line]
    if loaded:
        return Finding("wifi", "ok", "brcmfmac " + loaded[-1].split("Firmware: ", 1)[1].strip())
    asked = re.compile(r"Direct firmware load for (?:brcm/)?(\S+?)(?:\.[a-z0-9,-]+)*\.(?:bin|txt|clm_blob) failed")
    wanted = sorted({match[1] for line in messages if "brcmfmac" in line for match in [asked.search(line)] if match})
    if ZERO_2_W_FIRMWARE in wanted:
        return Finding(
            "wifi",
            "missing",
            f"brcmfmac finds no {ZERO_2_W_FIRMWARE} (a Zero 2 W's BCM43436): this board's Wi-Fi chip has no firmware "
            "in Debian 12: use Raspberry Pi OS and install.sh",
        )
    if wanted:
        return Finding("wifi", "missing", "brcmfmac finds no firmware: " + ", ".join(wanted))
    if any("brcmfmac" in line for line in messages):
        return Finding("wifi", "note", "brcmfmac says no firmware version (is the chip up? see: dmesg | grep brcmfmac)")
    if not messages:
        return _wifi_from_sysfs(root)
    return Finding("wifi", "note", "no brcmfmac messages: no Wi-Fi chip on SDIO, or the log has rolled over")


def _wifi_from_sysfs(root: Path) -> Finding:
    """Without the kernel's log (the service may not read it, and its private network hides wlan0): brcmfmac lets
    go of the chip when its firmware is missing, so a Broadcom SDIO chip with no driver bound, on a Zero 2 W with no
    43430b0 firmware on disk, is the BCM43436 case; bound, the driver has its firmware or is still loading it."""
    wireless = sorted(path.parent.name for path in (root / "sys/class/net").glob("*/wireless"))
    if wireless:
        return Finding("wifi", "ok", f"{', '.join(wireless)} up (the kernel's log cannot be read: run as root)")
    functions = [path.parent for path in (root / "sys/bus/sdio/devices").glob("*/vendor") if _text(path) == "0x02d0"]
    bound = [function.name for function in functions if (function / "driver").exists()]
    if bound:
        return Finding("wifi", "ok", f"brcmfmac holds the chip ({', '.join(sorted(bound))})")
    firmware = any((root / "lib/firmware/brcm").glob(ZERO_2_W_FIRMWARE + "*"))
    if functions and not firmware and read_board(root).known == "raspberrypi,model-zero-2-w":
        return Finding(
            "wifi",
            "missing",
            f"brcmfmac let go of the chip and there is no {ZERO_2_W_FIRMWARE} (a Zero 2 W's BCM43436): this board's "
            "Wi-Fi chip has no firmware in Debian 12: use Raspberry Pi OS and install.sh",
        )
    if functions:
        return Finding("wifi", "missing", "Broadcom's Wi-Fi chip has no driver (see: dmesg | grep brcmfmac, as root)")
    return Finding("wifi", "note", "no Wi-Fi chip on SDIO, and the kernel's log cannot be read (run as root)")


def screen_lines(findings: list[Finding]) -> tuple[str, ...]:
    """What the first-boot screen says of the parts found missing, one short line each in the table's language. Not
    the clock: at every boot it is unset until the network is up, and the line would stay after it is set."""
    from ..i18n import _

    lines = []
    for finding in findings:
        if finding.state != "missing" or finding.part == "clock":
            continue
        if finding.part == "wifi" and ZERO_2_W_FIRMWARE in finding.text:
            lines.append(_("This board's Wi-Fi chip has no firmware in Debian 12: use Raspberry Pi OS and install.sh"))
            continue
        line = {
            "board": _("Not a Raspberry Pi the companion knows"),
            "spi": _("No SPI device for the LCD"),
            "gpio": _("A configured pin is held by something else"),
            "sound": _("No sound card: the voice is silent"),
            "wifi": _("The Wi-Fi chip has no firmware"),
        }[finding.part]
        lines.append(line + " " + _("(doge-companion check-hardware)"))
    return tuple(lines)


def check_clock(root: Path, now: Callable[[], float] = time.time) -> Finding:
    today = time.strftime("%Y-%m-%d", time.gmtime(now()))
    if today < RELEASED:
        return Finding("clock", "missing", f"{today}, before this version's release ({RELEASED}): not set yet")
    if (root / "run/systemd/timesync/synchronized").exists():
        return Finding("clock", "ok", f"{today}, synchronised (systemd-timesyncd)")
    if (root / "lib/systemd/systemd-timesyncd").exists() or (root / "usr/lib/systemd/systemd-timesyncd").exists():
        return Finding("clock", "note", f"{today}, not synchronised yet (systemd-timesyncd is installed; timedatectl)")
    return Finding("clock", "note", f"{today}, no time sync installed (sudo apt install systemd-timesyncd)")


def check_hardware(
    settings: Mapping[str, Any],
    root: Path = Path("/"),
    home: Path | None = None,
    now: Callable[[], float] = time.time,
) -> list[Finding]:
    return [
        check_board(root),
        check_spi(root, settings["display"]),
        check_gpio(root, settings),
        check_sound(root, settings["sound"], home),
        check_wifi(root, kernel_log(root)),
        check_clock(root, now),
    ]
