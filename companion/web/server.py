"""The web pads' server: aiohttp on its own thread and event loop, in the companion's process (docs/web-pads.md).

It only passes things across: a phone's press goes onto the App's event queue as a :class:`WebPress`, exactly as a
keypad's key does, and the frames the game thread built (``publisher.py``) go out, each phone getting only its own
frame, the table view the public one. Everything a client can do is bounded (message size, messages a second,
sockets per address, per seat token and in all, table views on their own, connections that are not yet WebSockets
(``door.py``), bytes a client has not taken), and each refusal is one short log line that names the client's
address and never a token or a key, at most one a second per reason, whether our code or aiohttp's own parser
refused it. Whatever fails in the server, the device plays on without phones.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import threading
from collections.abc import Iterable
from typing import Any

from aiohttp import web

from hardware.events import EventQueue

from .door import Site, kind
from .hub import Hub, Limits, clip
from .publisher import Frames
from .routes import make_app

log = logging.getLogger(__name__)

START_TIMEOUT_S = 10.0


class Refused(logging.Handler):
    """aiohttp's own refusals (a header over 8 KB, a request that is not HTTP, a TLS hello on the plain port) come
    to the request handler's logger with a traceback: here each is one refusal line, at most one a second per kind
    (the traceback only at DEBUG, for whoever debugs the server)."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(logging.DEBUG)
        self.hub = hub

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        if error is None and record.levelno < logging.WARNING:
            return
        address = record.args[0] if isinstance(record.args, tuple) and record.args else "unknown"
        self.hub.refuse(kind(error), str(address))
        log.debug("web pads: %s", clip(record.getMessage(), 100), exc_info=record.exc_info)


def protocol_log(hub: Hub) -> logging.Logger:
    """The logger aiohttp's request handlers write to (``AppRunner(logger=...)``): nothing of it reaches the log as
    it is, and it is nobody else's (made here, not registered by name)."""
    logger = logging.Logger("companion.web.protocol", logging.DEBUG)
    logger.addHandler(Refused(hub))
    return logger


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
    """The server's thread and loop. ``start`` says in one line why it could not start, or None: it never waits
    longer than ``start_timeout`` (the companion must show its first screen whatever the network does)."""

    def __init__(
        self,
        events: EventQueue,
        bind: str,
        port: int,
        limits: Limits | None = None,
        known: Iterable[str] = (),
        start_timeout: float | None = None,
    ) -> None:
        """``known``: the phones that hold a seat of the game going on (the digests the store kept)."""
        self.hub = Hub(events, limits, known=known)
        self.bind, self.port = bind, port
        self.start_timeout = START_TIMEOUT_S if start_timeout is None else start_timeout
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._problem: str | None = None
        self.address = "127.0.0.1"
        self._runner: web.AppRunner | None = None
        self._runner_logger = logging.getLogger(__name__)
        self._thread: threading.Thread | None = None

    def start(self) -> str | None:
        app = make_app(self.hub)  # here, not on the thread: what cannot be built (static files) raises to the caller
        self._thread = threading.Thread(target=self._run, args=(app,), name="web pads", daemon=True)
        self._thread.start()
        if not self._ready.wait(self.start_timeout):
            self._loop.call_soon_threadsafe(self._loop.stop)
            return (
                f"web pads: the server did not start within {self.start_timeout:g} s; the companion goes on "
                "without phones"
            )
        if self._problem is None:
            self.address = lan_address(self.bind)
        return self._problem

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and self._problem is None

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
        if self.running:
            self._loop.call_soon_threadsafe(self.hub.deliver, frames)

    def tell(self, phone: str, text: str) -> None:
        """From the game thread: a message for one phone's pages alone."""
        if self.running:
            self._loop.call_soon_threadsafe(self.hub.tell, phone, text)

    def _run(self, app: web.Application) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.set_exception_handler(self._loop_trouble)
        try:
            self._loop.run_until_complete(self._serve(app))
        except OSError as error:
            self._problem = self._network_problem(error)
        except Exception as error:  # anything else: said in one line, and the device plays on
            self._problem = (
                f"web pads: cannot start ({type(error).__name__}: {error}); the companion goes on without phones"
            )
        finally:
            self._ready.set()
        if self._problem is None:
            self._loop.run_forever()
            self._loop.run_until_complete(self._shutdown())
        self._loop.close()

    def _network_problem(self, error: OSError) -> str:
        if error.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES) and self.port >= 1024:
            return (
                f"web pads: this process may not use the network ({error.strerror or error}; the service's "
                "sandbox: install systemd/web-pads.conf, docs/web-pads.md); the companion goes on without phones"
            )
        return (
            f"web pads: cannot listen on {self.bind} port {self.port} ({error.strerror or error}): set "
            "web.port to a free port or web.enabled = false; the companion goes on without phones"
        )

    def _loop_trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What asyncio would log with a traceback on the server's loop: one line, at most one a second."""
        error = context.get("exception")
        what = clip(str(context.get("message", "an error")), 60) + (f" ({type(error).__name__})" if error else "")
        self.hub.note(what, "the server's loop")
        log.debug("web pads: %s", what, exc_info=error)

    async def _serve(self, app: web.Application) -> None:
        self._runner_logger = protocol_log(self.hub)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, logger=self._runner_logger)
        await self._runner.setup()
        site = Site(self._runner, self.bind, self.port, self.hub, self._runner_logger)
        await site.start()
        addresses = self._runner.addresses
        if not addresses:  # asyncio skips every address family it may not use, and listens on none
            await self._runner.cleanup()
            raise OSError(errno.EAFNOSUPPORT, "no address family may be used")
        if self.port == 0:
            self.port = addresses[0][1]

    async def _shutdown(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()  # on_shutdown closes every page's socket first

    def close(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
