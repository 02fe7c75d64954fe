"""A companion on simulated hardware serving web pads on loopback, its game thread running, and phones that play.

Phones are aiohttp clients, each with its own cookie jar (its own seat token), that join by the join link's secret
and play through the WebSocket exactly as the page does; every frame each one receives is kept (the secrecy test
reads them all).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from companion.app import App
from companion.store import Store
from companion.web.hub import Limits
from hardware.events import InputEvent
from tests.helpers import app_settings, game_thread


@contextmanager
def running_companion(tmp_path: Path, limits: Limits | None = None, store: Store | None = None) -> Iterator[App]:
    """``store``: the games kept there (a store on disk survives a restart: a second companion on it resumes)."""
    settings = app_settings(tmp_path)
    settings.data["web"].update(bind="127.0.0.1", port=0)
    app = App(settings, seed=7, store=store or Store(None, memory=True), serve_web=True)
    assert app.web is not None
    # Simulated players press far faster than people (a person: a few presses a second): the rate limit is tested
    # on its own (test_hostile.py), and these games are not slowed to a person's pace.
    app.web.hub.limits = limits or Limits(messages_per_second=1e6, burst=1_000_000)
    with game_thread(app):
        yield app


def base_url(app: App) -> str:
    assert app.web is not None
    return f"http://127.0.0.1:{app.web.port}"


BROWSERS = itertools.count(1)


class Phone:
    def __init__(self, app: App, rng: random.Random) -> None:
        self.app = app
        self.rng = rng
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[str] = []  # every byte the server sent this phone, frame by frame
        self.view: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.presses = 0
        self.device = f"browser-{next(BROWSERS)}"  # the page's own id for its browser (localStorage)

    async def join(self, secret: str | None = None) -> int:
        assert self.app.web is not None
        offered = self.app.web.hub.secret if secret is None else secret
        async with self.session.post(base_url(self.app) + "/api/join", json={"secret": offered}) as answer:
            return answer.status

    async def connect(self) -> None:
        self.ws = await self.session.ws_connect(base_url(self.app) + f"/ws?d={self.device}")
        self.reader = asyncio.ensure_future(self._read(self.ws))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            self.frames.append(msg.data)
            data = json.loads(msg.data)
            if data["t"] == "view":
                self.view = data
            self.changed.set()

    async def drop(self) -> None:
        """The Wi-Fi goes: the socket closes without a word."""
        assert self.ws is not None and self.reader is not None
        await self.ws.close()
        self.reader.cancel()
        self.view = None

    async def press(self, key: str) -> None:
        """One key, and the answer to it: a view newer than the one it was pressed on (a late frame of an older
        view is not the answer, and a press sent on it would be refused as stale)."""
        assert self.ws is not None and self.view is not None
        pressed_on = self.view["v"]
        self.presses += 1
        await self.ws.send_str(json.dumps({"t": "press", "key": key, "v": pressed_on}))
        await until(self, lambda view: view["v"] > pressed_on, f"an answer to {key} on {self.view}")

    async def wait_view(self) -> dict[str, Any]:
        while self.view is None:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 20)
        return self.view

    def next_key(self) -> str | None:
        """What this player presses now, or None: a random legal-looking choice from the view alone."""
        if self.view is None:
            return None
        pub, mine = self.view["public"], self.view["mine"]
        if mine is None or pub["stage"] != "game" or pub["notice"] is not None:
            return None
        if mine.get("menu"):
            return f"pick:{self.rng.randrange(len(mine['menu']['options']))}"
        snap = pub["snapshot"]
        if snap["phase"] != "ballot" or mine["locked"] or not mine["act"]:
            return None
        keyed = mine["keyed"] or {"area": None, "markers": []}
        if keyed["area"] is None:
            free = [area for area in pub["areas"] if area not in mine["used"]]
            return f"area:{self.rng.choice(free)}"
        if not keyed["markers"]:
            return f"marker:{self.rng.choice(mine['markers'])}"
        return "ok"

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        await self.session.close()


def host(app: App, key: str) -> None:
    app.events.put(InputEvent("host", key))


async def until(phone: Phone, ready: Any, what: str) -> dict[str, Any]:
    """Wait (on frames, not on a clock) until ``ready(view)``; the timeout only ends a test that hangs."""
    while True:
        phone.changed.clear()
        if phone.view is not None and ready(phone.view):
            return phone.view
        try:
            await asyncio.wait_for(phone.changed.wait(), 20)
        except TimeoutError:
            raise AssertionError(f"never happened: {what}") from None


async def sit_down(app: App, phones: list[Phone]) -> None:
    for phone in phones:
        assert await phone.join() == 200
        await phone.connect()
    await until(phones[0], lambda v: len(v["public"]["seats"]) == len(phones), "everyone seated")
    host(app, "right")  # ballots at once, on the phones
    await until(phones[0], lambda v: v["public"]["entry"] == "keypads", "keypads chosen")
    while app.controller.stage == "setup":  # a setup too long for the display is in parts: ok shows each, then starts
        shown = app.screen
        host(app, "ok")
        await game_thread_shows(app, lambda shown=shown: app.screen != shown, "the host's ok")
    await until(phones[0], lambda v: v["public"]["stage"] == "game", "the game started")


async def play(app: App, phones: list[Phone], max_steps: int = 50_000, after: Any = None) -> int:
    """Play until the game is over and its last notice read; the host reads each notice with ok."""
    steps = 0
    watcher = phones[0]
    while True:
        steps += 1
        assert steps < max_steps, "the game did not end"
        view = watcher.view
        assert view is not None
        pub = view["public"]
        if pub["stage"] == "over" and pub["notice"] is None:
            return steps
        if after is not None:
            await after(steps)
        if pub["notice"] is not None:
            await read_notices(app, watcher)
            continue
        acted = False
        for phone in phones:
            key = phone.next_key()
            if key is not None:
                await phone.press(key)
                acted = True
        if not acted:
            await any_frame(phones, f"nobody can act: {pub}")


async def any_frame(phones: list[Phone], what: str) -> None:
    """Wait for a frame to any phone (each may be a frame behind the others)."""
    for phone in phones:
        phone.changed.clear()
    waits = [asyncio.ensure_future(phone.changed.wait()) for phone in phones]
    done, pending = await asyncio.wait(waits, timeout=20, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    if not done:
        raise AssertionError(f"never happened: {what}")


async def game_thread_shows(app: App, ready: Any, what: str) -> None:
    """Wait until the game thread's state satisfies ``ready()`` (polled: a hang guard, never a verdict on speed)."""
    for _ in range(2000):
        if ready():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def read_notices(app: App, watcher: Phone) -> None:
    """The host reads every notice with ok (as at a real table), until the watcher's phone shows none."""

    def shown() -> tuple[object, int]:
        return app.screen, len(app.controller.notices)

    while app.controller.notices:
        before = shown()
        host(app, "ok")
        await game_thread_shows(app, lambda before=before: shown() != before, "a notice read")
    await until(watcher, lambda v: v["public"]["notice"] is None, "no notice on the phone")
