"""Bad input and abuse against the real server: each refused or dropped with one log line, the game untouched, and
nothing secret in what the server says or logs."""

from __future__ import annotations

import asyncio
import logging
import random
import socket
from pathlib import Path

import aiohttp
import pytest
import yarl

from companion.web.hub import Limits
from hardware.events import InputEvent
from tests.web.harness import Phone, base_url, running_companion, until
from tests.web.test_load import HANDSHAKE


def test_hostile_clients_are_refused_and_the_phones_play_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    limits = Limits(per_client=1000, total=100, burst=5, messages_per_second=5, send_queue=4)

    async def attack() -> None:
        with running_companion(tmp_path, limits) as app:
            url = base_url(app)
            phone = Phone(app, random.Random(1))
            assert await phone.join() == 200
            await phone.connect()
            await until(phone, lambda v: len(v["public"]["seats"]) == 1, "the phone sat down")
            async with aiohttp.ClientSession() as stranger:
                # a wrong join secret; a socket with no token, and with a made-up one
                async with stranger.post(url + "/api/join", json={"secret": "guess"}) as answer:
                    assert answer.status == 403
                    assert "guess" not in await answer.text()
                with pytest.raises(aiohttp.WSServerHandshakeError):
                    await stranger.ws_connect(url + "/ws")
                stranger.cookie_jar.update_cookies({"doge_seat": "x" * 43})
                with pytest.raises(aiohttp.WSServerHandshakeError):
                    await stranger.ws_connect(url + "/ws")
                async with stranger.post(url + "/api/join", data=b"x" * 100_000) as answer:
                    assert answer.status in (403, 413)
            # an oversized message, garbage, and a flood: each drops only that connection
            for payload in ("x" * 10_000, "not json", '{"t": "press", "key": "power", "v": 0}', "[1]"):
                bad = Phone(app, random.Random(2))
                bad.session.cookie_jar.update_cookies(phone.session.cookie_jar.filter_cookies(yarl.URL(url)))  # type: ignore[arg-type]
                await bad.connect()
                assert bad.ws is not None
                await bad.ws.send_str(payload)
                await asyncio.wait_for(bad.reader, 20)  # type: ignore[arg-type]
                await bad.close()
            flood = Phone(app, random.Random(3))
            flood.session.cookie_jar.update_cookies(phone.session.cookie_jar.filter_cookies(yarl.URL(url)))
            await flood.connect()
            assert flood.ws is not None
            for _ in range(50):
                if flood.ws.closed:
                    break
                try:
                    await flood.ws.send_str('{"t": "press", "key": "left", "v": -1}')
                except ConnectionResetError:  # the server dropped the flood between the check and this send
                    break
            await asyncio.wait_for(flood.reader, 20)  # type: ignore[arg-type]
            await flood.close()
            # 200 table views that never read: dropped when their queue is full, nobody else is
            sessions = [aiohttp.ClientSession() for _ in range(4)]
            sockets = []
            for index in range(200):
                try:
                    sockets.append(await sessions[index % 4].ws_connect(url + "/ws?table=1"))
                except aiohttp.WSServerHandshakeError as error:
                    assert error.status == 503  # past the total: refused
            assert len(app.web.hub.clients) <= limits.total  # type: ignore[union-attr]
            for ws in sockets:
                await ws.close()
            for session in sessions:
                await session.close()
            # the real phone still plays: its colour changes with right
            before = (await phone.wait_view())["mine"]["colour"]
            await phone.press("right")
            after = await until(phone, lambda v: v["mine"]["colour"] != before, "the phone still works")
            assert after["public"]["stage"] == "setup"
            await phone.close()
            secret = app.web.hub.secret  # type: ignore[union-attr]
            tokens = list(app.web.hub.phones)  # type: ignore[union-attr]
        text = caplog.text
        assert secret not in text and not any(token in text for token in tokens)

    asyncio.run(attack())
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    for reason in (
        "wrong or old link",
        "unknown seat token",
        "oversized",
        "not JSON",
        "malformed press",
        "not an object",
        "too many messages",
        "too many table views",
    ):
        assert any(reason in message for message in refusals), (reason, refusals)


def test_a_client_that_never_reads_is_dropped_and_holds_one_frame(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A table view that never reads a byte: its socket fills, its send blocks past the timeout, and it is dropped;
    meanwhile the server holds at most one unsent frame for it (a newer view replaces an older one)."""
    caplog.set_level(logging.INFO)
    limits = Limits(send_timeout_s=0.5, write_buffer=64 * 1024)

    def dropped() -> bool:
        return any(r.getMessage().startswith("web pads: refused") and "read" in r.getMessage() for r in caplog.records)

    async def stall() -> None:
        with running_companion(tmp_path, limits) as app:
            assert app.web is not None
            hub = app.web.hub
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: its buffers fill soon
            sock.connect(("127.0.0.1", app.web.port))
            sock.setblocking(False)
            _reader, writer = await asyncio.open_connection(sock=sock)
            writer.write(HANDSHAKE.encode())
            for _ in range(200):
                if hub.clients:
                    break
                await asyncio.sleep(0.05)
            for client in hub.clients:  # the kernel's buffers as small as on a phone's slow Wi-Fi, to fill soon
                assert client.transport is not None
                client.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            most = 0
            for _press in range(6000):  # each changes the public view (ballot entry), so a frame for the table
                app.events.put(InputEvent("host", "right"))
                await asyncio.sleep(0.001)
                most = max([most, *(len(client.pending) for client in hub.clients)])
                if dropped():
                    break
            for _ in range(200):
                if dropped():
                    break
                await asyncio.sleep(0.05)
            assert most <= 1
            assert not hub.clients
            writer.close()

    asyncio.run(stall())
    assert dropped()
