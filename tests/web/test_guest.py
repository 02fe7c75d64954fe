"""A hostile guest on the table's Wi-Fi (docs/web-pads.md "Limits and bad input"): the log stays quiet and the phones
get in.

Quiet: no request of any kind puts a traceback in the log (a long static name is a plain 404; a table view's
upgrade reset at once is nothing); every line is clipped; each kind at most once a second. Available: table views
have their own cap and a seat's phone always gets back in; half-sent requests are timed out and capped; a player who
lost a cookie can always join again; a client that does not read is dropped by what it has not taken, the kernel's
send queue included; error pages echo nothing of the request. Everything runs against 127.0.0.x only, bounded in
count and time (docs/web-pads.md, "Limits and bad input").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
import re
import socket
import struct
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import aiohttp
import pytest

from companion.app import App
from companion.web.hub import Limits
from hardware.events import InputEvent
from tests.web.harness import Phone, base_url, running_companion, until
from tests.web.test_load import HANDSHAKE
from tests.web.test_quiet import Lines

T = TypeVar("T")
FAST = {"messages_per_second": 1e6, "burst": 1_000_000}  # simulated phones press faster than people


@contextmanager
def log_lines() -> Iterator[Lines]:
    lines = Lines()
    root = logging.getLogger()
    level = root.level
    root.addHandler(lines)
    root.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        root.removeHandler(lines)
        root.setLevel(level)


async def raw(port: int, payload: bytes, source: str = "127.0.0.1") -> bytes:
    """Send ``payload`` on a fresh connection and read the whole answer (the server closes after it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(payload)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 20)
    writer.close()
    return answer


