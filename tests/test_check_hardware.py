"""``doge-companion check-hardware`` on fake trees: a Pi 3 on Debian's kernel as it boots from the card (the revision
told from the device tree, SPI on, the jack chosen over a headless HDMI card) and a Zero 2 W whose Wi-Fi chip has no
firmware, one line a part."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from companion.app.hardware_check import check_hardware, check_wifi
from companion.system import config
from tests.hardware.test_board import debian_pi
from tests.hardware.test_sound_cards import HDMI_FIRST
from tests.test_cli_outputs import doge

DEBUGFS_GPIO = """\
gpiochip0: GPIOs 512-565, parent: platform/3f200000.gpio, pinctrl-bcm2835:
 gpio-519 (SPI_CE1_N           |spi0 CS1            ) out hi ACTIVE LOW
 gpio-520 (SPI_CE0_N           |spi0 CS0            ) out hi ACTIVE LOW
 gpio-541 (                    |led0                ) out lo

gpiochip1: GPIOs 566-573, parent: platform/soc:firmware:gpio, raspberrypi-exp-gpio, can sleep:
"""
PI3_WIFI = [
    "brcmfmac: F1 signature read @0x18000000=0x1541a9a6",
    "brcmfmac: brcmf_fw_alloc_request: using brcm/brcmfmac43430-sdio for chip BCM43430/1",
    "brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM43430/1 wl0: Jun 14 2023 07:27:45 version 7.45.96.s1 (gf031a129)",
]
ZERO_2_W_WIFI = [
    "brcmfmac: brcmf_fw_alloc_request: using brcm/brcmfmac43430b0-sdio for chip BCM43430/2",
    "brcmfmac mmc1:0001:1: Direct firmware load for brcm/brcmfmac43430b0-sdio.raspberrypi,model-zero-2-w.bin failed "
    "with error -2",
    "brcmfmac mmc1:0001:1: Direct firmware load for brcm/brcmfmac43430b0-sdio.bin failed with error -2",
    "brcmfmac: brcmf_sdio_htclk: HT Avail timeout (1000000): clkctl 0x50",
]


def pi_tree(root: Path, bufsiz: int = 65536, wifi: list[str] = PI3_WIFI) -> Path:
    """A Pi 3 B booted from the card: Debian's kernel, upstream device tree, the card's overlay and cmdline."""
    debian_pi(root, "raspberrypi,3-model-b", "Raspberry Pi 3 Model B Rev 1.2")
    (root / "dev").mkdir()
    for name in ("spidev0.0", "spidev0.1", "gpiochip0", "gpiochip1"):
        (root / "dev" / name).touch()
    (root / "dev" / "kmsg").write_text(
        "".join(f"6,{n},{n * 1000},-;{line}\n" for n, line in enumerate(["Booting Linux on physical CPU 0x0", *wifi]))
    )
    (root / "sys" / "module" / "spidev" / "parameters").mkdir(parents=True)
    (root / "sys" / "module" / "spidev" / "parameters" / "bufsiz").write_text(f"{bufsiz}\n")
    (root / "sys" / "kernel" / "debug").mkdir(parents=True)
    (root / "sys" / "kernel" / "debug" / "gpio").write_text(DEBUGFS_GPIO)
    (root / "proc" / "asound").mkdir()
    (root / "proc" / "asound" / "cards").write_text(HDMI_FIRST)
    connector = root / "sys" / "class" / "drm" / "card0-HDMI-A-1"
    connector.mkdir(parents=True)
    (connector / "status").write_text("disconnected\n")
    (root / "run" / "systemd" / "timesync").mkdir(parents=True)
    (root / "run" / "systemd" / "timesync" / "synchronized").touch()
    return root


def settings(**display: Any) -> dict[str, Any]:
    data = config.load(None, search=False).data
    return {**data, "display": {**data["display"], "driver": "st7735", **display}}


NOW = 1_798_000_000.0  # 2026-12-23


def test_a_pi_3_from_the_card_reads_ok_line_by_line(tmp_path: Path) -> None:
    lines = [f.line() for f in check_hardware(settings(), pi_tree(tmp_path), now=lambda: NOW)]
    assert lines == [
        "board  note    Raspberry Pi 3 Model B Rev 1.2: revision a02080 told from the device tree (the kernel gives "
        "none)",
        "spi    ok      /dev/spidev0.0, buffer 65536 bytes",
        "gpio   ok      /dev/gpiochip0 pinctrl-bcm2835, 54 lines; the configured pins are free (5, 6, 12, 13, 18, 19, "
        "24, 25)",
        "sound  ok      cards: 0 vc4hdmi, 1 Headphones; plays on plughw:CARD=Headphones (the 3.5 mm jack): ALSA's "
        "default, card 0 (vc4hdmi), is HDMI with no screen attached",
        "wifi   ok      brcmfmac BCM43430/1 wl0: Jun 14 2023 07:27:45 version 7.45.96.s1 (gf031a129)",
        "clock  ok      2026-12-23, synchronised (systemd-timesyncd)",
    ]


def test_what_is_missing_is_said(tmp_path: Path) -> None:
    root = pi_tree(tmp_path, bufsiz=4096, wifi=ZERO_2_W_WIFI)
    (root / "dev" / "spidev0.0").unlink()
    (root / "run" / "systemd" / "timesync" / "synchronized").unlink()
    (root / "sys" / "kernel" / "debug" / "gpio").write_text(
        DEBUGFS_GPIO.replace(" gpio-541", " gpio-536 (                    |lg                  ) in  hi\n gpio-541")
    )
    found = {f.part: f for f in check_hardware(settings(), root, now=lambda: 1_600_000_000.0)}
    assert found["spi"].state == "missing" and "no /dev/spidev0.0" in found["spi"].text
    assert found["gpio"].text.endswith("GPIO 24 (display.dc_pin) is held by lg"), found["gpio"].text
    assert found["wifi"].text.endswith(
        "this board's Wi-Fi chip has no firmware in Debian 12: use Raspberry Pi OS and install.sh"
    )
    assert found["clock"].state == "missing" and found["clock"].text.startswith("2020-09-13, before this version's")


def test_a_kernel_revision_is_ok_and_a_small_buffer_a_note(tmp_path: Path) -> None:
    root = pi_tree(tmp_path, bufsiz=4096)
    (root / "proc" / "device-tree" / "system").mkdir()
    (root / "proc" / "device-tree" / "system" / "linux,revision").write_bytes(struct.pack(">I", 0xA02082))
    found = {f.part: f for f in check_hardware(settings(), root, now=lambda: NOW)}
    assert (found["board"].state, found["board"].text) == ("ok", "Raspberry Pi 3 Model B Rev 1.2: revision a02082")
    assert found["spi"].state == "note" and "buffer 4096 bytes" in found["spi"].text


def test_an_unreadable_log_and_no_debugfs_are_notes(tmp_path: Path) -> None:
    root = pi_tree(tmp_path)
    (root / "dev" / "kmsg").unlink()
    (root / "sys" / "kernel" / "debug" / "gpio").unlink()
    found = {f.part: f for f in check_hardware(settings(), root, now=lambda: NOW)}
    assert found["wifi"] == check_wifi(root, []) and found["wifi"].state == "note"
    assert found["gpio"].state == "note" and "run as root" in found["gpio"].text


@pytest.mark.parametrize(("missing", "status"), [(False, 0), (True, 1)])
def test_the_command_prints_the_lines_and_fails_when_something_is_missing(
    tmp_path: Path, missing: bool, status: int
) -> None:
    root = pi_tree(tmp_path / "root")
    if missing:
        (root / "dev" / "spidev0.0").unlink()
    card = tmp_path / "config.toml"
    card.write_text('[display]\ndriver = "st7735"\n')
    done = doge("check-hardware", "--root", str(root), "--config", str(card), cwd=tmp_path)
    assert done.returncode == status, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["board", "spi", "gpio", "sound", "wifi", "clock"]
    assert "Traceback" not in done.stderr


def zero_2_w_without_log(root: Path) -> Path:
    """A Zero 2 W as the service sees it: no kernel log to read, Broadcom's chip on SDIO, no wireless interface."""
    pi_tree(root, wifi=[])
    (root / "proc" / "device-tree" / "compatible").write_bytes(b"raspberrypi,model-zero-2-w\0brcm,bcm2837\0")
    (root / "proc" / "device-tree" / "model").write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    (root / "dev" / "kmsg").unlink()
    function = root / "sys" / "bus" / "sdio" / "devices" / "mmc1:0001:1"
    function.mkdir(parents=True)
    (function / "vendor").write_text("0x02d0\n")
    (function / "device").write_text("0xa9a6\n")
    (root / "lib" / "firmware" / "brcm").mkdir(parents=True)
    (root / "lib" / "firmware" / "brcm" / "brcmfmac43430-sdio.bin").touch()
    return root


