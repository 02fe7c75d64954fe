"""A takeover of a locked-in seat, then the power cut, from outside (tests/web/test_takeover.py's hidden ballot, for
real): a real companion (``run --hardware mock --keys FIFO``), a phone over HTTP and WebSocket, SIGKILL, the same
command again. The phone the host gave the seat to is never sent the ballot it did not key (rules.md 11): before the cut
and after it, its view of the seat says "Locked in." only (``mine.pending`` is null)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
Frame = dict[str, Any]


class Companion:
    """One run of the companion on simulated hardware; its keys from a FIFO."""

    def __init__(self, tmp_path: Path, port: int) -> None:
        self.tmp_path = tmp_path
        config = tmp_path / "config.toml"
        config.write_text(
            f'[game]\nstate_dir = "{tmp_path}"\n[pads]\nserial = "off"\n[display]\ndriver = "capture"\n'
            f'[web]\nport = {port}\nbind = "127.0.0.1"\n'
        )
        self.fifo = tmp_path / "keys"
        self.link = tmp_path / "join-link"
        self.link.unlink(missing_ok=True)
        env = {key: value for key, value in os.environ.items() if key != "RUNTIME_DIRECTORY"}
        command = ["run", "--hardware", "mock", "--config", str(config), "--keys", str(self.fifo)]
        self.child = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", *command],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        for _ in range(600):  # a hang guard: the companion starting
            if (self.link.exists() and self.fifo.is_fifo()) or self.child.poll() is not None:
                break
            time.sleep(0.05)
        assert self.child.poll() is None, self.child.communicate()[1]
        self.base, self.secret = self.link.read_text().strip().split("/#j=")
        self.keys = self.fifo.open("w")

    def press(self, *keys: str) -> None:
        self.keys.write("".join(key + "\n" for key in keys))
        self.keys.flush()

    def kill(self) -> None:
        self.keys.close()
        self.child.send_signal(signal.SIGKILL)
        self.child.communicate(timeout=30)

    def stop(self) -> str:
        self.keys.close()
        self.child.send_signal(signal.SIGTERM)
        _out, err = self.child.communicate(timeout=30)
        return err


class Page:
    """One phone's page: its cookie jar (the seat token) and every view it was sent."""

    def __init__(self) -> None:
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.views: list[Frame] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.start = 0  # the first view of this connection

    async def join(self, companion: Companion) -> None:
        async with self.session.post(companion.base + "/api/join", json={"secret": companion.secret}) as answer:
            assert answer.status == 200

    async def connect(self, companion: Companion) -> None:
        self.ws = await self.session.ws_connect(companion.base + "/ws")
        self.start = len(self.views)

    async def until(self, ready: Callable[[Frame], bool]) -> Frame:
        """Views until one is ``ready``; the timeout only ends a test that hangs."""
        assert self.ws is not None
        if len(self.views) > self.start and ready(self.views[-1]):
            return self.views[-1]
        async with asyncio.timeout(60):
            while True:
                frame: Frame = await self.ws.receive_json()
                if frame.get("t") == "view":
                    self.views.append(frame)
                    if ready(frame):
                        return frame

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.session.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def public(frame: Frame) -> Frame:
    return frame["public"]  # type: ignore[no-any-return]


async def read_notices(companion: Companion, page: Page) -> None:
    """The host reads each notice with ok, one at a time (each ok waits for the view it changes)."""
    while (shown := page.views[-1])["public"]["notice"] is not None:
        companion.press("host ok")
        before = public(shown)
        await page.until(lambda frame: public(frame) != before)  # noqa: B023 - awaited before the loop goes on


def test_a_locked_seat_given_to_a_phone_stays_locked_in_only_through_sigkill(tmp_path: Path) -> None:
    port = free_port()
    running: list[Companion] = []

    async def evening() -> list[Frame]:
        red, new = Page(), Page()
        try:
            first = Companion(tmp_path, port)
            running.append(first)
            await red.join(first)
            await red.connect(first)
            await red.until(lambda frame: frame["mine"] is not None)  # Red's phone sat down
            first.press("2 ok", "3 ok", "host right", "host ok")  # Blue and Green at keypads, ballots at once
            await red.until(lambda frame: public(frame)["stage"] == "game")
            await read_notices(first, red)
            first.press("2 area:castello", "2 marker:3", "2 ok")  # Blue locks in on its keypad
            await red.until(lambda frame: public(frame)["locked"][1])
            await new.join(first)
            await new.connect(first)
            await new.until(lambda frame: frame["mine"] is None)
            assert new.ws is not None
            await new.ws.send_json({"t": "take", "colour": "blue"})
            await asyncio.sleep(0.5)  # the request reaches the game thread before the host's keys
            first.press("host left", "host right")
            given = await new.until(lambda frame: frame["mine"] is not None and frame["mine"]["colour"] == "blue")
            assert given["mine"]["locked"] and given["mine"]["pending"] is None
            await new.ws.close()
            new.ws = None
            first.kill()  # the power cut
            running.remove(first)
            second = Companion(tmp_path, port)
            running.append(second)
            await new.connect(second)  # the same cookie: the seat comes back by itself
            await new.until(lambda frame: frame["mine"] is not None)
            second.press("host ok")  # the start-up question: go on with the game
            await new.until(
                lambda frame: public(frame)["stage"] == "game" and public(frame)["notice"] is None
                and frame["mine"] is not None and frame["mine"]["locked"]
            )  # fmt: skip
            return new.views
        finally:
            await red.close()
            await new.close()

    try:
        views = asyncio.run(evening())
    finally:
        errors = [companion.stop() for companion in running]
    seated = [frame["mine"] for frame in views if frame["mine"] is not None]
    assert len(seated) >= 2 and seated[-1]["colour"] == "blue" and seated[-1]["locked"]
    assert all(mine["pending"] is None for mine in seated), seated  # "Locked in." only, before the cut and after
    assert all("Traceback" not in err for err in errors), errors
