"""Phones as pads, as the App wires them (docs/web-pads.md): the web pads' server started beside the game, each
phone's events turned into a seat's keys, and a phone's request for a seat put to the host on the device.

Which phone holds which seat is stored with the game (``Store.new_game``, ``Store.give_seat``): after a restart a
phone with its cookie gets its own seat back and nothing else; any other phone gets a seat only from the host.
A seat a phone holds is that phone's alone: its keypad's keys are ignored and nothing of it lights or beeps anywhere
but on the phone (the device's buzzer and the table's keypads are heard and seen by everyone).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from display.screen import Screen
from hardware.events import InputEvent, SeatRequest, WebDevices, WebEvent, WebHello, WebPress

from ..flow.board_text import player_name
from ..flow.context import Additions, Context, Mode
from ..flow.controller import Controller, Effect
from ..flow.modes import ResumeOffer, SetupMode
from ..flow.seats import Seat, Source
from ..i18n import _
from ..store import StoreError
from ..web.join import copied_banner, fits, phones_view, with_join_code
from ..web.publisher import Frames, Publisher
from ..web.seating import PhoneSeats
from ..web.takeover import TakeoverConfirm

if TYPE_CHECKING:
    from ..web.server import WebPads

log = logging.getLogger(__package__)


class Host(Protocol):
    """What the phones need of the App: the game flow, the LCD, a pad's lights, and the store's record of who holds
    which seat."""

    @property
    def controller(self) -> Controller: ...

    def show(self, screen: Screen) -> None: ...

    def dark(self, source: Source) -> None:
        """Every light of ``source``'s pad off."""
        ...

    def give_seat(self, source: Source, phone: str, hidden: bool) -> None:
        """Store that ``phone`` holds ``source``'s seat, and whether the seat's locked-in ballot is hidden from it
        (raises ``StoreError`` if it cannot be stored)."""
        ...

    def unhide(self, source: Source) -> None:
        """Store that the ballot hidden from ``source``'s phone is gone (revealed or undone); raises StoreError."""
        ...


class Server(Protocol):
    """What the App needs of the server (``WebPads``; tests give an in-memory ``Hub``)."""

    @property
    def url(self) -> str: ...

    def send(self, frames: Frames) -> None: ...

    def tell(self, phone: str, text: str) -> None: ...


def start_web_pads(
    web: dict[str, Any], events: Any, known: Iterable[str] = (), address: str | None = None, looking: bool = False
) -> WebPads | None:
    """The web pads' server on its own thread; if it cannot start, one line says why and the device goes on.
    ``known``: the phones that hold a seat of the game going on (let in again without the join link). ``address``:
    the Pi's on the network it opened itself, which no route leaves from (the join link names it). ``looking``: the
    network unit still looks for Wi-Fi, so no address yet is no fault (first_boot.py's watch says it later)."""
    try:
        from ..web.server import WebPads
    except ImportError:
        log.error("web pads: aiohttp is not installed (pip install 'doge-companion[web]'); going on without phones")
        return None
    try:
        pads = WebPads(events, web["bind"], web["port"], known=known)
        problem = pads.start()
    except Exception as error:  # whatever the network does, the device plays on without phones
        problem = f"web pads: cannot start ({type(error).__name__}: {error}); the companion goes on without phones"
    if problem is not None:
        log.error("%s", problem)
        return None
    if address is not None and pads.unreachable:
        pads.address = address
    log.info("web pads: listening on port %d (the join code is on the setup screen; the table view: %s)", pads.port,
             pads.table_url)  # fmt: skip
    if pads.unreachable and not looking:
        log.warning(
            "web pads: this machine has no network but loopback, so phones cannot reach it (on a Pi: install "
            "systemd/web-pads.conf, docs/web-pads.md)"
        )
    return pads


