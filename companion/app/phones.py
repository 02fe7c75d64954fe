"""Phones as pads, as the App wires them: the web pads' server started beside the game, and a phone's request for a
seat put to the host on the device (docs/web-pads.md)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ..flow.controller import Controller

if TYPE_CHECKING:
    from ..web.publisher import Publisher
    from ..web.server import WebPads

log = logging.getLogger(__package__)


def start_web_pads(web: dict[str, Any], events: Any) -> WebPads | None:
    """The web pads' server on its own thread; if it cannot start, one line says why and the device goes on."""
    try:
        from ..web.server import WebPads
    except ImportError:
        log.error("web pads: aiohttp is not installed (pip install 'doge-companion[web]'); going on without phones")
        return None
    pads = WebPads(events, web["bind"], web["port"])
    try:
        problem = pads.start()
    except Exception as error:  # whatever the network does, the device plays on without phones
        problem = f"web pads: cannot start ({error}); the companion goes on without phones"
    if problem is not None:
        log.error("%s", problem)
        return None
    log.info("web pads: listening on port %d (the join link and its QR code are on the setup screen)", pads.port)
    if pads.unreachable:
        log.warning(
            "web pads: this machine has no network but loopback, so phones cannot reach it (on a Pi: install "
            "systemd/web-pads.conf, docs/web-pads.md)"
        )
    return pads


def ask_host_for_seat(
    controller: Controller, web: WebPads | None, publisher: Publisher | None, request: int, colour: str
) -> None:
    """A phone asks for a seat: the host confirms on the device (companion/web/takeover.py)."""
    from ..web.takeover import TakeoverConfirm

    seats = controller.seats
    pad = next((pad for pad, taken in seats.joined if taken == colour and not seats.is_bot(pad)), None)
    if web is None or publisher is None or pad is None or controller.overlays:
        if web is not None:
            web.answer(request, None)
        return

    def answer(granted: bool) -> None:
        if granted:
            publisher.phones.add(pad)
        web.answer(request, pad if granted else None)

    controller.overlays.append(TakeoverConfirm(colour, answer))
