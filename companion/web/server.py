"""The web pads' server: aiohttp on its own thread and event loop, in the companion's process (docs/web-pads.md).

It only passes things across: a phone's press goes onto the App's event queue as a :class:`WebPress`, exactly as a
keypad's key does, and the frames the game thread built (``publisher.py``) go out, each connection getting only
its own seat's frame or, for the table view and phones without a seat, the public one. Everything a client can do
is bounded (message size, messages a second, connections per address and in all, frames waiting for a client that
does not read), and each refusal is one log line that names the client's address and never a token or a key.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from hardware.events import EventQueue

from .hub import COOKIE, Client, Hub, Limits
from .publisher import Frames

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("companion.web") / "static"))
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def _address(request: web.Request) -> str:
    return request.remote or "unknown"


def _page(name: str) -> web.FileResponse:
    return web.FileResponse(STATIC / name, headers=HEADERS)


def make_app(hub: Hub) -> web.Application:
    """The aiohttp application (tests build theirs with aiohttp's test client)."""

    @web.middleware
    async def plain_errors(request: web.Request, handler: Any) -> web.StreamResponse:
        """No traceback, path or query in any error page: a status and its reason."""
        try:
            return await handler(request)  # type: ignore[no-any-return]
        except web.HTTPException as error:
            return web.Response(status=error.status, text=error.reason, headers=HEADERS)
        except Exception:
            log.exception("web pads: a request failed")
            return web.Response(status=500, text="Internal Server Error", headers=HEADERS)

    app = web.Application(client_max_size=1024, middlewares=[plain_errors])

    async def started(_app: web.Application) -> None:
        hub.loop = asyncio.get_running_loop()

    async def pad(request: web.Request) -> web.StreamResponse:
        return _page("pad.html")

    async def table(request: web.Request) -> web.StreamResponse:
        return _page("table.html")

    async def join(request: web.Request) -> web.StreamResponse:
        try:
            offered = (await request.json()).get("secret", "")
        except (ValueError, AttributeError, web.HTTPException):
            offered = ""
        token = hub.join(offered if isinstance(offered, str) else "", request.cookies.get(COOKIE))
        if token is None:
            hub.refuse("a join with a wrong or old link", _address(request))
            return web.json_response({"ok": False}, status=403, headers=HEADERS)
        response = web.json_response({"ok": True}, headers=HEADERS)
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=7 * 24 * 3600)
        return response

    async def socket_(request: web.Request) -> web.StreamResponse:
        address = _address(request)
        table_view = request.query.get("table") == "1"
        token = None if table_view else request.cookies.get(COOKIE)
        limits = hub.limits
        if not table_view and (token is None or token not in hub.phones):
            hub.refuse("an unknown seat token", address)
            return web.Response(status=403, text="Forbidden", headers=HEADERS)
        origin, host = request.headers.get("Origin"), request.headers.get("Host")
        if origin is not None and origin.split("://", 1)[-1] != host:
            hub.refuse("a page of another site", address)
            return web.Response(status=403, text="Forbidden", headers=HEADERS)
        if len(hub.clients) >= limits.total:
            hub.refuse("too many connections in all", address)
            return web.Response(status=503, text="Service Unavailable", headers=HEADERS)
        if sum(1 for c in hub.clients if c.address == address) >= limits.per_client:
            hub.refuse("too many connections from one address", address)
            return web.Response(status=503, text="Service Unavailable", headers=HEADERS)
        ws = web.WebSocketResponse(max_msg_size=limits.message_bytes, heartbeat=limits.heartbeat_s)
        await ws.prepare(request)
        client = Client(ws, address, token, request.transport, allowance=float(limits.burst))
        hub.clients.add(client)
        sender = asyncio.ensure_future(_send_loop(hub, client))
        try:
            if token is None:
                hub._push(client, f'{{"t":"table","public":{hub.public}}}')
            else:
                hub.hello(client)
            await _read_loop(hub, client)
        finally:
            hub.clients.discard(client)
            await ws.close()
            sender.cancel()
        return ws

    app.on_startup.append(started)
    app.router.add_get("/", pad)
    app.router.add_get("/table", table)
    app.router.add_post("/api/join", join)
    app.router.add_get("/ws", socket_)
    app.router.add_static("/static/", STATIC, append_version=False)
    return app