def session_from(source: str) -> aiohttp.ClientSession:
    """A client on its own loopback address (127.0.0.0/8 is all loopback on Linux): a guest with many addresses."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True))


async def on_server(app: App, read: Callable[[], T]) -> T:
    """``read()`` on the server's own loop (its state is that thread's: read from here it may be mid-change)."""
    assert app.web is not None and app.web.hub.loop is not None
    answer: concurrent.futures.Future[T] = concurrent.futures.Future()
    app.web.hub.loop.call_soon_threadsafe(lambda: answer.set_result(read()))
    return await asyncio.wrap_future(answer)


def assert_quiet(lines: Lines, elapsed: float) -> None:
    text = "\n".join(lines.lines)
    assert "Traceback" not in text, text[:3000]
    assert all(len(line) <= 200 for line in lines.lines), max(lines.lines, key=len)[:400]
    kinds = {line.split(": ", 3)[-1].split(" (and ")[0] for line in lines.lines}
    assert len(lines.lines) <= len(kinds) * (2 + int(elapsed)), text[:3000]


# ---------------------------------------------------------------------------------------------- 4: quiet


def test_long_names_and_reset_upgrades_leave_no_traceback(tmp_path: Path) -> None:
    """The log stays quiet: 100 requests for /static/<256 characters> and a 5,000-character name answered 404 with no
    traceback, 300 table-view upgrades reset at once leave none either, and every line stays short."""
    with log_lines() as lines:

        async def abuse() -> float:
            with running_companion(tmp_path) as app:
                assert app.web is not None
                port = app.web.port
                lines.lines.clear()
                started = time.monotonic()
                for length in [256] * 100 + [5000]:
                    answer = await raw(
                        port, f"GET /static/{'a' * length} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
                    )
                    assert answer.startswith(b"HTTP/1.1 404 "), answer[:200]
                    assert b"aaaa" not in answer
                for _ in range(300):
                    sock = socket.create_connection(("127.0.0.1", port))
                    sock.sendall(HANDSHAKE.encode())
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    sock.close()  # a reset, at once
                await asyncio.sleep(0.5)
                return time.monotonic() - started

        elapsed = asyncio.run(abuse())
    assert_quiet(lines, elapsed)


def test_error_pages_echo_nothing_of_the_request(tmp_path: Path) -> None:
    """aiohttp's own 400 pages echo the request line back (a method it cannot parse, a bad header): here they are
    a status and its reason, like every other error page."""

    async def ask() -> list[bytes]:
        with running_companion(tmp_path) as app:
            assert app.web is not None
            port = app.web.port
            return [
                await raw(port, b"G\x01T /zz-echoed-zz HTTP/1.1\r\nHost: x\r\n\r\n"),
                await raw(port, b"GET /zz-echoed-zz HTTP/1.1\r\nHost: x\r\nBad Header zz-echoed-zz\r\n\r\n"),
                await raw(port, b"GET /zz-echoed-zz HTTP/1.1\r\nHost: x\r\nContent-Length: zz-echoed-zz\r\n\r\n"),
                await raw(port, b"GET /zz-echoed-zz HTTP/9.9\r\nHost: x\r\n\r\n"),
            ]

    for answer in asyncio.run(ask()):
        head, _, body = answer.partition(b"\r\n\r\n")
        assert re.match(rb"HTTP/\d\.\d 4\d\d ", head), answer  # aiohttp 3.8 answers in the version asked for
        assert b"zz-echoed-zz" not in answer, answer
        assert body == head.split(b"\r\n")[0].split(b" ", 2)[2], answer  # the reason, and nothing else


# ---------------------------------------------------------------------------------------------- 5: available


def test_table_views_cannot_crowd_out_phones(tmp_path: Path) -> None:
    """Phones get in: 48 table views held from eight loopback addresses (the default limits) leave room for a new
    phone and for a seated phone's reload, and a seat's phone gets back in even from an address that is full."""

    async def crowd() -> None:
        with running_companion(tmp_path, Limits(**FAST)) as app:
            url = base_url(app)
            seated = Phone(app, random.Random(1))
            assert await seated.join() == 200
            await seated.connect()
            await until(seated, lambda v: v["mine"] is not None, "the phone sat down")
            sessions = [session_from(f"127.0.0.{n}") for n in range(2, 10)]
            held = []
            for session in sessions:
                for _ in range(6):
                    try:
                        held.append(await session.ws_connect(url + "/ws?table=1"))
                    except aiohttp.WSServerHandshakeError as error:
                        assert error.status == 503
            crowd_at_home = session_from("127.0.0.1")
            for _ in range(6):  # the seated phone's own address full of table views
                try:
                    held.append(await crowd_at_home.ws_connect(url + "/ws?table=1"))
                except aiohttp.WSServerHandshakeError as error:
                    assert error.status == 503
            try:
                newcomer = Phone(app, random.Random(2))
                newcomer.session = session_from("127.0.0.20")
                assert await newcomer.join() == 200
                await newcomer.connect()  # a new phone: its page opens
                await newcomer.wait_view()
                await seated.drop()  # a reload of the seated phone, from the crowded address
                await seated.connect()
                view = await seated.wait_view()
                assert view["mine"] is not None
                await newcomer.close()
            finally:
                for ws in held:
                    await ws.close()
                for session in [*sessions, crowd_at_home]:
                    await session.close()
                await seated.close()

    asyncio.run(crowd())


def test_a_seat_s_phone_always_gets_back_in(tmp_path: Path) -> None:
    """A phone that reconnects again and again (the Wi-Fi dropping without a close) is let in each time: its oldest
    page goes, not the newest."""

    async def reconnects() -> None:
        with running_companion(tmp_path, Limits(**FAST)) as app:
            phone = Phone(app, random.Random(1))
            assert await phone.join() == 200
            stale = []
            for _ in range(10):
                phone.view = None
                await phone.connect()
                view = await phone.wait_view()
                assert view["mine"] is not None
                assert phone.ws is not None
                stale.append(phone.ws)
            assert app.web is not None
            assert len(app.web.hub.clients) <= app.web.hub.limits.per_phone
            for ws in stale:
                await ws.close()
            await phone.close()

    asyncio.run(reconnects())


def test_half_sent_requests_are_timed_out_and_counted(tmp_path: Path) -> None:
    """Phones get in: 300 requests whose headers never end, from one address and from many: each closed by the header
    timeout or by the cap on waiting connections (the oldest goes), the log counts them, and a phone's page still
    loads meanwhile."""

    with log_lines() as lines:

        async def half() -> None:
            limits = Limits(header_timeout_s=1.0, **FAST)
            with running_companion(tmp_path, limits) as app:
                assert app.web is not None
                port = app.web.port
                held = []
                for index in range(300):
                    source = f"127.0.1.{index % 50 + 1}"
                    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
                    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
                    held.append((reader, writer))
                waiting = await on_server(app, lambda: len(app.web.hub.waiting))  # type: ignore[union-attr]
                assert waiting <= limits.waiting
                page = await raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                assert page.startswith(b"HTTP/1.1 200 ")
                for reader, writer in held:  # every one closed by the server: by the cap, or within the timeout
                    with contextlib.suppress(ConnectionResetError):  # aborted with the request unread: a reset
                        assert await asyncio.wait_for(reader.read(), 10) == b""
                    writer.close()

        asyncio.run(half())
    said = "\n".join(lines.lines)
    assert "a request not sent within 1 s" in said, said
    assert "more like it" in said, said


def test_a_join_whose_body_never_comes_is_timed_out(tmp_path: Path) -> None:
    """A join request that promises a body and never sends it holds no connection past the header timeout, and the
    log says what it was (not "a wrong or old link")."""
    with log_lines() as lines:

        async def stall() -> bytes:
            with running_companion(tmp_path, Limits(header_timeout_s=1.0, **FAST)) as app:
                assert app.web is not None
                head = b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                return await raw(app.web.port, head + b"Content-Length: 100\r\n\r\n" + b'{"secret": ')

        answer = asyncio.run(stall())
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    said = "\n".join(lines.lines)
    assert "a join request not sent within 1 s" in said and "wrong or old link" not in said, said


def test_a_player_who_lost_a_cookie_can_always_join(tmp_path: Path) -> None:
    """Phones get in: 100 joins from one address, then 100 from others, do not use up the tokens: a phone that lost
    its cookie joins again (the oldest unused tokens of a crowded address are reclaimed), and the log never calls
    a join with the right link "a wrong or old link"."""
    with log_lines() as lines:

        async def joins() -> None:
            with running_companion(tmp_path, Limits(**FAST)) as app:
                assert app.web is not None
                url, offer = base_url(app), {"secret": app.web.hub.secret}
                for source in ["127.0.0.2"] * 100 + [f"127.0.2.{n}" for n in range(1, 101)]:
                    async with session_from(source) as guest, guest.post(url + "/api/join", json=offer) as answer:
                        assert answer.status == 200
                assert len(app.web.hub.phones) <= app.web.hub.limits.tokens
                lost = Phone(app, random.Random(1))
                lost.session = session_from("127.0.0.30")
                assert await lost.join() == 200
                await lost.connect()
                await lost.wait_view()
                await lost.close()

        asyncio.run(joins())
    assert "wrong or old link" not in "\n".join(lines.lines)


def outq(sock: socket.socket) -> int:
    """Bytes in the kernel's send queue of a socket, not yet taken by the other end (Linux's SIOCOUTQ)."""
    import fcntl
    import termios

    return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]


@pytest.mark.skipif(not hasattr(socket, "TCP_INFO"), reason="SIOCOUTQ is Linux's")
def test_a_slow_reader_is_dropped_by_what_it_has_not_taken(tmp_path: Path) -> None:
    """Phones get in: a table view that never reads, the server's kernel buffers left as they are (Linux grows them to
    megabytes): it is dropped once the bytes it has not taken (the transport's buffer and the kernel's send queue)
    pass the limit, long before the send timeout."""
    limits = Limits(send_timeout_s=600, write_buffer=64 * 1024, **FAST)
    most = 0

    async def stall() -> bool:
        nonlocal most
        with running_companion(tmp_path, limits) as app:
            assert app.web is not None
            hub = app.web.hub
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", app.web.port))
            sock.sendall(HANDSHAKE.encode())
            for _ in range(200):
                if hub.clients:
                    break
                await asyncio.sleep(0.05)
            (client,) = hub.clients
            assert client.transport is not None
            server_side = client.transport.get_extra_info("socket")
            for _press in range(3000):
                app.events.put(InputEvent("host", "right"))
                await asyncio.sleep(0.002)
                if client not in hub.clients:
                    break
                try:  # read from this thread: the server may drop it (and close its socket) meanwhile
                    not_taken = client.transport.get_write_buffer_size() + outq(server_side)  # type: ignore[attr-defined]
                except OSError:
                    break
                most = max(most, not_taken)
            dropped = client not in hub.clients
            sock.close()
            return dropped

    assert asyncio.run(stall()), f"not dropped; {most} bytes not taken"
    assert most <= limits.write_buffer + 16 * 1024, most  # the limit, and at most one frame past it
