"""The door of the web pads' server: every TCP connection before it is a WebSocket, on aiohttp's own request handler.

aiohttp (3.8 to 3.14) waits for a request's headers as long as a client likes and counts no connection that has
not sent one: a guest holding a thousand half-sent requests used up the service's file descriptors. Here each
connection that is not (yet) a WebSocket is counted (``Hub.waiting``) and capped, in all and per address (past
either, the oldest goes: it had the most time), sends its headers within ``header_timeout_s`` and is done within
``request_timeout_s``. And aiohttp's own error pages (a request it cannot parse) echo the request line back: here
they are a status and its reason, and the refusal is one line of ours.
"""

from __future__ import annotations

import asyncio
import logging
import time
from http import HTTPStatus
from typing import Any

from aiohttp import http_exceptions, web
from aiohttp.web_request import BaseRequest

from .hub import Hub, clip

log = logging.getLogger(__name__)

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def plain(status: int) -> web.Response:
    """An error page: the status and its reason, nothing of the request."""
    response = web.Response(status=status, text=HTTPStatus(status).phrase, headers=HEADERS)
    response.force_close()
    return response


def kind(error: BaseException | None) -> str:
    """What a request aiohttp's parser refused was, in words of ours (never the request's own)."""
    if isinstance(error, http_exceptions.LineTooLong):
        return "an oversized request line or header"
    # BadHttpMethod (aiohttp 3.9+) is a BadStatusLine; 3.8 has only the latter
    if isinstance(error, http_exceptions.BadStatusLine):
        return "a request that is not HTTP"
    if isinstance(error, http_exceptions.HttpProcessingError):
        return "a malformed request"
    return f"a request the server could not handle ({type(error).__name__ if error else 'no reason'})"


class Handler(web.RequestHandler):
    """aiohttp's request handler for one connection, counted and timed from the moment it is accepted."""

    def __init__(self, hub: Hub, manager: web.Server, loop: asyncio.AbstractEventLoop, logger: logging.Logger) -> None:
        limits = hub.limits
        # Between requests on one connection, aiohttp's keep-alive timeout is the header timeout too.
        super().__init__(
            manager,
            loop=loop,
            logger=logger,
            access_log=None,  # type: ignore[arg-type]  # as AppRunner(access_log=None) passes it: no access lines
            keepalive_timeout=limits.header_timeout_s,
            lingering_time=1.0,  # a body left unread (a join timed out) is drained 1 s, not aiohttp's 10
        )
        self.hub = hub
        self.address = "unknown"
        self.begun = False  # its request's headers came
        self.upgraded = False  # it is a WebSocket now (counted by the hub's own limits)
        self._link: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._opened = time.monotonic()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert isinstance(transport, asyncio.Transport)
        self._link = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "unknown"
        self._timer = asyncio.get_running_loop().call_later(self.hub.limits.header_timeout_s, self._late)
        self._count()

    def connection_lost(self, exc: BaseException | None) -> None:
        self.hub.waiting.pop(self, None)
        if self._timer is not None:
            self._timer.cancel()
        super().connection_lost(exc)

    def _count(self) -> None:
        waiting, limits = self.hub.waiting, self.hub.limits
        waiting[self] = self.address
        same = [door for door, address in waiting.items() if address == self.address]
        if len(same) > limits.waiting_per_client:
            self.hub.refuse("too many open requests from one address", self.address)
            _shut(_oldest(same))
        elif len(waiting) > limits.waiting:
            oldest = _oldest(list(waiting))
            self.hub.refuse("too many open requests in all", waiting[oldest])
            _shut(oldest)

    def _late(self) -> None:
        limits = self.hub.limits
        if not self.begun:
            self.hub.refuse(f"a request not sent within {limits.header_timeout_s:g} s", self.address)
            self.abort()
            return
        if self.upgraded:
            return
        left = limits.request_timeout_s - (time.monotonic() - self._opened)
        if left > 0:
            self._timer = asyncio.get_running_loop().call_later(left, self._late)
            return
        self.hub.refuse(f"a request not done within {limits.request_timeout_s:g} s", self.address)
        self.abort()

    def began(self) -> None:
        self.begun = True

    def upgrade(self) -> None:
        """It is a WebSocket now: no longer waiting, no longer timed (its pings and the hub's limits hold it)."""
        self.upgraded = True
        self.hub.waiting.pop(self, None)

    def abort(self) -> None:
        """Closed at once, whatever it has not taken (a close would wait to send it, the socket held meanwhile)."""
        self.hub.waiting.pop(self, None)
        if self._link is not None:
            self._link.abort()

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """aiohttp's own refusals and failures: one line of ours (the traceback at DEBUG), a plain page."""
        self.hub.refuse(kind(exc) if status < 500 else "a request that failed", self.address)
        log.debug("web pads: %s", clip(message or "a request refused", 100), exc_info=exc)
        if request.writer.output_size > 0:
            raise ConnectionError("the response was begun: no error page can follow")
        return plain(status)


def _oldest(doors: list[object]) -> object:
    """The oldest of these that has not sent its headers yet (a request being answered goes only if none has)."""
    return next((door for door in doors if isinstance(door, Handler) and not door.begun), doors[0])


def _shut(door: object) -> None:
    if isinstance(door, Handler):
        door.abort()


class Site(web.TCPSite):
    """A TCP site whose connections are ``Handler``s (aiohttp's own site makes its plain ones)."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, hub: Hub, logger: logging.Logger) -> None:
        super().__init__(runner, host, port)
        self._hub, self._logger = hub, logger

    async def start(self) -> None:
        await web.BaseSite.start(self)  # registered with the runner, which stops it
        loop = asyncio.get_running_loop()
        manager = self._runner.server
        assert manager is not None
        hub, logger = self._hub, self._logger

        def door() -> Handler:
            return Handler(hub, manager, loop, logger)

        self._server = await loop.create_server(door, self._host, self._port, backlog=hub.limits.backlog)
        if hasattr(self, "_bound_port") and self._server.sockets:  # aiohttp 3.10+: the port it listens on
            self._bound_port = self._server.sockets[0].getsockname()[1]


def began(request: web.Request) -> Any:
    """The request's door, told its headers came (a test client's connections are aiohttp's own: None)."""
    door = request.protocol
    if isinstance(door, Handler):
        door.began()
        return door
    return None
