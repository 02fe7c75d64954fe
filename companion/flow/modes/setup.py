"""Setup (rules.md 2.3): pads join and pick colours; the host adds computer players, picks the ballot entry and the
language, and starts."""

from __future__ import annotations

from dataclasses import replace

from display.screen import Line, Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Binding, Context, DeviceNotes, Mode
from ..seats import Seat, Source
from ..views import setup_view


def start(ctx: Context) -> None:
    if ctx.seats.ready:
        ctx.start()


class SetupMode(Mode):
    # The host's ok starts the game: in parts (with the phones' join code at 160x128: test_setup_parts.py), each is
    # seen before the start.
    paging = "setup"

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        """ok shows a part not up yet before it starts the game (the parts turn by themselves too: a host who waits
        for them starts with one press); while the table is not ready, from the last back to the first."""
        seats = ctx.seats
        full = len(seats.joined) >= 4
        ok = _("start") if seats.ready else None
        bots = None if full and not seats.bot_levels else _("no computers") if full else _("add a computer")
        return (
            Binding("ok", self.stay(start), ok, turn="unseen" if seats.ready else "cycle"),
            Binding("left", self.stay(lambda ctx: ctx.seats.next_language()), _("language")),
            Binding("right", self.stay(lambda ctx: ctx.seats.next_entry()), _("ballot entry")),
            Binding("back", self.stay(lambda ctx: ctx.seats.add_or_clear_bots()), bots),
            Binding("any", self._pad, by="pads"),
        )

    def _pad(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        ctx.seats.pad_key(Source(event.source), event.key)
        return self

    def view(self, ctx: Context) -> Screen:
        return with_device_notes(setup_view(ctx.seats), ctx.additions.device)


def with_device_notes(screen: Screen, notes: DeviceNotes) -> Screen:
    """Setup with what the device says of itself: a card file left out, in one red line at the top, and below it
    what the hardware check found missing (a Zero 2 W's Wi-Fi chip with no firmware in Debian); while the network
    is not known yet, that it is looked for (the phones' join code waits for it, app/phones.py); the Wi-Fi
    network the Pi opened, as a part before setup's own (its QR code, then the join code: a phone joins the Pi's
    network, then the game). The parts turn by themselves, so a table that waits sees both."""
    if notes.looking:
        screen = replace(screen, lines=(Line(_("Looking for Wi-Fi ..."), "small"), *screen.lines))
    if notes.hardware:
        screen = replace(screen, lines=(*(Line(line, "small", "red") for line in notes.hardware), *screen.lines))
    if notes.card_problem:
        screen = replace(screen, lines=(Line(notes.card_problem, "small", "red"), *screen.lines))
    if notes.wifi_name and notes.wifi_qr:
        lines = (
            Line(_("Join the Wi-Fi {name}").format(name=notes.wifi_name)),
            Line(_("Phones: scan this code, then the next one"), "small"),
        )
        wifi = Screen(_("Wi-Fi"), lines, footer=screen.footer, tags=("setup", "wifi"))
        screen = replace(screen, preface=replace(wifi, qr=notes.wifi_qr))
    return screen
