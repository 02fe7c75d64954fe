"""What the web pads' server answers (docs/web-pads.md): the pad and table pages and their files, a phone joining,
and each page's WebSocket, with its read and send loops. Every answer is bounded and plain: a status and its
reason on any error, no traceback, path or query in a page or a log line (one line a second per kind), one request
a connection but for a WebSocket, so no idle connection holds a socket."""

from __future__ import annotations

import asyncio
import logging
import time
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from .door import HEADERS, began, plain
from .hub import COOKIE, DEVICE, Client, Frame, Hub

log = logging.getLogger("companion.web.server")

STATIC = Path(str(resources.files("companion.web") / "static"))


def _address(request: web.Request) -> str:
    return request.remote or "unknown"


def _page(name: str) -> web.FileResponse:
    return web.FileResponse(STATIC / name, headers=HEADERS)


def make_app(hub: Hub) -> web.Application:
    """The aiohttp application (tests build theirs with aiohttp's test client)."""
    routes = Routes(hub)
    app = web.Application(client_max_size=1024, middlewares=[routes.plain_errors])
    app.on_startup.append(routes.started)
    app.on_shutdown.append(routes.stopping)
    app.router.add_get("/", routes.pad)
    app.router.add_get("/table", routes.table)
    app.router.add_post("/api/join", routes.join)
    app.router.add_get("/ws", routes.socket)
    app.router.add_get("/static/{name}", routes.static)
    return app


class Routes:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.files = {path.name: path for path in STATIC.iterdir() if path.is_file()}  # the pages' own files

    @web.middleware
    async def plain_errors(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """No traceback, path or query in any error page or log line: a status and its reason, one line a second
        per kind. Each connection serves one request (a WebSocket aside), so no idle one holds a socket."""
        began(request)
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as error:
            return plain(error.status)
        except ConnectionError:  # the client went while it was answered (a reset upgrade): nothing to tell it
            self.hub.note("a connection gone while it was answered", _address(request))
            return plain(500)
        except Exception as error:
            self.hub.note(f"a request failed ({type(error).__name__})", _address(request))
            log.debug("web pads: a request failed", exc_info=error)
            return plain(500)
        response.force_close()
        return response

    async def started(self, _app: web.Application) -> None:
        self.hub.loop = asyncio.get_running_loop()

    async def stopping(self, _app: web.Application) -> None:
        """Every page is told the server goes (each reconnects to the next one), before the loop stops."""
        closing = [client.ws.close(code=WSCloseCode.GOING_AWAY) for client in list(self.hub.clients)]
        await asyncio.gather(*closing, return_exceptions=True)
        self.hub.refuse.flush()

    async def pad(self, request: web.Request) -> web.StreamResponse:
        return _page("pad.html")

    async def table(self, request: web.Request) -> web.StreamResponse:
        return _page("table.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        """The page's files by name: a name that is not one of them is a plain 404 (never a path opened)."""
        path = self.files.get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers=HEADERS)

    async def join(self, request: web.Request) -> web.StreamResponse:
        hub = self.hub
        try:
            async with asyncio.timeout(hub.limits.header_timeout_s):
                asked = await request.json()
        except TimeoutError:
            hub.refuse(f"a join request not sent within {hub.limits.header_timeout_s:g} s", _address(request))
            return plain(408)
        except (ValueError, web.HTTPException):
            asked = None
        offered = asked.get("secret") if isinstance(asked, dict) else None
        secret = offered if isinstance(offered, str) else ""
        token, why = hub.join(secret, request.cookies.get(COOKIE), _address(request))
        if token is None:
            hub.refuse(why, _address(request))
            return web.json_response({"ok": False}, status=403, headers=HEADERS)
        response = web.json_response({"ok": True}, headers=HEADERS)
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=7 * 24 * 3600)
        return response

    async def socket(self, request: web.Request) -> web.StreamResponse:
        hub = self.hub
        address = _address(request)
        table_view = request.query.get("table") == "1"
        phone = None if table_view else hub.phone_of(request.cookies.get(COOKIE))
        limits = hub.limits
        if not table_view and phone is None:
            hub.refuse("an unknown seat token", address)
            return web.Response(status=403, text="Forbidden", headers=HEADERS)
        origin, host = request.headers.get("Origin"), request.headers.get("Host")
        if origin is not None and origin.split("://", 1)[-1] != host:
            hub.refuse("a page of another site", address)
            return web.Response(status=403, text="Forbidden", headers=HEADERS)
        if "Sec-WebSocket-Protocol" in request.headers:  # our pages ask for none (aiohttp logs each it cannot give)
            hub.refuse("a WebSocket subprotocol", address)
            return web.Response(status=400, text="Bad Request", headers=HEADERS)
        crowded = hub.admit(phone, address)
        if crowded is not None:
            hub.refuse(crowded, address)
            return plain(503)
        device = request.query.get("d", "")
        ws = web.WebSocketResponse(max_msg_size=limits.message_bytes, heartbeat=limits.heartbeat_s)
        await ws.prepare(request)
        door = began(request)
        if door is not None:
            door.upgrade()
        client = Client(ws, address, phone, device if DEVICE.fullmatch(device) else "", request.transport)
        client.allowance = float(limits.burst)
        hub.clients.add(client)
        sender = asyncio.ensure_future(_send_loop(hub, client))
        try:
            if phone is None:
                hub._push(client, Frame(f'{{"t":"table","public":{hub.public}}}', whole=True))
            else:
                hub.hello(client)
            await _read_loop(hub, client)
        finally:
            hub.leave(client)
            sender.cancel()
            await asyncio.wait([sender])  # ended before its client goes: no task is left pending
            await ws.close()
        return ws


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
        while client.pending:
            frame = client.pending.popleft()
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancel that comes as the send ends,
                # and the task is left pending ("Task was destroyed but it is pending!", CPython gh-86296).
                async with asyncio.timeout(hub.limits.send_timeout_s):
                    await client.ws.send_str(frame.text)
            except (TimeoutError, ConnectionError, RuntimeError):
                hub.refuse("it stopped reading", client.address)
                hub.leave(client)
                await client.ws.close(code=1008)
                return
