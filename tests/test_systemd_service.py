"""The service under a real systemd: install.sh run for real in a booted Debian bookworm container.

A root file system made by mmdebstrap (cached between runs, see ``rootfs``) is booted with systemd-nspawn, with a
throw-away overlay over it and this checkout's files at /opt/doge-companion; ``install.sh`` then runs inside as on a
Pi, with two stand-ins: ``raspi-config`` (keeps the SPI setting in a file) and the hardware (the owner's config says
``hardware = "mock"``, which install.sh keeps). What systemd then does with the unit is the real thing: the service
runs as ``doge``, says READY, pings its watchdog, is restarted by the watchdog when stopped with SIGSTOP and after a
SIGKILL (and goes on with the unfinished game), stops cleanly within its timeout, writes only where it may; polkit
lets only ``doge`` power off; and a second install.sh changes nothing.

Needs root, mmdebstrap and systemd-nspawn (requirements/system.txt) and PyPI; elsewhere it is skipped, except in
CI, where it fails. The first run downloads about 200 MB into the cache.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from companion.web.server import lan_address
from tests.phone_client import Phone, lock_in_a_ballot

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "doge-companion"
# What a fresh Raspberry Pi OS Lite has that the companion uses (systemd, dbus, polkit, Python) and what install.sh
# would install (gcc and python3-dev: spidev is built from source; espeak-ng and alsa-utils: the voice), so that it
# finds them installed.
PACKAGES = (
    "systemd,systemd-sysv,dbus,polkitd,python3,python3-venv,python3-dev,gcc,ca-certificates,procps,espeak-ng,alsa-utils"
)
SKIP = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "shots", "screens")
RASPI_CONFIG = """#!/bin/sh
# stand-in for raspi-config: the SPI setting kept in a file (0 = enabled, as raspi-config says it)
case "$2" in
  get_spi) cat /var/lib/stand-in-spi 2>/dev/null || echo 1 ;;
  do_spi) echo "$3" >/var/lib/stand-in-spi ;;
esac
"""
CONFIG = 'hardware = "mock"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'
# A shorter watchdog than the unit's 20 s, so that a hang is noticed in seconds: the same mechanism, sooner.
WATCHDOG = "[Service]\nWatchdogSec=4\n"
PARTIAL_GAME = "1 ok\n2 ok\n3 ok\nhost left\nhost ok\nhost ok\n1 ok\n1 right\n1 ok\n"
UNIT = "doge-companion"
COMPANION = "/opt/doge-companion/.venv/bin/doge-companion"
# The voice under the unit's own sandbox: the companion's speaker says one sentence with espeak-ng to aplay on ALSA's
# null device (the container has no sound card), and says whether it could.
VOICE_CHECK = """from hardware.speaker import Speaker
from hardware.speech import Alsa, Espeak

