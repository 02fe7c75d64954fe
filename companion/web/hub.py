"""The web pads' shared state: who holds which seat token, the frames each page is to get, the limits every
client is held to, and the refusals said once a second. It lives on the server's event loop (server.py); the game
thread reaches it only through ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

from hardware.events import EventQueue, InputEvent, is_key

from .publisher import Frames, SeatRequest, WebHello, WebPress

log = logging.getLogger("companion.web.server")  # the name its refusal lines have always had

COOKIE = "doge_seat"
WHOLE = ('{"t":"view"', '{"t":"table"')  # frames that carry everything a page shows


@dataclass(frozen=True)
class Limits:
    message_bytes: int = 512  # a press is ~60 bytes
    per_client: int = 6  # open sockets from one address (a phone and a tablet behind one NAT: raise it)
    total: int = 48
    messages_per_second: float = 20.0
    burst: int = 40
    send_queue: int = 32  # frames waiting for one client (a newer view replaces an unsent one); dropped past this
    send_timeout_s: float = 10.0
    write_buffer: int = 256 * 1024  # bytes written but not yet taken by a client: past this it is dropped
    heartbeat_s: float = 15.0  # pings notice a phone that went to sleep
    tokens: int = 64  # seat tokens handed out in one run (a flood of joins cannot grow memory)


@dataclass(eq=False)
class Phone:
    source: str
    seat_asked: bool = False  # joined its first seat already (setup): a reload does not press ok again


@dataclass(eq=False)
class Client:
    ws: web.WebSocketResponse
    address: str
    token: str | None  # None: the table view
    transport: asyncio.BaseTransport | None = None
    pending: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    allowance: float = 0.0
    checked: float = field(default_factory=time.monotonic)


class Refusals:
    """One log line per refusal, but at most one a second per reason, with the count of those held back."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self.count = 0

    def __call__(self, reason: str, address: str) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self._last.get(reason, -10.0) < 1.0:
            self._held[reason] = self._held.get(reason, 0) + 1
            return
        held = self._held.pop(reason, 0)
        self._last[reason] = now
        more = f" (and {held} more like it)" if held else ""
        log.warning("web pads: refused %s: %s%s", address, reason, more)


class Hub:
    """The server's state; lives on the server's event loop (``deliver`` and ``answer`` are called onto it)."""

    def __init__(self, events: EventQueue, limits: Limits | None = None, secret: str | None = None) -> None:
        self.events = events
        self.limits = limits or Limits()
        self.secret = secret or secrets.token_urlsafe(16)  # 128 bits, made for this game night
        self.phones: dict[str, Phone] = {}
        self.clients: set[Client] = set()
        self.frames: dict[str, str] = {}
        self.public = "null"
        self.stage = "setup"
        self.free = True
        self.seated: frozenset[str] = frozenset()
        self.requests: dict[int, str] = {}  # takeover requests waiting for the host: id -> token
        self.refuse = Refusals()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._numbers = 0
        self._closing: set[asyncio.Future[bool]] = set()

    # ------------------------------------------------------------------ from the game thread (via the loop)

    def deliver(self, frames: Frames) -> None:
        self.public = frames.public
        self.stage, self.free, self.seated = frames.stage, frames.free, frames.seated
        self.frames.update(frames.seats)
        for client in list(self.clients):
            if client.token is None:
                self._push(client, f'{{"t":"table","public":{frames.public}}}')
                continue
            phone = self.phones.get(client.token)
            if phone is None:
                continue
            if phone.source in frames.seats:
                self._push(client, frames.seats[phone.source])

    def answer(self, request: int, source: str | None) -> None:
        """The host's answer to a takeover: the asking phone gets the seat; every other phone on it loses it."""
        token = self.requests.pop(request, None)
        if token is None or token not in self.phones:
            return
        if source is None:
            self._tell(token, '{"t":"refused"}')
            return
        for other, phone in list(self.phones.items()):
            if phone.source == source and other != token:
                del self.phones[other]
                for client in [c for c in self.clients if c.token == other]:
                    self._push(client, '{"t":"revoked"}')
        self.phones[token].source = source
        self.phones[token].seat_asked = True
        self._put(WebHello(source))

    def _put(self, event: object) -> None:
        """The web pads' own events go on the App's queue beside the hardware's (App.step tells them apart)."""
        self.events.put(event)  # type: ignore[arg-type]

    def _tell(self, token: str, text: str) -> None:
        for client in self.clients:
            if client.token == token:
                self._push(client, text)

    def _push(self, client: Client, text: str) -> None:
        if text.startswith(WHOLE):  # a whole view: one not yet sent is out of date, and goes
            kept = [frame for frame in client.pending if not frame.startswith(WHOLE)]
            client.pending.clear()
            client.pending.extend(kept)
        transport = client.transport
        backlog = transport.get_write_buffer_size() if isinstance(transport, asyncio.WriteTransport) else 0
        if len(client.pending) >= self.limits.send_queue or backlog > self.limits.write_buffer:
            self.refuse("it does not read what it is sent", client.address)
            self.clients.discard(client)
            closing = asyncio.ensure_future(client.ws.close(code=1008))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)
            return
        client.pending.append(text)
        client.wake.set()

    # ------------------------------------------------------------------ joining

    def join(self, offered: str, token: str | None) -> str | None:
        """A phone opened the join link: its token (the one it had, or a new one), or None for a wrong secret."""
        if token is not None and token in self.phones:
            return token
        if not hmac.compare_digest(offered.encode(), self.secret.encode()):
            return None
        if len(self.phones) >= self.limits.tokens:
            return None
        self._numbers += 1
        token = secrets.token_urlsafe(32)  # 256 bits
        self.phones[token] = Phone(f"phone{self._numbers}")
        return token

    def hello(self, client: Client) -> None:
        """A phone's page connected: it gets the latest frame at once, and at setup it sits down (a keypad's ok)."""
        assert client.token is not None
        phone = self.phones[client.token]
        self._put(WebHello(phone.source))
        if phone.source in self.frames:
            self._push(client, self.frames[phone.source])
        if not phone.seat_asked and self.free and phone.source not in self.seated:
            phone.seat_asked = True
            self.events.put(InputEvent(phone.source, "ok"))

    def message(self, client: Client, text: str) -> str | None:
        """One message from a phone; what is wrong with it, or None."""
        try:
            message = json.loads(text)
        except ValueError:
            return "a message that is not JSON"
        if not isinstance(message, dict):
            return "a message that is not an object"
        phone = self.phones.get(client.token or "")
        if phone is None:
            return "a message from the table view or a revoked phone"
        kind = message.get("t")
        if kind == "press":
            key, view = message.get("key"), message.get("v")
            if not isinstance(key, str) or not is_key(key) or type(view) is not int or key == "power":
                return "a malformed press"
            self._put(WebPress(phone.source, key, view))
            return None
        if kind == "take":
            colour = message.get("colour")
            if not isinstance(colour, str) or len(colour) > 16:
                return "a malformed seat request"
            request = len(self.requests) + secrets.randbelow(1 << 30)
            self.requests[request] = client.token or ""
            self._put(SeatRequest(request, colour))
            return None
        return "an unknown message"


# ---------------------------------------------------------------------------------------------- the web application