async def _read_loop(hub: Hub, client: Client) -> None:
    limits = hub.limits
    async for msg in client.ws:
        if msg.type == WSMsgType.ERROR or msg.type != WSMsgType.TEXT:
            why = "an oversized message" if msg.type == WSMsgType.ERROR else "a message that is not text"
            hub.refuse(why, client.address)
            return
        now = time.monotonic()
        rate = limits.messages_per_second
        client.allowance = min(float(limits.burst), client.allowance + (now - client.checked) * rate)
        client.checked = now
        if client.allowance < 1:
            hub.refuse("too many messages", client.address)
            return
        client.allowance -= 1
        problem = hub.message(client, msg.data)
        if problem is not None:
            hub.refuse(problem, client.address)
            return
        if client not in hub.clients:  # dropped while it was talking
            return


async def _send_loop(hub: Hub, client: Client) -> None:
    while True:
        await client.wake.wait()
        client.wake.clear()
        if not client.pending:
            continue
        text = client.pending.popleft()
        if client.pending:
            client.wake.set()
        try:
            await asyncio.wait_for(client.ws.send_str(text), hub.limits.send_timeout_s)
        except (TimeoutError, ConnectionError, RuntimeError):
            hub.refuse("it stopped reading", client.address)
            hub.clients.discard(client)
            await client.ws.close(code=1008)
            return


# ---------------------------------------------------------------------------------------------- the thread


def lan_address(bind: str) -> str:
    """The address phones reach the companion at: the bind address, or the one the default route leaves from."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    try:  # a sandbox without the network refuses even to make the socket (EAFNOSUPPORT)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))  # no packet is sent: this only picks the outgoing interface
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


class WebPads:
    """The server's thread and loop. ``start`` says in one line why it could not start, or None."""

    def __init__(self, events: EventQueue, bind: str, port: int, limits: Limits | None = None) -> None:
        self.hub = Hub(events, limits)
        self.bind, self.port = bind, port
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._problem: str | None = None
        self.address = "127.0.0.1"
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._run, name="web pads", daemon=True)

    def start(self) -> str | None:
        self._thread.start()
        self._ready.wait()
        self.address = lan_address(self.bind)
        return self._problem

    @property
    def unreachable(self) -> bool:
        """Listening on every network, yet this machine has none but loopback (the service's sandbox without
        systemd/web-pads.conf, or no Wi-Fi): no phone can reach it."""
        return self.address.startswith("127.") and not self.bind.startswith("127.")

    @property
    def url(self) -> str:
        """The join link: the secret is in the fragment, which a browser never sends to a server or a log."""
        return f"http://{self.address}:{self.port}/#j={self.hub.secret}"

    @property
    def table_url(self) -> str:
        return f"http://{self.address}:{self.port}/table"

    def send(self, frames: Frames) -> None:
        """From the game thread."""
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self.hub.deliver, frames)

    def answer(self, request: int, source: str | None) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self.hub.answer, request, source)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        except OSError as error:
            if error.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES) and self.port >= 1024:
                self._problem = (
                    f"web pads: this process may not use the network ({error.strerror or error}; the service's "
                    "sandbox: install systemd/web-pads.conf, docs/web-pads.md); the companion goes on without phones"
                )
            else:
                self._problem = (
                    f"web pads: cannot listen on {self.bind} port {self.port} ({error.strerror or error}): set "
                    "web.port to a free port or web.enabled = false; the companion goes on without phones"
                )
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(self._shutdown())
        self._loop.close()

    async def _serve(self) -> None:
        self._runner = web.AppRunner(make_app(self.hub), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.bind, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if not sockets:  # asyncio skips every address family it may not use, and listens on none
            await self._runner.cleanup()
            raise OSError(errno.EAFNOSUPPORT, "no address family may be used")
        if self.port == 0:
            self.port = sockets[0].getsockname()[1]

    async def _shutdown(self) -> None:
        for client in list(self.hub.clients):
            await client.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def close(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
