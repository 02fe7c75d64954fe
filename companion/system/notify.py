"""systemd's notification protocol (sd_notify): one datagram per message to $NOTIFY_SOCKET.

READY=1 once the first screen is up, WATCHDOG=1 from the game loop (so a hung loop gets the service restarted),
STOPPING=1 on the way out. Outside systemd there is no socket and every call does nothing.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Mapping


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        address = environ.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address  # "@": the abstract namespace
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) if self.address else None
        usec = int(environ.get("WATCHDOG_USEC", "0") or 0)
        watched_pid = environ.get("WATCHDOG_PID")
        mine = watched_pid is None or watched_pid == str(os.getpid())
        self.watchdog_interval = usec / 2_000_000 if usec and mine else None  # ping at half the timeout

    def send(self, message: str) -> None:
        if self.socket is None:
            return
        with contextlib.suppress(OSError):  # systemd gone or not listening: nothing to tell
            self.socket.sendto(message.encode(), self.address)

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
            self.socket = None


def power_off() -> None:
    """Switch the Pi off through systemd (the host's long press of back); raises if logind or polkit refuses."""
    import subprocess

    subprocess.run(["systemctl", "poweroff", "--no-wall"], check=True, timeout=30)
