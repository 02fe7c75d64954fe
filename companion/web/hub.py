"""The web pads' shared state on the server's side: which phones it lets in (by the digest of their seat token), the
frames each page is to get, the limits every client is held to, and the lines said once a second. It lives on the
server's event loop (server.py); the game thread reaches it only through ``call_soon_threadsafe``.

The server knows phones, never seats: which phone holds which seat is the game thread's (``seating.py``), stored with
the game. A phone is known here by the SHA-256 of its token, so no token is kept in memory past the request that
brought it, and a phone that held a seat before a restart is let in again by the digest the store kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import struct
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from aiohttp import WSCloseCode, web

from hardware.events import EventQueue, is_key

from .publisher import Frames, SeatRequest, WebDevices, WebHello, WebPress

try:
    import fcntl
    import termios

    _OUTQ: int | None = termios.TIOCOUTQ
except (ImportError, AttributeError):  # not a POSIX system with it: asyncio's own buffer only
    _OUTQ = None

log = logging.getLogger("companion.web.server")  # the name its refusal lines have always had

COOKIE = "doge_seat"
DEVICE = re.compile(r"[A-Za-z0-9_-]{8,32}")  # the page's own id for its browser (localStorage): not a secret


def digest(token: str) -> str:
    """How a phone is known: a token is 256 random bits, so a plain SHA-256 of it cannot be turned back."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Limits:
    message_bytes: int = 512  # a press is ~60 bytes
    per_client: int = 6  # open sockets from one address, a seat's phone not counted (a phone and a tablet behind NAT)
    total: int = 48  # table views and phones without a seat, in all (a seat's phone always has its own room)
    tables: int = 8  # table views in all, so that they cannot crowd out phones
    per_phone: int = 3  # pages open on one seat token: a fourth (a reload, a phone waking) replaces its oldest
    messages_per_second: float = 20.0
    burst: int = 40
    send_queue: int = 32  # frames waiting for one client (a newer view replaces an unsent one); dropped past this
    send_timeout_s: float = 10.0
    write_buffer: int = 256 * 1024  # bytes sent but not taken by a client (its kernel send queue included)
    heartbeat_s: float = 15.0  # pings notice a phone that went to sleep
    tokens: int = 64  # seat tokens alive at once: past it the oldest unused one is reclaimed
    tokens_per_client: int = 8  # seat tokens alive per address: past it that address's oldest unused one goes
    greeted: int = 1024  # pages connected in this run (the game thread keeps each): past it, reclaim only the others
    devices: int = 4  # browsers remembered per seat token (a copied cookie is told from a reload by these)
    header_timeout_s: float = 10.0  # a connection sends its request's headers within this, or is closed
    request_timeout_s: float = 30.0  # a connection that is not a WebSocket is done within this, or is closed
    waiting: int = 64  # connections that are not (yet) WebSockets, in all: past it the oldest is closed
    waiting_per_client: int = 16  # the same per address: past it that address's oldest is closed
    backlog: int = 128  # connections the kernel queues for the server; asyncio accepts as many at once
    seats: int = 4  # the most seats a game has (rules.md 1), for the file limit (the unit's LimitNOFILE)

    def descriptors(self) -> int:
        """The most sockets the server holds at once (what LimitNOFILE must leave room for), listening ones aside:
        a burst of accepted connections is held a moment before the caps close the oldest."""
        return self.total + self.seats * self.per_phone + self.waiting + self.backlog


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
    opened: float = field(default_factory=time.monotonic)


def clip(text: str, most: int) -> str:
    """At most ``most`` characters of a text that reaches the log."""
    return text if len(text) <= most else text[: most - 3] + "..."


def unsent(transport: asyncio.BaseTransport | None) -> int:
    """Bytes written to a client and not yet taken by it: asyncio's buffer and the kernel's send queue, which Linux
    grows to megabytes for a reader that stalls (SIOCOUTQ, where the system has it)."""
    if not isinstance(transport, asyncio.WriteTransport):
        return 0
    size = transport.get_write_buffer_size()
    sock = transport.get_extra_info("socket")
    if sock is not None and _OUTQ is not None:
        with contextlib.suppress(OSError, ValueError):  # a socket closed meanwhile
            size += struct.unpack("i", fcntl.ioctl(sock.fileno(), _OUTQ, b"\0\0\0\0"))[0]
    return size


def _age(client: Client) -> float:
    return client.opened


async def _close(ws: web.WebSocketResponse, code: int) -> None:
    with contextlib.suppress(Exception):  # a socket already gone has nothing more to be told
        await ws.close(code=code)


