"""``sudo ./install.sh``: the README's Pi setup in one command, idempotent, with a dry run (docs/installing.md "A
Raspberry Pi, as a service").

Off a Pi, the system commands it calls (apt-get, dpkg-query, useradd, raspi-config, systemctl, python3 -m venv ...)
are stand-ins on PATH that log each call and keep a little state (installed packages, the user, SPI) in files, and
every file goes under a fake root (``DOGE_ROOT``). What is checked: the dry run changes nothing and says everything
it would do; a real run does it; a second run finds everything done and only reinstalls the package and restarts.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

STUB = r"""#!/usr/bin/env bash
# stand-in for {name}: logs the call, keeps state in $STUB_STATE
echo "{name} $*" >>"$STUB_LOG"
S="$STUB_STATE"
case "{name}" in
  dpkg-query) pkg="${{@: -1}}"; [ -f "$S/pkg-$pkg" ] && printf 'install ok installed' || exit 1 ;;
  apt-get) [ "$1" = install ] && for p in "${{@:3}}"; do touch "$S/pkg-$p"; done ;;
  getent) [ -f "$S/group-$2" ] || exit 2 ;;
  groupadd) touch "$S/group-${{@: -1}}" ;;
  id)
    if [ "$1" = -u ]; then echo 0; exit 0; fi
    if [ "$1" = -nG ]; then cat "$S/user-groups"; exit 0; fi
    [ -f "$S/user-groups" ] || exit 1 ;;
  useradd) echo "$6" | tr , ' ' >"$S/user-groups" ;;
  usermod) echo "$(cat "$S/user-groups") $(echo "$2" | tr , ' ')" >"$S/user-groups" ;;
  userdel) rm "$S/user-groups" ;;
  raspi-config) if [ "$2" = get_spi ]; then cat "$S/spi" 2>/dev/null || echo 1; else echo 0 >"$S/spi"; fi ;;
  systemctl) [ "$1" = is-enabled ] && { [ -f "$S/enabled-${{@: -1}}" ] || exit 1; }
    [ "$1" = enable ] && touch "$S/enabled-${{@: -1}}"
    [ "$1" = cat ] && { [ -f "$DOGE_ROOT/etc/systemd/system/doge-companion.service" ] || exit 1; } ;;
  python3)
    mkdir -p "$3/bin"
    for tool in python pip doge-companion; do
      printf '#!/usr/bin/env bash\necho "venv-%s $*" >>"$STUB_LOG"\n' "$tool" >"$3/bin/$tool"
      cat "$STUB_STATE/../venv-tool" >>"$3/bin/$tool"
      chmod +x "$3/bin/$tool"
    done ;;
esac
exit 0
"""
# The venv's pip: fails to download when offline, fails to compile the rules engine on a Pi without a compiler, and
# leaves a wheel where `pip wheel` is told to.
VENV_TOOL = r"""[ "$3" = download ] && [ -f "$STUB_STATE/offline" ] && exit 1
[ "$1" = print-config ] && [ -f "$STUB_STATE/web-off" ] && printf '[game]\nenabled = true\n[web]\nenabled = false\n'