def test_a_zero_2_w_with_no_firmware_is_told_without_the_kernels_log(tmp_path: Path) -> None:
    root = zero_2_w_without_log(tmp_path)
    found = check_wifi(root, [])
    assert found.state == "missing" and found.text.endswith("use Raspberry Pi OS and install.sh")
    (root / "sys" / "class" / "net" / "wlan0" / "wireless").mkdir(parents=True)
    assert check_wifi(root, []).state == "ok", "a wireless interface: its firmware loaded"


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "This board's Wi-Fi chip has no firmware in Debian 12: use Raspberry Pi OS and install.sh"),
        ("de", "Der WLAN-Chip dieses Boards hat in Debian 12 keine Firmware: Raspberry Pi OS und install.sh verwenden"),
        ("it", "Il chip Wi-Fi di questa scheda non ha firmware in Debian 12: usate Raspberry Pi OS e install.sh"),
    ],
)
def test_the_first_screen_says_what_is_missing_in_the_tables_language(tmp_path: Path, language: str, line: str) -> None:
    import random

    from companion.app.hardware_check import screen_lines
    from companion.flow.context import DeviceNotes
    from companion.flow.controller import Controller
    from companion.flow.modes.setup import with_device_notes
    from companion.i18n import set_language

    root = zero_2_w_without_log(tmp_path)
    (root / "dev" / "spidev0.0").unlink()
    set_language(language)
    try:
        notes = DeviceNotes(hardware=screen_lines(check_hardware(settings(), root, now=lambda: NOW)))
        controller = Controller(random.Random(1))
        screen = with_device_notes(controller.screen(), notes)
    finally:
        set_language("en")
    texts = [shown.text for shown in screen.lines]
    assert texts[1] == line, texts
    assert texts[0].endswith("(doge-companion check-hardware)") and len(notes.hardware) == 2
    assert all(shown.colour == "red" for shown in screen.lines[:2])


def test_a_zero_2_w_whose_driver_holds_its_chip_is_not_missing_firmware(tmp_path: Path) -> None:
    """The service's private network hides wlan0: brcmfmac still bound to the chip means its firmware loaded (or is
    loading); only a chip it let go of is the missing firmware."""
    root = zero_2_w_without_log(tmp_path)
    driver = root / "sys" / "bus" / "sdio" / "drivers" / "brcmfmac"
    driver.mkdir(parents=True)
    (root / "sys" / "bus" / "sdio" / "devices" / "mmc1:0001:1" / "driver").symlink_to(driver)
    assert check_wifi(root, []).state == "ok" and "mmc1:0001:1" in check_wifi(root, []).text
