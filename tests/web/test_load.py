"""Loopback load: four phones and a table view play a whole game while 200 hostile connections try their worst.

No crash, the game ends, every press is applied at most once (a press names the view it was made on; sending it
twice, as a reconnecting phone might, counts once), and what the server holds stays bounded by its limits.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import aiohttp

from companion.engine import replay_text
from companion.web.hub import Limits
from tests.web.harness import Phone, base_url, play, running_companion, sit_down

HANDSHAKE = (
    "GET /ws?table=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)

GARBAGE = b"GET /ws HTTP/1.1\r\nHost: x\r\n\r\n" + b"\0" * 9000


class Twice(Phone):
    """A phone whose every press arrives twice."""

    async def press(self, key: str) -> None:
        assert self.ws is not None and self.view is not None
        await self.ws.send_str(f'{{"t": "press", "key": "{key}", "v": {self.view["v"]}}}')
        await super().press(key)


def test_four_phones_a_table_and_200_hostile_connections(tmp_path: Path) -> None:
    limits = Limits(per_client=1000, total=120, messages_per_second=1e6, burst=1_000_000, send_queue=8)
    accepted: list[tuple[str, int]] = []
    held: list[int] = []

    async def night() -> list[str]:
        with running_companion(tmp_path, limits) as app:
            assert app.phones is not None and app.web is not None
            publisher = app.phones.publisher
            accept = publisher.accept

            def counting(press):  # type: ignore[no-untyped-def]
                ok = accept(press)
                if ok:
                    accepted.append((press.phone, press.view))
                return ok

            publisher.accept = counting  # type: ignore[method-assign]
            phones = [Phone(app, random.Random(n)) for n in range(3)] + [Twice(app, random.Random(9))]
            url = base_url(app)
            table = aiohttp.ClientSession()
            table_ws = await table.ws_connect(url + "/ws?table=1")
            shown: list[str] = []

            async def read_table() -> None:  # the table view reads what it is sent, at its own pace
                async for msg in table_ws:
                    shown.append(msg.data)

            reader = asyncio.ensure_future(read_table())
            hostile: list[asyncio.StreamWriter] = []
            try:
                await sit_down(app, phones)
                for index in range(200):  # half never read a byte, half send garbage
                    _reader, writer = await asyncio.open_connection("127.0.0.1", app.web.port)
                    writer.write(HANDSHAKE.encode() if index % 2 else GARBAGE)
                    hostile.append(writer)

                async def watch(step: int) -> None:
                    hub = app.web.hub  # type: ignore[union-attr]
                    held.append(len(hub.clients))
                    assert len(hub.clients) <= limits.total
                    assert all(len(client.pending) <= limits.send_queue for client in hub.clients)

                await play(app, phones, after=watch)
                assert shown, "the table view was sent the game"
                return list(app.controller.record)
            finally:
                for writer in hostile:
                    writer.close()
                await table_ws.close()
                reader.cancel()
                await table.close()
                for phone in phones:
                    await phone.close()

    record = asyncio.run(night())
    assert replay_text(record).is_over
    assert len(accepted) == len(set(accepted)), "a press was applied twice"
    assert len(accepted) > 50
    assert max(held) <= limits.total
