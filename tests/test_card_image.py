"""The card image booted under emulation (docs/installing.md "The card image"): `dev.py image`'s root, on its own card,
in QEMU.

The root is the one `python3 dev.py image` builds (build_support/image: Debian bookworm's arm64 archive, the companion
installed by ``install.sh --image``; its slow base cached in ~/.cache/doge-companion between runs) with three
test-only files: a relaxed watchdog (emulation is ten times slower than a Pi), the host's keys from a FIFO as in
tests/test_systemd_service.py, and a small HTTP control service that runs a command as root (QEMU has no nsenter).
genimage makes the card as for a release (no xz); the card file ``doge-companion.toml`` is written into its FAT
partition with mtools, as a person's computer would; the card is made larger than the image, as a real card is.

QEMU's ``virt`` machine then boots the kernel and initrd taken from the card's FAT partition, with the card's own
cmdline.txt and the card as its disk, and forwards the web port. From outside: the join page answers; three phones
join, red locks in a ballot; the service restarts and red gets its seat back; the card file's settings are what the
service runs with (mock hardware, German); the root grew to the card and the machine has its own id. Then the same
card boots under ``-M raspi3b`` as its SD card, with the device tree a Pi 3 B's firmware would build from the FAT
(its DTB and config.txt's overlays): spidev, its buffer, the pin controller and the watchdog, as on a Pi; the
self-check's report; and the companion on the Pi's hardware path as far as QEMU's SPI controller lets it. What QEMU
cannot show (the GPU firmware reading config.txt, a Pi 4, Wi-Fi, SPI's bytes, audio) is docs/installing.md's
checklist.

Needs root and requirements/system.txt's tools for this file; skipped without them, except in CI, where it fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

import dev
from build_support.image import base, build, card, host, qemu
from build_support.image.qemu import GROWN_MIB, Card
from tests.phone_client import Phone, lock_in_a_ballot
from tests.system_tools import need_tool

UNIT = "doge-companion"
COMPANION = "/opt/doge-companion/.venv/bin/doge-companion"
CARD_FILE = """# written on the card's FAT partition, as with any computer (docs/card-file.md)
hardware = "mock"
[display]
driver = "capture"
[pads]
serial = "off"
[game]
language = "de"
[wifi]
country = "DE"
ssid = "Spieleabend"
password = "not the real one"
"""
CONTROL = """import http.server, json, subprocess


class Control(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        script = self.rfile.read(int(self.headers["Content-Length"])).decode()
        done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=600)
        body = json.dumps({"status": done.returncode, "stdout": done.stdout, "stderr": done.stderr}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("0.0.0.0", 8089), Control).serve_forever()
