"""Bad input and abuse against the real server: each refused or dropped with one log line, the game untouched, and
nothing secret in what the server says or logs."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import aiohttp
import pytest
import yarl

from companion.web.server import Limits
from tests.web.harness import Phone, base_url, running_companion, until


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
                await flood.ws.send_str('{"t": "press", "key": "left", "v": -1}')
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
        "too many connections",
        "stopped reading",
    ):
        assert any(reason in message for message in refusals), (reason, refusals)
