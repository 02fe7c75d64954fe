"""Quiet under abuse (docs/web-pads.md "Limits and bad input"): whatever a stranger on the Wi-Fi sends, the log gets at
most one line a second for each kind of refusal, never a traceback, never asyncio's "Task was destroyed but it is
pending!", never a secret.

Oversized headers, requests that are not HTTP, a TLS hello on the plain port and malformed requests are refused by
aiohttp's own parser (its request handler logs each with a traceback unless told otherwise); table views that
connect and close at once leave no task behind; unknown tokens, wrong join secrets and WebSocket subprotocols are
refused by the server's own checks.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from pathlib import Path

import aiohttp

from tests.web.harness import base_url, running_companion

ABUSE = {
    "oversized header": b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    "not HTTP": b"\x00\x01garbage garbage\r\n\r\n",
    "TLS hello": bytes.fromhex("16030100a5010000a10303") + b"\x00" * 60 + b"\r\n\r\n",
    "malformed": b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
}


class Lines(logging.Handler):
    """Every line the log would show (a traceback's lines counted one by one)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines += self.format(record).splitlines()


def test_abuse_of_every_kind_is_a_few_plain_lines(tmp_path: Path) -> None:
    log = Lines()
    root = logging.getLogger()
    root.addHandler(log)
    level = root.level
    root.setLevel(logging.INFO)
    try:

        async def abuse() -> tuple[float, str]:
            with running_companion(tmp_path) as app:
                assert app.web is not None
                url, port, secret = base_url(app), app.web.port, app.web.hub.secret
                log.lines.clear()  # from here on, only what the abuse makes the companion say
                started = time.monotonic()
                for payload in ABUSE.values():
                    for _ in range(50):
                        reader, writer = await asyncio.open_connection("127.0.0.1", port)
                        writer.write(payload)
                        await writer.drain()
                        await reader.read()  # the answer (400), then the server closes
                        writer.close()
                async with aiohttp.ClientSession() as session:
                    for _ in range(200):  # table views that connect and close at once
                        ws = await session.ws_connect(url + "/ws?table=1")
                        await ws.close()
                    for _ in range(20):
                        async with session.post(url + "/api/join", json={"secret": "guess"}) as answer:
                            assert answer.status == 403
                    session.cookie_jar.update_cookies({"doge_seat": "x" * 43})
                    for _ in range(20):
                        async with session.get(url + "/ws") as answer:
                            assert answer.status in (400, 403)
                    for _ in range(20):
                        async with session.get(url + "/ws?table=1", headers={"Sec-WebSocket-Protocol": "x"}) as answer:
                            assert answer.status == 400
                gc.collect()  # a task left pending is reported when it is collected
                await asyncio.sleep(0.1)
                return time.monotonic() - started, secret

        elapsed, secret = asyncio.run(abuse())
        gc.collect()
    finally:
        root.removeHandler(log)
        root.setLevel(level)
    text = "\n".join(log.lines)
    assert "Traceback" not in text and "Task was destroyed" not in text, text[:3000]
    assert secret not in text and "x" * 43 not in text
    kinds = {line.split(": ", 3)[-1].split(" (and ")[0] for line in log.lines}
    assert all(line.startswith("WARNING companion.web.server: web pads: refused") for line in log.lines), text[:3000]
    # one line a second per kind at most (and a last one with the count held back, when the server stops)
    assert len(log.lines) <= len(kinds) * (2 + int(elapsed)), text
    assert {"an oversized request line or header", "a request that is not HTTP", "a malformed request"} <= kinds