class Said:
    """One log line per reason, but at most one a second per reason, with the count of those held back."""

    def __init__(self, template: str) -> None:
        self.template = template  # filled with the address, then the reason
        self._last: dict[str, float] = {}
        self._held: dict[str, tuple[int, str]] = {}  # reason -> (lines held back, the last one's address)
        self.count = 0

    def __call__(self, reason: str, address: str) -> None:
        """``reason`` is one of ours (a kind); both are clipped, so that no guest can make a line long."""
        reason, address = clip(reason, 100), clip(address, 48)
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
        self.seated: set[str] = set(known)  # the phones whose view has a seat (the store's, then each frame's)
        self.given: dict[str, str] = {}  # each live token of this run -> its address, oldest first
        self.greeted: set[str] = set()  # the phones whose page connected in this run
        self.waiting: dict[object, str] = {}  # connections not (yet) a WebSocket -> their address, oldest first
        self.devices: dict[str, list[str]] = {}  # each phone's browsers, first seen first
        self.reported: dict[str, tuple[int, int]] = {}  # the devices the game thread was last told of
        self.clients: set[Client] = set()
        self.frames: dict[str, str] = {}
        self.public = "null"
        self.refuse = Said("web pads: refused %s: %s")
        self.note = Said("web pads: from %s, %s")
        self.loop: asyncio.AbstractEventLoop | None = None
        self._closing: set[asyncio.Future[None]] = set()

    # ------------------------------------------------------------------ from the game thread (via the loop)

    def deliver(self, frames: Frames) -> None:
        if frames.public is not None:
            self.public = frames.public
        self.frames.update(frames.phones)
        for phone, text in frames.phones.items():
            if json.loads(text).get("mine") is None:
                self.seated.discard(phone)
            else:
                self.seated.add(phone)
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
        if len(client.pending) >= self.limits.send_queue or unsent(client.transport) > self.limits.write_buffer:
            self.refuse("it does not read what it is sent", client.address)
            self.drop(client)
            return
        client.pending.append(frame)
        client.wake.set()

    def drop(self, client: Client, code: int = 1008) -> None:
        """Close a client's socket now; its transport is aborted, so bytes it never took do not hold the socket."""
        self.leave(client)
        if isinstance(client.transport, asyncio.WriteTransport) and code == 1008:
            client.transport.abort()
        closing = asyncio.ensure_future(_close(client.ws, code))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    # ------------------------------------------------------------------ joining, connecting, leaving

    def join(self, offered: str, token: str | None, address: str) -> tuple[str | None, str]:
        """A phone opened the join link: its token (the one it had, or a new one), or None and why not.

        Tokens are bounded without shutting anyone out: past the limits, the oldest token of that address (else of
        any) that holds no seat and has no page open is reclaimed, so a player whose phone lost its cookie can
        always join again and ask for a seat."""
        if token is not None and digest(token) in self.phones:
            return token, ""
        if not hmac.compare_digest(offered.encode(), self.secret.encode()):
            return None, "a join with a wrong or old link"
        limits = self.limits
        mine = [phone for phone, at in self.given.items() if at == address]
        if len(mine) >= limits.tokens_per_client and not self._reclaim(mine):
            return None, "a join: this address's phones all have a seat or a page open"
        if len(self.given) >= limits.tokens and not self._reclaim(list(self.given)):
            return None, "a join: every phone has a seat or a page open"
        token = secrets.token_urlsafe(32)  # 256 bits
        self.phones.add(digest(token))
        self.given[digest(token)] = address
        return token, ""

    def _reclaim(self, oldest_first: list[str]) -> bool:
        """Forget the first of these tokens that holds no seat and has no page open (and, once too many pages have
        connected in this run, that never connected: the game thread keeps each that did)."""
        open_now = {client.phone for client in self.clients}
        for phone in oldest_first:
            if phone in self.seated or phone in open_now:
                continue
            if phone in self.greeted and len(self.greeted) >= self.limits.greeted:
                continue
            self.phones.discard(phone)
            del self.given[phone]
            for kept in (self.frames, self.devices, self.reported):
                kept.pop(phone, None)
            return True
        return False

    def admit(self, phone: str | None, address: str) -> str | None:
        """Room for a new socket (a table view if ``phone`` is None): None, or why it is refused. A seat's phone is
        always let in, its own oldest page closed past ``per_phone``; the others share ``total`` (table views no
        more than ``tables`` of it) and ``per_client`` per address, and when they are full, a newcomer from an
        address that holds fewer closes the oldest socket of the address that holds the most."""
        limits = self.limits
        own = sorted((client for client in self.clients if phone is not None and client.phone == phone), key=_age)
        replaced = own[: max(0, len(own) - limits.per_phone + 1)]
        if phone is None or phone not in self.seated:
            others = (c for c in self.clients if (c.phone is None or c.phone not in self.seated) and c not in replaced)
            crowd = sorted(others, key=_age)
            if sum(1 for client in crowd if client.address == address) >= limits.per_client:
                return "too many connections from one address"
            if phone is None:
                tables = [client for client in crowd if client.phone is None]
                if len(tables) >= limits.tables and not self._make_room(tables, address):
                    return "too many table views"
            if len(crowd) >= limits.total and not self._make_room(crowd, address):
                return "too many connections in all"
        for client in replaced:
            self.drop(client, code=WSCloseCode.GOING_AWAY)
        return None

    def _make_room(self, crowd: list[Client], address: str) -> bool:
        held: dict[str, list[Client]] = {}
        for client in crowd:
            held.setdefault(client.address, []).append(client)
        most = max(held.values(), key=len)
        if len(most) <= len(held.get(address, ())) + 1:
            return False
        self.refuse("its oldest socket closed for another address's", most[0].address)
        self.drop(most[0], code=WSCloseCode.GOING_AWAY)
        return True

    def phone_of(self, token: str | None) -> str | None:
        """The phone a seat token belongs to, if it is one this server lets in."""
        if token is None:
            return None
        known = digest(token)
        return known if known in self.phones else None

    def hello(self, client: Client) -> None:
        """A phone's page connected: it gets the latest frame at once; the game thread seats it or sends its view."""
        assert client.phone is not None
        self.greeted.add(client.phone)
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