[ "$DOGE_COMPILE_ENGINE" = 1 ] && [ -f "$STUB_STATE/no-compiler" ] && exit 1
if [ "$3" = wheel ]; then
  while [ $# -gt 0 ]; do
    [ "$1" = --wheel-dir ] && { mkdir -p "$2"; touch "$2/doge_companion-0.1.0-py3-none-any.whl"; }; shift
  done
fi
exit 0
"""
COMMANDS = ("dpkg-query", "apt-get", "getent", "groupadd", "id", "useradd", "usermod", "userdel", "raspi-config")
COMMANDS += ("systemctl",)
CHANGING = ("apt-get", "groupadd", "useradd", "usermod", "userdel", "raspi-config nonint do_spi", "python3", "venv-pip")
CHANGING += ("systemctl enable", "systemctl restart", "systemctl daemon-reload", "systemctl disable")


class Machine:
    """A pretend Raspberry Pi OS: stand-in commands, their state, and a fake root for files."""

    def __init__(self, folder: Path) -> None:
        self.root, self.state, self.bin, self.log = folder / "root", folder / "state", folder / "bin", folder / "log"
        for path in (self.root, self.state, self.bin):
            path.mkdir()
        for group in ("dialout", "gpio", "audio"):  # Pi OS has gpio, spi, dialout and audio; spi left out: created
            (self.state / f"group-{group}").touch()
        (self.state / "pkg-gcc").touch()
        for name in (*COMMANDS, "python3"):
            stub = self.bin / name
            stub.write_text(STUB.replace("{name}", name).replace("{{", "{").replace("}}", "}"))
            stub.chmod(0o755)
        (folder / "venv-tool").write_text(VENV_TOOL)
        self.pi()

    def pi(self, pi_os: bool = True, systemd: bool = True) -> None:
        """Raspberry Pi OS (/etc/rpi-issue) and systemd running (/run/systemd/system), or not."""
        issue, booted = self.root / "etc" / "rpi-issue", self.root / "run" / "systemd" / "system"
        issue.parent.mkdir(parents=True, exist_ok=True)
        booted.mkdir(parents=True, exist_ok=True)
        if not pi_os:
            issue.unlink(missing_ok=True)
        elif not issue.exists():
            issue.touch()
        if not systemd:
            booted.rmdir()

    def install(self, *args: str, status: int = 0, source: Path = ROOT) -> tuple[str, list[str]]:
        """Runs SOURCE's install.sh; (stdout, the calls it made). A STATUS other than 0 expected gives stdout +
        stderr."""
        self.log.write_text("")
        env = {"PATH": f"{self.bin}:/usr/bin:/bin", "DOGE_ROOT": str(self.root), "STUB_STATE": str(self.state)}
        env |= {"STUB_LOG": str(self.log), "HOME": str(self.root)}
        result = subprocess.run(
            ["bash", str(source / "install.sh"), *args], env=env, capture_output=True, text=True, timeout=60
        )
        assert result.returncode == status, result.stdout + result.stderr
        return result.stdout + (result.stderr if status else ""), self.log.read_text().splitlines()

    def files(self) -> list[str]:
        """What install.sh wrote (the pretend machine's own /etc/rpi-issue left out)."""
        found = (str(path.relative_to(self.root)) for path in self.root.rglob("*") if path.is_file())
        return sorted(name for name in found if name != "etc/rpi-issue")


def changes(calls: list[str]) -> list[str]:
    return [call for call in calls if call.startswith(CHANGING)]


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def test_the_dry_run_says_everything_and_changes_nothing(machine: Machine) -> None:
    output, calls = machine.install("--dry-run", "--display", "st7789")
    assert changes(calls) == [] and machine.files() == []
    venv = f"{machine.root}/opt/doge-companion/.venv"
    pip, lock = f"{venv}/bin/pip --disable-pip-version-check --quiet", ROOT / "requirements/pi-armv7l.txt"
    downloads, wheels, setuptools = (
        f"{machine.root}/var/cache/doge-companion/downloads",
        f"{machine.root}/var/cache/doge-companion/wheel",
        f"{machine.root}/var/cache/doge-companion/setuptools.txt",
    )
    pinned = len([line for line in lock.read_text().splitlines() if line[:1].isalpha()])
    assert "==" in lock.read_text() and pinned > 10
    assert "downloads: python3-venv python3-dev polkitd espeak-ng alsa-utils and what they need" in output
    for expected in (
        "would run: apt-get install -y python3-venv python3-dev polkitd espeak-ng alsa-utils",
        "would run: groupadd --system spi",
        "would run: useradd --system --no-create-home --shell /usr/sbin/nologin --groups gpio,spi,dialout,audio doge",
        "would run: raspi-config nonint do_spi 0",
        f"would run: python3 -m venv {venv}",
        f"downloads: {pinned} Python packages pinned in requirements/pi-armv7l.txt",
        f"would run: {pip} download --dest {machine.root}/var/cache/doge-companion/downloads -r {lock}",
        f"would run: {pip} install --no-index --find-links {downloads} -r {setuptools}",
        f"would run: {pip} install --no-index --find-links {downloads} --no-build-isolation -r {lock}",
        f"would run: env DOGE_COMPILE_ENGINE=1 {pip} wheel --no-build-isolation --no-deps --wheel-dir {wheels} {ROOT}",
        f"would run: {pip} install --no-index --no-deps --force-reinstall {wheels}/doge_companion-*.whl",
        f'would write {machine.root}/etc/doge-companion/config.toml: hardware = "pi", [display] driver = "st7789"',
        f"{machine.root}/etc/systemd/system/doge-companion.service",
        f"{machine.root}/etc/polkit-1/rules.d/50-doge-companion-poweroff.rules",
        "would run: systemctl daemon-reload",
        "would run: systemctl enable doge-companion",
        "would run: systemctl restart doge-companion",
        "dry run: nothing was changed",
    ):
        assert expected in output, expected


def test_it_sets_everything_up_then_a_second_run_only_updates(machine: Machine) -> None:
    _, calls = machine.install()
    assert machine.files() == [
        "etc/doge-companion/config.toml",
        "etc/modprobe.d/doge-companion-spidev.conf",
        "etc/polkit-1/rules.d/50-doge-companion-poweroff.rules",
        "etc/systemd/system/doge-companion-network.service",
        "etc/systemd/system/doge-companion.service",
        "etc/systemd/system/doge-companion.service.d/web-pads.conf",
        "opt/doge-companion/.venv/bin/doge-companion",
        "opt/doge-companion/.venv/bin/pip",
        "opt/doge-companion/.venv/bin/python",
        "run/doge-companion-install.reboot",
        "var/cache/doge-companion/setuptools.txt",
        "var/cache/doge-companion/wheel/doge_companion-0.1.0-py3-none-any.whl",
    ]
    spidev = machine.root / "etc/modprobe.d/doge-companion-spidev.conf"
    assert spidev.read_text() == "options spidev bufsiz=65536\n", "a frame goes to spidev in 64 KiB writes"
    config = machine.root / "etc/doge-companion/config.toml"
    assert config.read_text() == 'hardware = "pi"\n[display]\ndriver = "ili9341"\n'
    unit = machine.root / "etc/systemd/system/doge-companion.service"
    assert unit.read_bytes() == (ROOT / "systemd/doge-companion.service").read_bytes()
    assert "raspi-config nonint do_spi 0" in calls and "systemctl enable doge-companion" in calls
    assert "systemctl enable doge-companion-network" not in calls, "Pi OS has its network: the owner opts in"
    assert set((machine.state / "user-groups").read_text().split()) == {"gpio", "spi", "dialout", "audio"}
    config.write_text('hardware = "pi"\n[display]\ndriver = "st7735"\n')  # the owner's own edit
    output, again = machine.install()
    assert [call.replace(" --disable-pip-version-check --quiet", "").split(" --")[0] for call in changes(again)] == [
        "venv-pip download",
        "venv-pip install",
        "venv-pip install",
        "venv-pip wheel",
        "venv-pip install",
        "systemctl restart doge-companion",
    ], "only the wheel is rebuilt and reinstalled (pip finds the pinned packages there already)"
    assert "reboot once" in output, "SPI was enabled and the Pi has not been rebooted since"
    (machine.root / "run/doge-companion-install.reboot").unlink()  # a reboot empties /run
    output, _ = machine.install()
    assert "reboot" not in output
    assert "st7735" in config.read_text(), "the owner's config is never overwritten"
    assert "ok: all installed" in output and "ok: doge exists with its groups" in output


def test_a_user_missing_a_group_gets_it_and_bad_options_are_one_line(machine: Machine) -> None:
    (machine.state / "user-groups").write_text("gpio")
    _, calls = machine.install("--dry-run")
    assert "useradd" not in " ".join(calls)
    output, _ = machine.install()
    assert "+ usermod -aG spi,dialout,audio doge" in output
    result = subprocess.run(["bash", str(ROOT / "install.sh"), "--colour"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 64 and len(result.stderr.splitlines()) == 1


def test_not_as_root_it_says_how() -> None:
    """The script is read from standard input, so `nobody` need not read the checkout (a clone under a 0700 directory,
    as mktemp -d makes, must pass too)."""
    if os.geteuid() == 0:
        env = {"PATH": "/usr/bin:/bin"}
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", "-s"]
    else:
        env, command = dict(os.environ), ["bash", "-s"]
    with (ROOT / "install.sh").open() as script:
        result = subprocess.run(command, stdin=script, capture_output=True, text=True, timeout=30, env=env, cwd="/")
    assert result.returncode == 1 and "sudo ./install.sh" in result.stderr


def test_a_failed_compile_of_the_rules_engine_installs_it_as_plain_python(machine: Machine) -> None:
    (machine.state / "no-compiler").touch()
    output, calls = machine.install()
    builds = [call for call in calls if call.startswith("venv-pip") and " wheel " in call]
    assert len(builds) == 2 and builds[0] == builds[1], "compiled first, then plain"
    assert "compiling the rules engine failed: building it as plain Python" in output
    assert "download" not in output.split("compiling")[1]


def test_a_failed_download_is_told_from_a_failed_compile(machine: Machine) -> None:
    (machine.state / "offline").touch()
    output, calls = machine.install(status=1)
    assert "install.sh: downloading the Python packages failed" in output and "compil" not in output
    assert not [call for call in calls if " wheel " in call or call.startswith("systemctl")], "it stops there"


def test_off_raspberry_pi_os_or_without_systemd_it_refuses_in_one_line(machine: Machine) -> None:
    for pi_os, systemd, reason in (
        (False, True, "this is not Raspberry Pi OS (no /etc/rpi-issue)"),
        (True, False, "systemd is not running as PID 1"),
        (False, False, "this is not Raspberry Pi OS (no /etc/rpi-issue), and systemd is not running as PID 1"),
    ):
        machine.pi(pi_os, systemd)
        output, calls = machine.install(status=1)
        assert output == f"install.sh: {reason}: nothing changed (sudo ./install.sh --force installs anyway)\n"
        assert changes(calls) == [] and machine.files() == []
        dry, _ = machine.install("--dry-run")
        assert f"install.sh: {reason}: a real run would refuse (--force installs anyway)" in dry
    output, calls = machine.install("--force")
    assert "systemctl restart doge-companion" in calls and "done." in output


def test_32_bit_pi_os_gets_what_lgpio_needs_and_64_bit_its_own_pins(machine: Machine) -> None:
    dpkg = machine.bin / "dpkg"
    for arch, lock, extra in (
        ("armhf", "pi-armv7l.txt", " swig libjpeg-dev zlib1g-dev"),
        ("arm64", "pi-aarch64.txt", ""),
    ):
        dpkg.write_text(f"#!/bin/sh\necho {arch}\n")
        dpkg.chmod(0o755)
        output, _ = machine.install("--dry-run")
        assert f"would run: apt-get install -y python3-venv python3-dev polkitd espeak-ng alsa-utils{extra}\n" in output
        assert f"pinned in requirements/{lock}" in output and f"-r {ROOT}/requirements/{lock}" in output


DROP_IN = "etc/systemd/system/doge-companion.service.d/web-pads.conf"


def test_with_the_web_pads_on_by_default_the_service_may_reach_the_local_network(machine: Machine) -> None:
    """Phones are the README's first path, so the unit's network drop-in comes with it; a config
    with web.enabled = false goes without it (and a second run takes it away)."""
    from companion.system import config

    assert config.load(search=False).data["web"]["enabled"] is True
    dry, _ = machine.install("--dry-run")
    assert f"{machine.root}/{DROP_IN}" in dry
    machine.install()
    assert DROP_IN in machine.files()
    assert (machine.root / DROP_IN).read_bytes() == (ROOT / "systemd/web-pads.conf").read_bytes()
    output, calls = machine.install()
    assert f"ok: /{DROP_IN} is up to date" in output and "systemctl daemon-reload" not in calls
    (machine.state / "web-off").touch()  # the owner's config: web.enabled = false
    output, calls = machine.install()
    assert DROP_IN not in machine.files() and f"+ rm -f {machine.root}/{DROP_IN}" in output
    assert "systemctl daemon-reload" in calls
    output, calls = machine.install()
    assert "ok: web pads off (web.enabled = false)" in output and "systemctl daemon-reload" not in calls


def test_64_bit_pi_os_installs_only_files_whose_hashes_the_lock_names(machine: Machine) -> None:
    """requirements/pi-aarch64.txt carries every file's hash (python3 dev.py lock): both installs require them, and
    setuptools, installed first, comes from its own lines of the lock with their hashes (a pinned install pins its
    installer too)."""
    dpkg = machine.bin / "dpkg"
    dpkg.write_text("#!/bin/sh\necho arm64\n")
    dpkg.chmod(0o755)
    _output, calls = machine.install()
    installs = [call for call in calls if call.startswith("venv-pip") and " install " in call and ".whl" not in call]
    assert len(installs) == 2 and all("--require-hashes" in call for call in installs), installs
    assert installs[0].endswith("-r " + str(machine.root / "var/cache/doge-companion/setuptools.txt"))
    lock = (ROOT / "requirements/pi-aarch64.txt").read_text()
    block = (machine.root / "var/cache/doge-companion/setuptools.txt").read_text()
    assert block.startswith("setuptools==") and "--hash=sha256:" in block and block in lock


def test_uninstall_removes_what_it_installed_and_keeps_the_games_unless_purged(machine: Machine) -> None:
    """`install.sh --uninstall` (docs/installing.md): the service, its unit, drop-ins and rule, the venv and the
    downloads go; the games, the owner's config, their own drop-in and the user owning the games stay; --purge takes
    those too. Packages, groups, SPI and the checkout are never touched; a second run finds nothing to remove."""
    machine.install()
    games = machine.root / "var/lib/doge-companion/games.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"the games")
    dropins = machine.root / "etc/systemd/system/doge-companion.service.d"
    assert (dropins / "web-pads.conf").read_bytes() == (ROOT / "systemd/web-pads.conf").read_bytes()  # install.sh's
    (dropins / "watchdog.conf").write_text("[Service]\nWatchdogSec=4\n")  # the owner's own
    installed = machine.files()
    dry, calls = machine.install("--uninstall", "--dry-run")
    assert changes(calls) == [] and machine.files() == installed, "a dry run changes nothing"
    for said in ("would run: systemctl disable --now doge-companion", "kept: /var/lib/doge-companion",
                 "kept: /etc/doge-companion", "kept: user doge", "kept: /etc/systemd/system/doge-companion.service.d/"
                 "watchdog.conf (yours", "dry run: nothing was changed"):  # fmt: skip
        assert said in dry, said
    output, calls = machine.install("--uninstall")
    assert machine.files() == [
        "etc/doge-companion/config.toml",
        "etc/systemd/system/doge-companion.service.d/watchdog.conf",
        "var/lib/doge-companion/games.sqlite3",
    ]
    assert games.read_bytes() == b"the games" and (machine.state / "user-groups").exists(), "the games and doge kept"
    assert changes(calls) == ["systemctl disable --now doge-companion", "systemctl disable doge-companion-network",
                              "systemctl daemon-reload"]  # fmt: skip
    assert not [call for call in calls if call.startswith(("apt-get", "groupdel", "raspi-config nonint"))]
    assert f"this checkout ({ROOT}: sudo rm -rf {ROOT})" in output
    again, calls = machine.install("--uninstall")
    assert "nothing to remove" in again and "kept: /var/lib/doge-companion" in again and changes(calls) == []
    wifi = {  # what `doge-companion network` left (docs/card-file.md): passwords, which a purge must not leave
        "etc/NetworkManager/system-connections/doge-wifi-casa-1a2b.nmconnection": "psk=our home password\n",
        "etc/NetworkManager/system-connections/doge-hotspot.nmconnection": "psk=made up once\n",
        "var/lib/doge-companion-network/hotspot-password": "made up once\n",
        "etc/modprobe.d/doge-companion-wifi-country.conf": "options cfg80211 ieee80211_regdom=DE\n",
    }
    for name, text in wifi.items():
        (machine.root / name).parent.mkdir(parents=True, exist_ok=True)
        (machine.root / name).write_text(text)
    (machine.root / "etc/NetworkManager/system-connections/Home.nmconnection").write_text("the owner's own\n")
    output, calls = machine.install("--uninstall", "--purge")
    assert machine.files() == ["etc/NetworkManager/system-connections/Home.nmconnection"]
    assert not (machine.state / "user-groups").exists()
    assert "userdel doge" in calls
    output, calls = machine.install("--uninstall", "--purge")
    assert "nothing to remove: the companion is not installed" in output and changes(calls) == []
    machine.install("--purge", status=64)


def debian_on_a_pi(machine: Machine) -> None:
    """Debian's own Raspberry Pi packages, as in a card image's root (build_support/image): no raspi-config, no
    /etc/rpi-issue, no systemd running (a chroot), raspi-firmware's settings and kernel hook, one kernel."""
    machine.pi(pi_os=False, systemd=False)
    (machine.root / "etc/default").mkdir(parents=True)
    (machine.root / "etc/default/raspi-firmware").write_text("#ROOTPART=/dev/mmcblk0p2\n")
    hook = machine.root / "etc/kernel/postinst.d/z50-raspi-firmware"
    hook.parent.mkdir(parents=True)
    hook.write_text('#!/bin/sh\necho "z50-raspi-firmware $DEB_MAINT_PARAMS $*" >>"$STUB_LOG"\n')
    hook.chmod(0o755)
    (machine.root / "boot").mkdir()
    (machine.root / "boot/vmlinuz-6.1.0-56-arm64").touch()
    modules = machine.root / "lib/modules/6.1.0-56-arm64"
    modules.mkdir(parents=True)
    (modules / "modules.builtin").write_text("kernel/drivers/spi/spidev.ko\n")  # Debian's: CONFIG_SPI_SPIDEV=y
    (machine.bin / "raspi-config").unlink()


def test_image_mode_installs_into_a_card_images_root_the_same_device_without_starting_it(
    machine: Machine, tmp_path: Path
) -> None:
    """`install.sh --image` (docs/installing.md "The card image") in the root of a card image being built (Debian's
    kernel and raspi-firmware, in a chroot) does the same steps as on Raspberry Pi OS, one description of an installed
    device: it does not refuse for want of Pi OS or a running systemd, sets SPI in Debian's raspi-firmware-custom and
    runs its kernel hook (config.txt), gives gpio and spi their devices by udev rules (Debian has neither), enables the
    units without starting anything, and places and enables the network unit when the checkout has it. `--pins-only`
    stops after the pinned packages (the image's cached base); `--list-packages` names what the image must include."""
    debian_on_a_pi(machine)
    source = tmp_path / "checkout"  # a checkout that has the network unit (the card image's first-boot Wi-Fi)
    source.mkdir()
    for part in ("install.sh", "requirements", "systemd"):
        subprocess.run(["cp", "-a", str(ROOT / part), str(source / part)], check=True)
    (source / "systemd/doge-companion-network.service").write_text("[Unit]\nDescription=the Wi-Fi\n")

    output, calls = machine.install("--image", "--pins-only", source=source)
    assert "refuse" not in output and "done: the pinned packages (--pins-only)" in output
    assert not [call for call in calls if call.startswith(("venv-pip wheel", "systemctl"))], calls
    custom = machine.root / "etc/default/raspi-firmware-custom"
    assert custom.read_text() == "dtparam=spi=on\n"
    assert "z50-raspi-firmware configure 6.1.0-56-arm64" in calls, "config.txt written again, with SPI on"
    # spidev is built into Debian's kernel: modprobe.d is never read, the command line (cmdline.txt) sets it
    assert (machine.root / "etc/default/raspi-extra-cmdline").read_text() == "spidev.bufsiz=65536\n"
    assert not (machine.root / "etc/modprobe.d/doge-companion-spidev.conf").exists()
    rules = (machine.root / "etc/udev/rules.d/60-doge-companion-gpio-spi.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio"' in rules and 'KERNEL=="spidev*", GROUP="spi"' in rules

    output, calls = machine.install("--image", source=source)
    assert "ok: the pinned packages are installed (requirements/" in output, "the base has them: no download again"
    assert not [call for call in calls if call.startswith(("venv-pip download", "venv-pip install -"))], calls
    assert "ok: enabled (/etc/default/raspi-firmware-custom)" in output and custom.read_text() == "dtparam=spi=on\n"
    assert "ok: spidev.bufsiz (/etc/default/raspi-extra-cmdline)" in output
    assert "systemctl enable doge-companion" in calls and "systemctl enable doge-companion-network" in calls
    assert not [call for call in calls if call.startswith(("systemctl restart", "systemctl daemon-reload"))], calls
    network = machine.root / "etc/systemd/system/doge-companion-network.service"
    assert network.read_text() == "[Unit]\nDescription=the Wi-Fi\n"
    assert "reboot" not in output and "not started: a card image starts it at its first boot" in output

    listed, _ = machine.install("--list-packages")
    assert listed.split() == ["python3-venv", "python3-dev", "gcc", "polkitd", "espeak-ng", "alsa-utils"]
    assert "--pins-only goes with --image" in machine.install("--pins-only", status=64)[0]
