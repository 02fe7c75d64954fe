"""A phone on the table's network, from outside the companion's machine (a container, a QEMU guest): joins by the
link's secret, follows the page's WebSocket and presses like the page does. Shared by the tests that reach an
installed companion over the network (tests/test_systemd_service.py, tests/test_card_image.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiohttp


class Phone:
    """A phone on the local network: its own cookie jar, the join link's secret, then the page's WebSocket."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.view: dict[str, Any] = {}

    async def join(self, secret: str) -> None:
        async with self.session.post(self.base + "/api/join", json={"secret": secret}) as answer:
            assert answer.status == 200

    async def connect(self) -> None:
        self.ws = await self.session.ws_connect(self.base + "/ws")

    async def until(self, ready: Any, what: str) -> dict[str, Any]:
        """Frames until the view is ``ready`` (the timeout is a hang guard over the whole wait: the server's pings
        would restart a timeout of each receive)."""
        assert self.ws is not None
        try:
            async with asyncio.timeout(60):
                while not (self.view and ready(self.view)):
                    frame = await self.ws.receive_json()
                    if frame["t"] == "view":
                        self.view = frame
        except (TypeError, TimeoutError):
            raise AssertionError(f"never happened: {what} (last view: {self.view})") from None
        return self.view

    async def key(self, key: str, done: Any) -> None:
        """Press ``key`` until ``done(mine)``: a press on a view the host's keys made stale is refused (and answered
        with the current view), as on a real phone."""
        assert self.ws is not None
        for _ in range(10):
            pressed_on = self.view["v"]
            await self.ws.send_json({"t": "press", "key": key, "v": pressed_on})
            await self.until(lambda view, on=pressed_on: view["v"] > on, f"an answer to {key}")
            if done(self.view["mine"]):
                return
        raise AssertionError(f"{key} never counted: {self.view}")

    async def reconnect(self) -> None:
        """Connect again until the service is back (the page does the same after a restart; a hang guard)."""
        for _ in range(600):
            try:
                await self.connect()
                break
            except aiohttp.ClientError:
                await asyncio.sleep(0.2)
        self.view = {}

    async def close(self) -> None:
        await self.session.close()


async def lock_in_a_ballot(base: str, phones: list[Phone], secret: str, host: Callable[[str], None]) -> Phone:
    """The phones join, the host's keys (HOST writes a line of them) put the ballots on the phones and start the
    game, and the first phone (red) locks in Castello with marker 3; red."""
    for phone in phones:
        await phone.join(secret)
        await phone.connect()
    await phones[0].until(lambda view: len(view["public"]["seats"]) == len(phones), "the phones seated")
    host("host right")  # ballots at once, on the phones
    red = phones[0]
    await red.until(lambda view: view["public"]["entry"] == "keypads", "ballots on the phones")
    async with aiohttp.ClientSession() as outside:  # the host's ok until the game starts (setup in parts)
        for _ in range(10):
            host("host ok")
            async with outside.ws_connect(base + "/ws?table=1") as table:
                async with asyncio.timeout(60):  # (the server's pings restart a receive's own timeout)
                    shown = await table.receive_json()
                if shown["public"]["stage"] == "game":
                    break
    await red.until(lambda view: view["public"]["stage"] == "game", "the game started")
    await red.key("area:castello", lambda mine: (mine["keyed"] or {}).get("area") == "castello")
    await red.key("marker:3", lambda mine: (mine["keyed"] or {}).get("markers") == [3])
    await red.key("ok", lambda mine: mine["locked"])
    assert red.view["mine"]["locked"] and red.view["mine"]["pending"] == {"area": "castello", "markers": [3]}
    return red