"""
TEST_FILES = {
    # emulated, the game loop may miss the unit's 20 s watchdog: this drop-in, in the test's card only, relaxes it
    f"etc/systemd/system/{UNIT}.service.d/watchdog.conf": "[Service]\nWatchdogSec=180\nTimeoutStartSec=300\n",
    f"etc/systemd/system/{UNIT}.service.d/keys.conf": (
        f"[Service]\nExecStart=\nExecStart={COMPANION} run --config /etc/doge-companion/config.toml "
        "--keys /run/doge-companion/keys\n"
    ),
    "usr/local/lib/doge-test-control.py": CONTROL,
    "etc/systemd/system/doge-test-control.service": (
        "[Unit]\nDescription=the card image test's control (test only)\n[Service]\n"
        "ExecStart=/usr/bin/python3 /usr/local/lib/doge-test-control.py\n"
    ),
    "etc/systemd/system/multi-user.target.d/doge-test-control.conf": "[Unit]\nWants=doge-test-control.service\n",
}


GUEST_STATE = "cut -d' ' -f1 /proc/uptime; systemctl list-jobs --no-pager; systemd-analyze blame --no-pager | head -12"


@pytest.fixture(scope="module")
def made() -> Card:
    for tool, _package, test_file in dev.system_tools():
        if test_file == "tests/test_card_image.py" or tool in ("mmdebstrap", "dtc", "fdtoverlay", "lsinitramfs"):
            need_tool(tool)
    if os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("CI must build the card image: it needs root (a chroot); .ci/run runs as root")
        pytest.skip("needs root (the image's root file system is built in a chroot)")
    folder = base.cache_dir() / "card-test"  # on disk: the suite's TMPDIR is memory, and this is gigabytes
    host.remove_tree(folder)
    folder.mkdir(parents=True)
    root = folder / "root"
    build.build_root(root, TEST_FILES, compile_engine=False)  # the same rules as plain Python: minutes sooner
    image = card.make(root, folder / "card.img", folder / "genimage", build.commit(build.CHECKOUT)[1])
    host.remove_tree(root)
    host.remove_tree(folder / "genimage")
    return qemu.prepare(image, CARD_FILE)


class Guest(qemu.Boot):
    """The card booted, with the web port and the test's control service forwarded."""

    def __init__(self, made: Card, folder: Path, machine: str = "virt") -> None:
        super().__init__(made, folder, forwards=(8080, 8089), machine=machine)
        self.base, self.control = self.url(8080), self.url(8089)

    def run(self, script: str, check: bool = True) -> str:
        """SCRIPT in bash as root in the guest (the test's control service); its stdout."""
        request = urllib.request.Request(f"{self.control}/", data=script.encode(), method="POST")
        for attempt in range(120):  # the control service may not have started yet (a hang guard)
            try:
                with urllib.request.urlopen(request, timeout=660) as answer:
                    done = json.loads(answer.read())
                break
            except (ConnectionError, urllib.error.URLError) as error:
                assert attempt < 119 and self.process.poll() is None, f"no control service: {error}\n{self.log()}"
                time.sleep(1)
        if check and done["status"] != 0:
            raise AssertionError(f"{script}\n{done}\nthe unit's journal:\n{self.journal()}")
        return str(done["stdout"])

    def until_answers(self, url: str, timeout: float = 900) -> float:
        """As qemu.Boot's, and on a timeout the guest's own account, asked once: its clock and the jobs still
        waiting tell an emulation gone slow from a boot that hangs."""
        try:
            return super().until_answers(url, timeout)
        except AssertionError as error:
            raise AssertionError(f"{error}\nthe guest, asked once more:\n{self.asked(GUEST_STATE)}") from None

    def asked(self, script: str) -> str:
        """SCRIPT's output, asking the control service once (a minute at most): for a failure's message."""
        request = urllib.request.Request(f"{self.control}/", data=script.encode(), method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return str(json.loads(answer.read())["stdout"])
        except (OSError, ValueError) as error:
            return f"no answer from the control service: {error}"

    def journal(self) -> str:
        return self.run(f"journalctl -u {UNIT} --no-pager -o cat | tail -60", check=False)

    def wait_for(self, condition: str, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while self.run(f"{condition} && echo yes", check=False).strip() != "yes":
            assert time.monotonic() < deadline, f"never: {condition}\n{self.journal()}"
            time.sleep(1)


@pytest.fixture(scope="module")
def guest(made: Card, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guest]:
    booted = Guest(made, tmp_path_factory.mktemp("qemu"))
    try:
        yield booted
    finally:
        booted.close()
        host.remove_tree(made.image.parent)


def test_the_card_boots_grows_its_root_and_reads_the_card_file_on_its_fat_partition(made: Card, guest: Guest) -> None:
    seconds = guest.until_answers(guest.base + "/")
    print(f"boot to the join page under QEMU: {seconds:.0f} s")
    guest.wait_for("systemctl is-active --quiet doge-companion-grow-root")
    assert guest.run("systemctl show doge-companion-grow-root -p Result --value").strip() == "success"
    root_mib = int(guest.run("findmnt --bytes --noheadings --output SIZE /").strip()) // 2**20
    assert root_mib > made.root_mib + GROWN_MIB * 3 // 4, (root_mib, made.root_mib)
    machine_id = guest.run("cat /etc/machine-id").strip()
    assert len(machine_id) == 32 and int(machine_id, 16), "a machine-id of its own, made at the first boot"
    assert guest.run("findmnt --noheadings --output FSTYPE,LABEL /boot/firmware").split() == ["vfat", "RASPIFIRM"]
    # the card file may hold a Wi-Fi password: the companion's group reads it, no other user (docs/card-file.md)
    assert guest.run("stat -c '%a %U %G' /boot/firmware/doge-companion.toml").split() == ["640", "root", "doge"]
    assert guest.run("runuser -u nobody -- cat /boot/firmware/doge-companion.toml", check=False) == ""
    firmware = guest.run("cat /boot/firmware/config.txt /boot/firmware/cmdline.txt")
    assert "dtparam=spi=on" in firmware and "root=LABEL=RASPIROOT" in firmware
    # a Pi's boot path, which virt skips (tests/test_card_pi_boot.py merges the overlay into each board's DTB)
    assert "dtoverlay=doge-companion-spi" in firmware and "spidev.bufsiz=65536" in firmware, firmware
    assert guest.run("test -s /boot/firmware/overlays/doge-companion-spi.dtbo && echo yes").strip() == "yes"
    assert guest.run("cat /sys/module/spidev/parameters/bufsiz").strip() == "65536", "read from the command line"
    initramfs = subprocess.run(["lsinitramfs", str(made.initrd)], capture_output=True, text=True, check=True).stdout
    assert "regulator/gpio-regulator.ko" in initramfs and "regulator/fixed.ko" in initramfs, "a Pi 4's SD supplies"
    assert guest.run("systemctl is-enabled systemd-timesyncd").strip() == "enabled", "a Pi has no clock of its own"
    with made.image.open("rb") as disk:
        disk.seek(4 * 2**20 + 82)  # the FAT partition's boot sector: its file-system type field
        assert disk.read(8) == b"FAT32   "
    assert set(guest.run("id -nG doge").split()) == {"doge", "gpio", "spi", "dialout", "audio"}
    # no password login: a console at the table would show the game's secrets (docs/building.md, "The card image")
    assert guest.run("getent shadow root").split(":")[1] in ("*", "!", "!*"), "root has no usable password"
    assert guest.run("systemctl is-enabled doge-companion doge-companion-network").split() == ["enabled", "enabled"]
    # the card's Wi-Fi, before the companion: QEMU has no radio, so it goes on at once (docs/card-file.md)
    network = guest.run("journalctl -u doge-companion-network --no-pager -o cat")
    assert "no Wi-Fi device: nothing to do" in network and "not the real one" not in network, network
    assert guest.run("systemctl show doge-companion-network -p Result --value").strip() == "success"
    print(guest.run("systemd-analyze time; systemd-analyze blame | head -12", check=False))


def test_a_phone_locks_in_a_ballot_over_the_forwarded_port_and_gets_its_seat_back_after_a_restart(
    guest: Guest,
) -> None:
    guest.until_answers(guest.base + "/")
    guest.wait_for("test -p /run/doge-companion/keys && test -s /run/doge-companion/join-link")

    def secret() -> str:
        return guest.run("cat /run/doge-companion/join-link").strip().split("#j=", 1)[1]

    def host_key(line: str) -> None:
        guest.run(f"echo '{line}' >/run/doge-companion/keys")

    async def evening() -> None:
        async with aiohttp.ClientSession() as outside, outside.get(guest.base + "/") as page:
            assert page.status == 200 and "pad.js" in await page.text()
        phones = [Phone(guest.base) for _ in range(3)]
        try:
            red = await lock_in_a_ballot(guest.base, phones, secret(), host_key)
            assert red.view["public"]["language"] == "de", "the card file's [game] language"
            store = f"runuser -u doge -- env STATE_DIRECTORY=/var/lib/doge-companion {COMPANION}"
            exported = guest.run(f"cd /tmp && {store} export 1")
            assert json.loads(exported.splitlines()[0])["export"]["locked_in"] == ["red"], exported[:500]

            guest.run(f"systemctl restart {UNIT}")
            guest.wait_for("test -s /run/doge-companion/join-link")
            await red.reconnect()
            back = await red.until(lambda view: view["mine"] is not None, "red's seat back")
            assert back["mine"]["colour"] == "red" and back["mine"]["pending"] == {"area": "castello", "markers": [3]}
        finally:
            for phone in phones:
                await phone.close()

    asyncio.run(evening())
    journal = guest.run(f"journalctl -u {UNIT} --no-pager -o cat")
    for wrong in ("may not use the network", "Traceback", "Task was destroyed", "not the real one"):
        assert wrong not in journal, journal[-3000:]
    assert guest.run(f"systemctl show {UNIT} -p NRestarts --value").strip() == "0", "only the test's own restart"


GPIO_CHIP = """import fcntl, os, struct
info = bytearray(68)  # struct gpiochip_info (linux/gpio.h): name, label, lines; GPIO_GET_CHIPINFO_IOCTL
fcntl.ioctl(os.open("/dev/gpiochip0", os.O_RDONLY), 0x8044B401, info)
print(info[32:64].rstrip(b"\\0").decode(), struct.unpack("I", info[64:68])[0])
"""


def test_on_a_pi_3s_boot_path_the_card_gives_spidev_its_buffer_the_pins_and_the_watchdog(
    made: Card, guest: Guest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The same card under -M raspi3b, its SD card, with the device tree a Pi 3 B's firmware would hand over
    (qemu.pi3_device_tree: the FAT's DTB and config.txt's overlays) and cmdline.txt. QEMU's SPI controller moves no
    bytes, so this shows the devices and their drivers, not a panel's pixels."""
    guest.close()  # one emulated machine at a time: CI has two cores
    pi3 = Guest(made, tmp_path_factory.mktemp("raspi3b"), machine="raspi3b")
    try:
        # a hang guard: 178-187 s on a quiet machine, 273-377 s held to one core or shared with two busy ones
        seconds = pi3.until_answers(pi3.base + "/", timeout=1800)
        uptime = pi3.run("cut -d' ' -f1 /proc/uptime").strip()
        print(f"raspi3b: the join page (over USB networking) after {seconds:.0f} s (the guest's clock: {uptime} s)")
        # READY=1 goes out with the first screen (companion/system/notify.py): the kernel's start to the first frame
        ready = pi3.run(f"systemctl show {UNIT} -p ActiveEnterTimestampMonotonic --value").strip()
        print(f"raspi3b: the kernel's start to the companion's first screen: {int(ready) / 1e6:.0f} s")
        devices = pi3.run("stat -c '%n %G' /dev/spidev0.0 /dev/spidev0.1").split()
        assert devices == ["/dev/spidev0.0", "spi", "/dev/spidev0.1", "spi"], devices
        drivers = pi3.run("for d in /sys/bus/spi/devices/spi0.*; do basename $(readlink $d/driver); done").split()
        assert drivers == ["spidev", "spidev"], drivers
        assert pi3.run("cat /sys/module/spidev/parameters/bufsiz").strip() == "65536"
        pi3.run(f"cat >/tmp/chip.py <<'EOF'\n{GPIO_CHIP}EOF")
        assert pi3.run("python3 /tmp/chip.py").split() == ["pinctrl-bcm2835", "54"]
        assert pi3.run("test -c /dev/watchdog0 && echo yes").strip() == "yes"
        report = pi3.run(f"{COMPANION} check-hardware", check=False)
        print(f"raspi3b: {COMPANION} check-hardware\n{report}")
        parts = {line.split()[0]: line.split(None, 2)[1:] for line in report.splitlines() if line.strip()}
        assert parts["board"][0] == "note" and "Raspberry Pi 3 Model B" in parts["board"][1], report
        assert parts["spi"] == ["ok", "/dev/spidev0.0, buffer 65536 bytes"], report
        assert parts["gpio"][0] == "ok" and "pinctrl-bcm2835, 54 lines" in parts["gpio"][1], report
        # The Pi's own hardware path: the board told from the device tree for gpiozero and rpi-lgpio (the kernel
        # gives no revision), the buttons on lgpio, the LCD's DC and reset lines, then its first command on spidev,
        # where QEMU's SPI controller (an unimplemented device: nothing ever completes) times out.
        pi3.run(
            'sed -i \'s/^hardware = "mock"/hardware = "pi"/; s/^driver = "capture"/driver = "st7735"/\' '
            f"/boot/firmware/doge-companion.toml && systemctl restart --no-block {UNIT}"
        )
        pi3.wait_for(f"journalctl -u {UNIT} -b --no-pager -o cat | grep -q 'cannot start the hardware'", timeout=600)
        journal = pi3.run(f"journalctl -u {UNIT} -b --no-pager -o cat")
        print("raspi3b: the companion on the Pi's hardware path\n" + pi3.journal())
        assert "Raspberry Pi 3 Model B told from the device tree (raspberrypi,3-model-b)" in journal, journal[-3000:]
        assert "cannot start the hardware: [Errno 110] Connection timed out" in journal, journal[-3000:]
        for wrong in ("can only be run on a Raspberry Pi", "no GPIO on this machine", "spidev", "Traceback"):
            assert wrong not in journal, journal[-3000:]
    finally:
        pi3.close()
