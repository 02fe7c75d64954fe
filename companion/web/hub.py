"""The web pads' shared state on the server's side: which phones it lets in (by the digest of their seat token), the
frames each page is to get, the limits every client is held to, and the lines said once a second. It lives on the
server's event loop (server.py); the game thread reaches it only through ``call_soon_threadsafe``.

The server knows phones, never seats: which phone holds which seat is the game thread's (``seating.py``), stored with
the game. A phone is known here by the SHA-256 of its token, so no token is kept in memory past the request that
brought it, and a phone that held a seat before a restart is let in again by the digest the store kept.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from aiohttp import web

from hardware.events import EventQueue, is_key

from .publisher import Frames, SeatRequest, WebDevices, WebHello, WebPress

log = logging.getLogger("companion.web.server")  # the name its refusal lines have always had

COOKIE = "doge_seat"
DEVICE = re.compile(r"[A-Za-z0-9_-]{8,32}")  # the page's own id for its browser (localStorage): not a secret


def digest(token: str) -> str:
    """How a phone is known: a token is 256 random bits, so a plain SHA-256 of it cannot be turned back."""
    return hashlib.sha256(token.encode()).hexdigest()


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
    devices: int = 4  # browsers remembered per seat token (a copied cookie is told from a reload by these)


@dataclass(frozen=True)
class Frame:
    text: str
    whole: bool  # everything the page shows (a view): one not yet sent is out of date when a newer one comes


@dataclass(eq=False)
class Client:
    ws: web.WebSocketResponse
    address: str
    phone: str | None  # the digest of its seat token; None: the table view
    device: str = ""
    transport: asyncio.BaseTransport | None = None
    pending: deque[Frame] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    allowance: float = 0.0
    checked: float = field(default_factory=time.monotonic)


class Said:
    """One log line per reason, but at most one a second per reason, with the count of those held back."""

    def __init__(self, template: str) -> None:
        self.template = template  # filled with the address, then the reason
        self._last: dict[str, float] = {}
        self._held: dict[str, tuple[int, str]] = {}  # reason -> (lines held back, the last one's address)
        self.count = 0

    def __call__(self, reason: str, address: str) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self._last.get(reason, -10.0) < 1.0:
            self._held[reason] = (self._held.get(reason, (0, ""))[0] + 1, address)
            return
        held, _address = self._held.pop(reason, (0, ""))
        self._last[reason] = now
        log.warning(self.template, address, reason + (f" (and {held} more like it)" if held else ""))

    def flush(self) -> None:
        """The lines still held back, counted (the server stops)."""
        for reason, (held, address) in sorted(self._held.items()):
            log.warning(self.template, address, f"{reason} (and {held - 1} more like it)" if held > 1 else reason)
        self._held.clear()


class Hub:
    """The server's state; lives on the server's event loop (``deliver`` and ``tell`` are called onto it)."""

    def __init__(
        self,
        events: EventQueue,
        limits: Limits | None = None,
        secret: str | None = None,
        known: Iterable[str] = (),
    ) -> None:
        """``known``: the phones that hold a seat of the game going on (digests, from the store)."""
        self.events = events
        self.limits = limits or Limits()
        self.secret = secret or secrets.token_urlsafe(16)  # 128 bits, made for this game night
        self.phones: set[str] = set(known)
        self.joined = 0  # tokens handed out in this run
        self.devices: dict[str, list[str]] = {}  # each phone's browsers, first seen first
        self.reported: dict[str, tuple[int, int]] = {}  # the devices the game thread was last told of
        self.clients: set[Client] = set()
        self.frames: dict[str, str] = {}
        self.public = "null"
        self.refuse = Said("web pads: refused %s: %s")
        self.note = Said("web pads: from %s, %s")
        self.loop: asyncio.AbstractEventLoop | None = None
        self._closing: set[asyncio.Future[bool]] = set()

    # ------------------------------------------------------------------ from the game thread (via the loop)

    def deliver(self, frames: Frames) -> None:
        if frames.public is not None:
            self.public = frames.public
        self.frames.update(frames.phones)
        for client in list(self.clients):
            if client.phone is None:
                if frames.public is not None:
                    self._push(client, Frame(f'{{"t":"table","public":{frames.public}}}', whole=True))
            elif client.phone in frames.phones:
                self._push(client, Frame(frames.phones[client.phone], whole=True))

    def tell(self, phone: str, text: str) -> None:
        """A message for one phone's pages alone (a refusal, the seat given to another phone)."""
        for client in list(self.clients):
            if client.phone == phone:
                self._push(client, Frame(text, whole=False))

    def _put(self, event: WebPress | WebHello | SeatRequest | WebDevices) -> None:
        """The web pads' own events go on the App's queue beside the hardware's (App.step tells them apart)."""
        self.events.put(event)

    def _push(self, client: Client, frame: Frame) -> None:
        if frame.whole:  # a whole view: one not yet sent is out of date, and goes
            kept = [waiting for waiting in client.pending if not waiting.whole]
            client.pending.clear()
            client.pending.extend(kept)
        transport = client.transport
        backlog = transport.get_write_buffer_size() if isinstance(transport, asyncio.WriteTransport) else 0
        if len(client.pending) >= self.limits.send_queue or backlog > self.limits.write_buffer:
            self.refuse("it does not read what it is sent", client.address)
            self.leave(client)
            closing = asyncio.ensure_future(client.ws.close(code=1008))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)
            return
        client.pending.append(frame)
        client.wake.set()

    # ------------------------------------------------------------------ joining, connecting, leaving

    def join(self, offered: str, token: str | None) -> str | None:
        """A phone opened the join link: its token (the one it had, or a new one), or None for a wrong secret."""
        if token is not None and digest(token) in self.phones:
            return token
        if not hmac.compare_digest(offered.encode(), self.secret.encode()):
            return None
        if self.joined >= self.limits.tokens:
            return None
        self.joined += 1
        token = secrets.token_urlsafe(32)  # 256 bits
        self.phones.add(digest(token))
        return token

    def phone_of(self, token: str | None) -> str | None:
        """The phone a seat token belongs to, if it is one this server lets in."""
        if token is None:
            return None
        known = digest(token)
        return known if known in self.phones else None

    def hello(self, client: Client) -> None:
        """A phone's page connected: it gets the latest frame at once; the game thread seats it or sends its view."""
        assert client.phone is not None
        if client.phone in self.frames:
            self._push(client, Frame(self.frames[client.phone], whole=True))
        self._put(WebHello(client.phone))
        seen = self.devices.setdefault(client.phone, [])
        if client.device not in seen:
            if seen:
                self.note("a seat's page was opened on another device too", client.address)
            seen.append(client.device)
            del seen[: -self.limits.devices]
        self._count_devices(client.phone)

    def leave(self, client: Client) -> None:
        if client in self.clients:
            self.clients.discard(client)
            if client.phone is not None:
                self._count_devices(client.phone)

    def _count_devices(self, phone: str) -> None:
        """The game thread hears when the browsers open on one seat token change (a copied cookie shows)."""
        open_now = len({client.device for client in self.clients if client.phone == phone})
        counts = (open_now, len(self.devices.get(phone, ())))
        if self.reported.get(phone) != counts:
            self.reported[phone] = counts
            self._put(WebDevices(phone, *counts))

    def message(self, client: Client, text: str) -> str | None:
        """One message from a phone; what is wrong with it, or None."""
        try:
            message = json.loads(text)
        except ValueError:
            return "a message that is not JSON"
        if not isinstance(message, dict):
            return "a message that is not an object"
        if client.phone is None:
            return "a message from the table view"
        kind = message.get("t")
        if kind == "press":
            key, view = message.get("key"), message.get("v")
            if not isinstance(key, str) or not is_key(key) or type(view) is not int or key == "power":
                return "a malformed press"
            self._put(WebPress(client.phone, key, view))
            return None
        if kind == "take":
            colour = message.get("colour")
            if not isinstance(colour, str) or len(colour) > 16:
                return "a malformed seat request"
            self._put(SeatRequest(client.phone, colour))
            return None
        return "an unknown message"