def write_join_link(url: str, state_dir: Path) -> None:
    """Simulated hardware has no LCD to scan: the join link goes to a file only its user can read (in the service's
    runtime directory, else the state directory), for a phone, a test or a bug report to join by. Never on a Pi."""
    folder = Path(os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0] or state_dir)
    path = folder / "join-link"
    try:
        path.unlink(missing_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(url + "\n")
    except OSError as error:
        log.warning("web pads: cannot write the join link to %s (%s)", path, error.strerror)
        return
    log.info("web pads: simulated hardware: the join link is in %s", path)
    if sys.stderr.isatty():
        print(_("doge-companion: phones join at {url}").format(url=url), file=sys.stderr, flush=True)


class PhonePads(Additions):
    """The game thread's side of the phones: what each one may press, see and ask for, and what the device's screen
    says of them (the join code, a seat open on two devices, the board check's phones page)."""

    def __init__(
        self, app: Host, server: Server, held: dict[str, str] | None = None, hidden: Collection[str] = ()
    ) -> None:
        """``held``: each seat's phone (source -> phone) and ``hidden``: the seats whose locked-in ballot their phone
        may not see, both as the store kept them for the game going on."""
        super().__init__()
        self.app = app
        self.server = server
        self.seats = PhoneSeats(held, hidden)
        self.publisher = Publisher(server.send, self.seats)
        self.requests: list[SeatRequest] = []  # waiting for the host, first asked first
        self.pressed: str | None = None  # the phone whose press this step answers (it alone gets its view again)
        self.pages.append(self.phones_page)
        self.device = app.controller.additions.device  # what setup says of the device stays

    # ------------------------------------------------------------------ events

    def step(self, event: WebEvent) -> None:
        """A phone's event: a press, a page opened, a seat asked for, how many browsers hold a seat's page."""
        match event:
            case WebPress(phone, key):
                self.pressed = phone
                source = self._source(phone)
                if self.publisher.accept(event) and source is not None and self._may_press(source):
                    self.app.controller.handle(InputEvent(source, key))
            case WebHello(phone):
                self.publisher.connected.add(phone)
                self._sit(phone)
            case SeatRequest():
                self._ask(event)
            case WebDevices(phone, open_now, seen):
                self.seats.devices(phone, open_now, seen)

    def holds(self, source: str) -> bool:
        """Whether a phone holds ``source``'s seat (its pad's keys are not the seat's, its LEDs stay dark)."""
        return self.seats.holder(source) is not None

    def publish(self) -> None:
        """After every step: the takeover asked next, then each page's frame if it changed."""
        controller = self.app.controller
        for source in self.seats.settle(controller):
            try:
                self.app.unhide(Source(source))
            except StoreError as error:  # kept hidden after a restart: the phone's own ballot then shows as locked
                log.error("web pads: which ballot a phone may see was not saved: %s", error)
        if self.requests and not controller.between.overlays:
            self._put_to_host(self.requests.pop(0))
            self.app.show(controller.screen())
        self.publisher.publish(controller, self.pressed)
        self.pressed = None

    def cue(self, effect: Effect) -> None:
        """A key refused for a seat a phone holds (its LED blinking: a marker key with none of its value left,
        docs/pad-protocol.md "Keying a ballot") is told to that phone's pages alone, after the view its press brought
        (App.step sends effects after publishing), so the page shows the cue over the view that did not change. The
        LEDs that go on and off are in the phone's own view already; its beeps are its turn (the phone vibrates by
        itself) or keys the page does not offer (an area used, a lock-in with nothing keyed)."""
        phone = self.seats.holder(effect.source)
        if phone is not None and effect.kind == "led" and effect.state == "blink":
            self.server.tell(phone, json.dumps({"t": "cue", "key": effect.target}, separators=(",", ":")))

    def _may_press(self, source: str) -> bool:
        """At setup any phone sits down, changes colour or leaves; in a game only a seated phone's keys count (a
        seatless one's would close the start-up question, flow/modes/evening.py)."""
        controller = self.app.controller
        return controller.stage == "setup" or controller.seats.seat_of(Source(source)) is not None

    def _source(self, phone: str) -> str | None:
        """The pad source a phone's keys are: the seat it holds, or at setup one of its own (a new phone's)."""
        source = self.seats.source_of.get(phone)
        controller = self.app.controller
        if source is None and controller.stage == "setup":
            source = self.seats.new_source(phone, [source for source, _colour in controller.seats.joined])
        return source

    def _sit(self, phone: str) -> None:
        """A phone's first page at setup sits down like a keypad's ok (the next free colour); a reload does not."""
        controller = self.app.controller
        if controller.stage != "setup" or phone in self.seats.sat:
            return
        source = self._source(phone)
        assert source is not None
        self.seats.sat.add(phone)
        if len(controller.seats.joined) < 4 and controller.seats.seat_of(Source(source)) is None:
            controller.handle(InputEvent(source, "ok"))

    def held_seats(self) -> dict[str, str]:
        """Each seat a phone holds (source -> phone), stored with a new game."""
        joined = {source for source, _colour in self.app.controller.seats.joined}
        return {source: phone for phone, source in self.seats.source_of.items() if source in joined}

    # ------------------------------------------------------------------ a seat asked for

    def _ask(self, request: SeatRequest) -> None:
        controller = self.app.controller
        own = self.seats.source_of.get(request.phone)
        seat = None if own is None else controller.seats.seat_of(Source(own))
        if seat is not None:  # one phone, one seat: a phone with a seat cannot take another
            self._refuse(request.phone, "seated", colour=controller.seats.joined[seat][1])
            return
        if self._target(request.colour) is None:
            self._refuse(request.phone, "no-seat")
            return
        self.requests = [asked for asked in self.requests if asked.phone != request.phone] + [request]

    def _target(self, colour: str) -> Seat | None:
        """The seat a phone may ask for: a human player's, during a game."""
        controller = self.app.controller
        if controller.stage != "game":
            return None
        seats = controller.seats
        return next(
            (Seat(n) for n, (source, taken) in enumerate(seats.joined) if taken == colour and not seats.is_bot(source)),
            None,
        )

    def _refuse(self, phone: str, why: str, **more: str) -> None:
        """A seat request answered no, to the asking phone's pages alone."""
        self.server.tell(phone, json.dumps({"t": "refused", "why": why, **more}, separators=(",", ":")))

    def _put_to_host(self, request: SeatRequest) -> None:
        controller = self.app.controller
        seat = self._target(request.colour)
        if seat is None or request.phone not in self.publisher.connected:
            self._refuse(request.phone, "no-seat")
            return
        state = controller.state
        assert state is not None

        def answer(granted: bool) -> None:
            if granted:
                self._give(request.phone, request.colour)
            else:
                self._refuse(request.phone, "host")

        controller.open(
            TakeoverConfirm(request.colour, self.seats.lost.get(request.phone), state.locked_in(seat), answer)
        )

    def _give(self, phone: str, colour: str) -> None:
        """The host gave ``colour``'s seat to ``phone``: stored first (a restart keeps it), then it counts. A keyed
        ballot is cleared (its owner keys it again), a locked one shows only that it is locked in."""
        app, controller = self.app, self.app.controller
        seat = self._target(colour)
        if seat is None:
            self._refuse(phone, "no-seat")
            return
        source = controller.seats.source_of(seat)
        state = controller.state
        hidden = state is not None and state.locked_in(seat)  # another pad made it: the phone sees only that
        try:
            app.give_seat(source, phone, hidden)
        except StoreError as error:
            log.error("web pads: %s's seat was not given: %s", player_name(colour), error)
            self._refuse(phone, "not-saved")
            return
        controller.hand_over(seat)
        if hidden:
            self.seats.hidden.add(source)
        else:
            self.seats.hidden.discard(source)
        app.dark(source)  # a keypad on the table must not echo the phone's keys
        previous = self.seats.give(phone, source)
        self.seats.sat.add(phone)
        if previous is not None:
            self.seats.lost[previous] = colour
            self.server.tell(previous, '{"t":"revoked"}')
        log.info("web pads: %s's seat was given to another phone", player_name(colour))

    # ------------------------------------------------------------------ on the LCD

    def add(self, ctx: Context, top: Mode, screen: Screen) -> Screen:
        """The join code where phones join (setup) or come back (the start-up question after a restart); a line
        while a seat's page is open in two browsers at once."""
        if isinstance(top, SetupMode):  # phones join here: the code is shown once the network is known
            if not self.device.looking:
                screen = with_join_code(screen, self.server.url)
        elif isinstance(
            top, ResumeOffer
        ):  # phones come back by themselves; a new one may scan here or on the phones page
            coded = with_join_code(screen, self.server.url)
            size = ctx.parts.size
            screen = coded if size is None or fits(coded, size, ctx.parts.text_size) else screen
        shared = [self._colour(phone) for phone, count in self.seats.open.items() if count > 1]
        return copied_banner(screen, [colour for colour in shared if colour is not None])

    def _colour(self, phone: str) -> str | None:
        source = self.seats.source_of.get(phone)
        seats = self.app.controller.seats
        seat = None if source is None else seats.seat_of(Source(source))
        return None if seat is None else seats.joined[seat][1]

    def phones_page(self, ctx: Context) -> Screen:
        connected = {phone for phone, count in self.seats.open.items() if count}
        status: dict[str, str] = {}
        for source, colour in ctx.seats.joined:
            if not ctx.seats.is_bot(source):
                holder = self.seats.holder(source)
                status[colour] = "phone" if holder in connected else "away" if holder is not None else "pad"
        return phones_view(status, self.server.url)