speaker = Speaker(Espeak(), Alsa("null"))
speaker.say("Red wins!", "en")
speaker.flush(60)
speaker.close()
print("voice check:", speaker.fault, speaker.said)
raise SystemExit(0 if (speaker.fault, speaker.said) == (None, 1) else 1)
"""


def tools_missing() -> str | None:
    if os.geteuid() != 0:
        return "needs root (systemd-nspawn)"
    absent = [tool for tool in ("mmdebstrap", "systemd-nspawn", "nsenter") if shutil.which(tool) is None]
    return f"{', '.join(absent)} not installed (apt-get install mmdebstrap systemd-container)" if absent else None


def rootfs() -> Path:
    """The bookworm root file system, made once per package list and kept (booted only under an overlay)."""
    tree = CACHE / f"bookworm-{hashlib.sha256(PACKAGES.encode()).hexdigest()[:12]}"
    if not (tree / "usr" / "lib" / "systemd" / "systemd").exists():
        partial = tree.with_name(tree.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["mmdebstrap", "--variant=minbase", f"--include={PACKAGES}", "bookworm", str(partial)],
            check=True, capture_output=True, timeout=1200,
        )  # fmt: skip
        shutil.rmtree(tree, ignore_errors=True)
        partial.rename(tree)
    return tree


class Container:
    """A booted container and a way to run commands in it (nsenter into its PID 1's namespaces)."""

    def __init__(self, tree: Path, source: Path, downloads: Path) -> None:
        command = ["systemd-nspawn", "--quiet", "-D", str(tree), "--volatile=overlay", "--boot", "--console=passive"]
        if Path("/proc/1/comm").read_text().strip() != "systemd":  # no host systemd to register with
            command += ["--register=no", "--keep-unit"]
        # pip inside must trust the same certificate authorities as the host's pip
        command += ["--bind-ro=/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt"]
        command += [f"--bind={source}:/opt/doge-companion", f"--bind={downloads}:/var/cache/doge-companion/downloads"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self.leader = self._leader()
        deadline = time.monotonic() + 120
        while (state := self.run("systemctl is-system-running --wait", check=False, timeout=120)).returncode != 0:
            # before its system bus is up, systemctl cannot ask (the namespaces themselves are there from the start)
            assert time.monotonic() < deadline and state.stdout.strip() not in ("degraded",), state
            time.sleep(0.2)

    def _leader(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.communicate()[0]
            for child in Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split():
                if Path(f"/proc/{child}/comm").read_text().strip() == "systemd":
                    return int(child)
            time.sleep(0.1)
        raise AssertionError("the container's systemd did not start")

    def run(self, script: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """SCRIPT in bash inside the container as root, with a clean environment (none of the host's pip settings)."""
        result = subprocess.run(
            ["nsenter", "-t", str(self.leader), "-a", "env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:"
             "/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "HOME=/root", "/bin/bash", "-c", script],
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise AssertionError(f"{script}\n{result.stdout}\n{result.stderr}\nthe unit's journal:\n{self.journal()}")
        return result

    def show(self, *properties: str) -> dict[str, str]:
        return self.show_unit(UNIT, *properties)

    def show_unit(self, unit: str, *properties: str) -> dict[str, str]:
        output = self.run(f"systemctl show {unit} " + " ".join(f"-p {name}" for name in properties)).stdout
        return dict(line.split("=", 1) for line in output.splitlines())

    def wait_for(self, condition: str, timeout: float = 90) -> None:
        """Until the shell CONDITION holds inside (a hang guard, not a verdict on time)."""
        deadline = time.monotonic() + timeout
        while self.run(condition, check=False).returncode != 0:
            assert time.monotonic() < deadline, f"never: {condition}\n{self.journal()}"
            time.sleep(0.5)

    def journal(self) -> str:
        return self.run(f"journalctl -u {UNIT} --no-pager -o cat", check=False).stdout

    def close(self) -> None:
        self.process.send_signal(signal.SIGTERM)  # nspawn asks the container's systemd to power off
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def container(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Container]:
    if problem := tools_missing():
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the service under systemd: {problem} (.ci/run installs them)")
        pytest.skip(problem)
    tree = rootfs()
    source = tmp_path_factory.mktemp("nspawn") / "doge-companion"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIP))
    downloads = CACHE / "downloads"  # what install.sh downloads, kept between runs like the root file system
    downloads.mkdir(parents=True, exist_ok=True)
    box = Container(tree, source, downloads)
    try:
        yield box
    finally:
        box.close()


def etc_fingerprint(box: Container) -> str:
    return box.run("find /etc /opt/doge-companion/systemd -type f -print0 | sort -z | xargs -0 sha256sum").stdout


@dataclass
class Installed:
    box: Container
    output: str  # what the first install.sh said
    port: int  # the web pads' (the container shares the host's network: a port free on the host)


@pytest.fixture(scope="module")
def installed(container: Container) -> Installed:
    """install.sh's first run in the container, as on a fresh Pi (with the owner's config and a shorter watchdog)."""
    box = container
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]
    box.run(f"cat >/usr/local/bin/raspi-config <<'EOF'\n{RASPI_CONFIG}EOF\nchmod +x /usr/local/bin/raspi-config")
    box.run("touch /etc/rpi-issue")  # Raspberry Pi OS says so here; everything else is bookworm's own
    box.run(
        f"mkdir -p /etc/doge-companion && printf '{CONFIG}[web]\\nport = {port}\\n' >/etc/doge-companion/config.toml"
    )
    box.run(f"mkdir -p /etc/systemd/system/{UNIT}.service.d && printf '{WATCHDOG}' "
            f">/etc/systemd/system/{UNIT}.service.d/watchdog.conf")  # fmt: skip
    box.run("touch /tmp/before-install && sleep 1")
    return Installed(box, box.run("cd /opt/doge-companion && DOGE_COMPILE_ENGINE=0 ./install.sh 2>&1").stdout, port)


def test_install_sh_sets_up_a_service_systemd_runs_watches_restarts_and_stops(installed: Installed) -> None:
    box = installed.box

    first = installed.output
    assert "+ useradd --system" in first and "+ raspi-config nonint do_spi 0" in first
    assert "reboot once" in first and "ok: kept as it is (yours)" in first
    assert "downloads:" in first and "Python packages pinned in requirements/" in first
    assert "service.d/web-pads.conf" in first  # phones are on by default: the network drop-in comes with the unit

    # READY: Type=notify, so active means the companion said READY=1; it runs as doge, with a watchdog
    box.wait_for(f"systemctl is-active --quiet {UNIT}")
    shown = box.show("MainPID", "NRestarts", "WatchdogUSec", "Type")
    assert shown["Type"] == "notify" and shown["WatchdogUSec"] == "4s" and shown["NRestarts"] == "0"
    pid = shown["MainPID"]
    assert box.run(f"ps -o user= -p {pid}").stdout.strip() == "doge"
    # watchdog pings: alive well past its 4 s watchdog, never restarted
    box.run("sleep 10")
    assert box.show("MainPID", "NRestarts") == {"MainPID": pid, "NRestarts": "0"}, box.journal()

    # a hung game loop (SIGSTOP): the watchdog has systemd kill it and start it again
    box.run(f"kill -STOP {pid}")
    box.wait_for(f'[ "$(systemctl show {UNIT} -p NRestarts --value)" = 1 ] && systemctl is-active --quiet {UNIT}')
    assert "Watchdog timeout" in box.journal()
    assert box.show("MainPID")["MainPID"] != pid

    # an unfinished game in the service's store, then a SIGKILL: restarted, it goes on with that game
    box.run(f"systemctl stop {UNIT}")
    box.run(f"printf '{PARTIAL_GAME}' >/tmp/partial.txt && chmod 644 /tmp/partial.txt")
    env = "env STATE_DIRECTORY=/var/lib/doge-companion LG_WD=/tmp"
    companion = "/opt/doge-companion/.venv/bin/doge-companion"
    box.run(f"cd /tmp && runuser -u doge -- {env} {companion} run --config /etc/doge-companion/config.toml "
            "--script /tmp/partial.txt --resume --seed 4")  # fmt: skip
    games = box.run(f"cd /tmp && runuser -u doge -- {env} {companion} games").stdout
    assert "playing" in games or "red, blue, green" in games, games
    box.run(f"systemctl start {UNIT}")
    box.wait_for(f"journalctl -u {UNIT} -o cat | grep -c 'going on with the unfinished game' | grep -qx 1")
    restarts = int(box.show("NRestarts")["NRestarts"])
    box.run(f"systemctl kill --signal=SIGKILL {UNIT}")
    box.wait_for(f'[ "$(systemctl show {UNIT} -p NRestarts --value)" = {restarts + 1} ]')
    box.wait_for(f"journalctl -u {UNIT} -o cat | grep -c 'going on with the unfinished game' | grep -qx 2")

    # systemctl stop: SIGTERM, a clean exit within TimeoutStopSec (systemd would say "timeout" and SIGKILL it)
    box.wait_for(f"systemctl is-active --quiet {UNIT}")
    box.run(f"systemctl stop {UNIT}")
    stopped = box.show("Result", "ExecMainStatus", "ExecMainCode")
    assert stopped == {"Result": "success", "ExecMainStatus": "0", "ExecMainCode": "1"}, (stopped, box.journal())
    assert games == box.run(f"cd /tmp && runuser -u doge -- {env} {companion} games").stdout, "the game is kept"

    # only the expected files: doge owns nothing outside its state directory (/run's and /tmp's are gone)
    owned = box.run("find / -xdev \\( -path /proc -o -path /sys \\) -prune -o -user doge -print").stdout.split()
    assert owned and all(path.startswith("/var/lib/doge-companion") for path in owned), owned
    names = {Path(path).name for path in owned}
    assert names <= {"doge-companion", "games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm", "games.journal",
                     "companion.lock"}  # fmt: skip

    # polkit: doge may power the machine off, nobody else without a password
    check = "pkcheck --action-id org.freedesktop.login1.power-off --process $$"
    assert box.run(f"runuser -u doge -- sh -c '{check}'", check=False).returncode == 0
    assert box.run(f"runuser -u nobody -- sh -c '{check}'", check=False).returncode != 0

    # the voice: espeak-ng and aplay run under exactly the unit's sandbox (its lines, another command)
    unit = box.run(f"cat /etc/systemd/system/{UNIT}.service").stdout
    own = ("ExecStart=", "Type=", "Notify", "Watchdog", "Restart=")  # the service's own: a one-shot check instead
    lines = [line for line in unit.splitlines() if not line.startswith(own)]
    lines[lines.index("[Service]") + 1 : 0] = [
        "Type=oneshot",
        "ExecStart=/opt/doge-companion/.venv/bin/python /usr/local/lib/voice_check.py",
    ]
    text = "\n".join(lines)
    box.run(f"cat >/usr/local/lib/voice_check.py <<'EOF'\n{VOICE_CHECK}EOF")
    box.run(f"cat >/etc/systemd/system/doge-voice-check.service <<'EOF'\n{text}\nEOF")
    box.run("systemctl daemon-reload && systemctl start doge-voice-check", check=False)
    voice = box.run("journalctl -u doge-voice-check --no-pager -o cat", check=False).stdout
    assert box.show_unit("doge-voice-check", "Result") == {"Result": "success"}, voice
    assert "voice check: None 1" in voice and "sound:" not in voice, voice

    # a second run changes nothing (it only rebuilds the wheel and restarts), and still asks for the reboot
    before = etc_fingerprint(box)
    second = box.run("cd /opt/doge-companion && DOGE_COMPILE_ENGINE=0 ./install.sh 2>&1")
    for change in ("+ apt-get", "+ groupadd", "+ useradd", "+ usermod", "+ raspi-config", "+ install -D",
                   "daemon-reload", "+ systemctl enable", "+ python3 -m venv"):  # fmt: skip
        assert change not in second.stdout, second.stdout
    assert etc_fingerprint(box) == before
    assert "reboot once" in second.stdout, "SPI was enabled and the machine has not rebooted since"
    box.wait_for(f"systemctl is-active --quiet {UNIT}")


# The unit's own command, with keys from a FIFO in its runtime directory (docs/scripted-input.md): the host's keys
# as a test presses them, the phones over the network from outside the container.
KEYS = (
    "[Service]\nExecStart=\nExecStart=/opt/doge-companion/.venv/bin/doge-companion run --config "
    "/etc/doge-companion/config.toml --keys /run/doge-companion/keys\n"
)


def test_phones_reach_the_installed_service_lock_in_a_ballot_and_come_back_after_a_restart(
    installed: Installed,
) -> None:
    """With the web pads on (the default), install.sh's service is reached from outside the container;
    three phones join by the link, one locks in a ballot (the service's store has it), and after a restart of the
    service that phone gets its own seat and ballot back while a new phone gets no seat."""
    box, base = installed.box, f"http://127.0.0.1:{installed.port}"
    since = box.run("date '+%Y-%m-%d %H:%M:%S'").stdout.strip()
    box.run(f"systemctl stop {UNIT} && rm -rf /var/lib/doge-companion/*")  # a table that starts afresh
    box.run(f"printf '{KEYS}' >/etc/systemd/system/{UNIT}.service.d/keys.conf && systemctl daemon-reload")
    box.run(f"systemctl start {UNIT}")
    box.wait_for("test -p /run/doge-companion/keys && test -s /run/doge-companion/join-link")

    def secret() -> str:
        return box.run("cat /run/doge-companion/join-link").stdout.strip().split("#j=", 1)[1]

    def host_key(line: str) -> None:
        box.run(f"echo '{line}' >/run/doge-companion/keys")

    async def evening() -> None:
        async with aiohttp.ClientSession() as outside:
            for address in {"127.0.0.1", lan_address("0.0.0.0")}:  # loopback, and the host's own LAN address
                if ipaddress.ip_address(address).is_private:
                    async with outside.get(f"http://{address}:{installed.port}/") as page:
                        assert page.status == 200 and "pad.js" in await page.text()
        phones = [Phone(base) for _ in range(3)]
        stranger = Phone(base)
        try:
            red = await lock_in_a_ballot(base, phones, secret(), host_key)
            store = f"runuser -u doge -- env STATE_DIRECTORY=/var/lib/doge-companion {COMPANION}"
            exported = box.run(f"cd /tmp && {store} export 1").stdout  # the store afresh: its first game
            assert json.loads(exported.splitlines()[0])["export"]["locked_in"] == ["red"], exported[:500]

            box.run(f"systemctl restart {UNIT}")  # a power cut, as far as the phones can tell
            box.wait_for("test -s /run/doge-companion/join-link")
            await red.reconnect()
            back = await red.until(lambda view: view["mine"] is not None, "red's seat back")
            assert back["mine"]["colour"] == "red" and back["mine"]["pending"] == {"area": "castello", "markers": [3]}
            await stranger.join(secret())
            await stranger.connect()
            assert (await stranger.until(lambda view: True, "a view"))["mine"] is None
        finally:
            for phone in [*phones, stranger]:
                await phone.close()

    asyncio.run(evening())
    journal = box.run(f"journalctl -u {UNIT} --no-pager -o cat --since '{since}'").stdout
    for wrong in ("may not use the network", "Traceback", "Task was destroyed"):
        assert wrong not in journal, journal[-3000:]
    box.run(f"rm /etc/systemd/system/{UNIT}.service.d/keys.conf && systemctl daemon-reload")


def test_a_bad_config_is_not_restarted_and_uninstall_keeps_the_games_unless_purged(installed: Installed) -> None:
    """Bad input, in the container the tests above set up (keep this the module's last test: it takes the service
    away). A config the companion cannot use exits 78 (EX_CONFIG) and systemd does not restart it (it would only say
    the same again); `install.sh --uninstall` removes the service and the venv and keeps the games, the config and
    doge; `--uninstall --purge` removes those too and leaves nothing of doge's behind."""
    box = installed.box
    box.wait_for(f"systemctl is-active --quiet {UNIT} || systemctl start {UNIT}")
    restarts = box.show("NRestarts")["NRestarts"]
    box.run("cp /etc/doge-companion/config.toml /tmp/good.toml && printf '[display]\\nrotate = 9\\n' "
            ">/etc/doge-companion/config.toml")  # fmt: skip
    box.run(f"systemctl reset-failed {UNIT}; systemctl restart {UNIT}", check=False)  # a start count of its own
    # failed, not "activating (auto-restart)": a restart systemd had scheduled would show as the latter
    box.wait_for(f'[ "$(systemctl show {UNIT} -p ActiveState --value)" = failed ]')
    failed = box.show("ExecMainStatus", "Result", "NRestarts", "SubState")
    assert failed == {"ExecMainStatus": "78", "Result": "exit-code", "NRestarts": restarts, "SubState": "failed"}
    assert "display.rotate: must be from 0 to 3, not 9" in box.journal()
    box.run(f"cp /tmp/good.toml /etc/doge-companion/config.toml && systemctl reset-failed {UNIT} && "
            f"systemctl start {UNIT}")  # fmt: skip
    box.wait_for(f"systemctl is-active --quiet {UNIT}")
    count = "python3 -c \"import sqlite3; print(sqlite3.connect('/var/lib/doge-companion/games.sqlite3')" \
            ".execute('SELECT count(*) FROM lines').fetchone()[0])\""  # fmt: skip
    lines = box.run(count).stdout
    assert int(lines) > 0, "the earlier tests' games"

    box.run("umount /var/cache/doge-companion/downloads")  # the test's own bind of the host's download cache
    removed = box.run("cd /opt/doge-companion && ./install.sh --uninstall 2>&1").stdout
    assert "+ systemctl disable --now doge-companion" in removed and "kept: /var/lib/doge-companion" in removed
    assert box.run(f"systemctl cat {UNIT}", check=False).returncode != 0, "systemd no longer knows the service"
    assert box.run("pgrep -u doge", check=False).returncode != 0, "nothing of doge's runs"
    for path in ("/etc/systemd/system/doge-companion.service", "/opt/doge-companion/.venv",
                 "/etc/polkit-1/rules.d/50-doge-companion-poweroff.rules", "/var/cache/doge-companion"):  # fmt: skip
        assert box.run(f"test -e {path}", check=False).returncode != 0, path
    assert box.run(count).stdout == lines, "the games are kept, every line"
    box.run("test -f /etc/doge-companion/config.toml && id doge")
    assert "nothing to remove" in box.run("cd /opt/doge-companion && ./install.sh --uninstall 2>&1").stdout

    purged = box.run("cd /opt/doge-companion && ./install.sh --uninstall --purge 2>&1").stdout
    assert "+ userdel doge" in purged
    assert box.run("id doge", check=False).returncode != 0
    for path in ("/var/lib/doge-companion", "/etc/doge-companion"):
        assert box.run(f"test -e {path}", check=False).returncode != 0, path
    assert box.run("find / -xdev \\( -path /proc -o -path /sys \\) -prune -o -nouser -print").stdout == ""
