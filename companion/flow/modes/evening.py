"""The evening around the games: the next game from the end of one, giving a game up, and which game goes on at start.

Each is a question on top of the screen underneath (an overlay). Giving a game up cannot happen by a stray press: it
takes paging past the board check's last page (or right on the start-up question), then a *held* back on a page
that says what will happen; any other key goes back to the game. A game given up stays in the archive marked abandoned
(``doge-companion games``; ``export`` still writes it).
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from display.screen import Line, Screen
from hardware.events import InputEvent

from ... import RELEASED
from ...i18n import _
from ..board_text import display_name
from ..context import Binding, Context, Mode, close
from ..seats import Seat


def seats_text(ctx: Context) -> str:
    """ "Red, Blue, Green (computer)": who sits at the table, computer seats named as such."""
    seats = ctx.seats
    return ", ".join(display_name(colour, seats.computer_colours) for _source, colour in seats.joined)


class NextGame(Mode):
    """At the end: ok sets up the next game (the same table offered, all of it changeable); other keys stay."""

    paging = "question"

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        # ok: the overlays are gone with the finished game
        return (Binding("ok", self.stay(lambda ctx: ctx.next_game()), _("new game")), Binding("any", close, _("stay")))

    def view(self, ctx: Context) -> Screen:
        intro = (
            [Line(_("The introduction shows only how to set up the board; host right there shows the rest."), "small")]
            if ctx.intro_read
            else []
        )  # the table read it this evening (first_year.py)
        return Screen(
            _("Next game?"),
            (
                Line(_("A new game at this table: {seats}.").format(seats=seats_text(ctx)), "normal"),
                Line(_("Setup comes next: seats, computers, ballots and language can all be changed there."), "small"),
                *intro,
                Line(_("This game stays in the archive."), "small"),
            ),
            footer=_("host ok: new game"),
            tags=("next-game",),
        )


def back_to_game(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
    """Not to the board check or start-up question it came from."""
    ctx.between.back_to_game()
    return None


class AbandonConfirm(Mode):
    """Giving up an unfinished game: only a held back does it."""

    holds_back = True
    paging = "question"

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        return (
            Binding("hold:back", self.stay(lambda ctx: ctx.abandon()), _("abandon the game")),  # the overlays go too
            Binding("any", back_to_game, _("keep playing")),
        )

    def view(self, ctx: Context) -> Screen:
        return abandon_view(ctx)


def abandon_view(ctx: Context) -> Screen:
    """What giving the game up does, and the one way to do it."""
    return Screen(
        _("Abandon this game?"),
        (
            Line(_("It stops here and stays in the archive, marked abandoned."), "normal"),
            Line(_("Then a new game is set up at this table: {seats}.").format(seats=seats_text(ctx)), "small"),
            Line(_("Hold back to abandon it. Any other key: keep playing."), "small"),
        ),
        footer=_("hold back: abandon"),
        tags=("abandon",),
    )


class ResumeOffer(Mode):
    """At start, with a game in progress: which game goes on; right offers a new one instead (after the held back of
    :class:`AbandonConfirm`)."""

    paging = "question"

    def __init__(self, game: int, started: str, year: int, zone: tzinfo | None = None) -> None:
        self.game, self.started, self.year, self.zone = game, started, year, zone

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        return (
            Binding("ok", close, _("go on")),
            Binding("right", lambda ctx, event, seat: AbandonConfirm(), _("a new game instead")),
            Binding("any", close),
        )

    def view(self, ctx: Context) -> Screen:
        if known_time(self.started):
            started = _("Game {n}, started {when}").format(n=self.game, when=clock_time(self.started, self.zone))
        else:
            started = _("Game {n}, date unknown").format(n=self.game)
        return Screen(
            _("Game in progress"),
            (
                Line(started, "normal"),
                Line(_("Year {year}: {seats}").format(year=self.year, seats=seats_text(ctx)), "normal"),
            ),
            footer=_("ok: go on   right: a new game"),
            tags=("resume",),
        )


def known_time(stamp: str) -> bool:
    """False for a stamp before this version's release (``companion.RELEASED``): written by a Pi whose clock was
    not set yet, its date is a wrong one, not an old one. A stamp that is no date at all is left to show as it is."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return True
    return moment.date().isoformat() >= RELEASED


def clock_time(stamp: str, zone: tzinfo | None = None) -> str:
    """A stored UTC stamp (record-format.md's "t" form) as the table's clocks show it: in ``zone``, by default the
    device's own time zone (a Pi set up for its room): a table should not have to work out when it started from
    "(UTC)", so only a device still on UTC says so. A stamp the clock cannot have known is "date unknown"."""
    if not known_time(stamp):
        return _("date unknown")
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp.replace("T", " ")[:16]
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(zone)
    # A device whose time zone was never set keeps UTC: then say so, as nobody's wall clock may show it.
    return local.strftime("%Y-%m-%d %H:%M UTC" if local.tzname() == "UTC" else "%Y-%m-%d %H:%M")
