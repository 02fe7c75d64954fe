"""The evening around the games: the next game from the end of one, giving a game up, and which game goes on at start.

Each is a question on top of the screen underneath (an overlay). Giving a game up cannot happen by a stray press: it
takes paging past the board check's last page (or right on the start-up question), then a *held* back on a page
that says what will happen; any other key goes back to the game. A game given up stays in the archive marked abandoned
(``doge-companion games``; ``export`` still writes it).
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

from display.screen import Line, Screen
from hardware.events import InputEvent

from ...i18n import _
from ..board_text import player_name
from ..game import Game
from ..paging import Parts
from .base import Mode

if TYPE_CHECKING:
    from ..controller import Controller


def seats_text(ctx: Controller) -> str:
    """ "Red, Blue, Green (computer)": who sits at the table, computer seats named as such."""
    seats = ctx.seats
    names = []
    for pad, colour in seats.joined:
        name = player_name(colour)
        names.append(_("{name} (computer)").format(name=name) if seats.is_bot(pad) else name)
    return ", ".join(names)


def let_players_in(ctx: Controller, event: InputEvent | object) -> None:
    """A player's key while the start-up question shows: the game in progress goes on, and the key counts."""
    if ctx.overlays and type(ctx.overlays[-1]) is ResumeOffer and getattr(event, "source", "host") != "host":
        ctx.overlays.pop()


def next_game(ctx: Controller) -> None:
    """The evening goes on: a new game at setup, the same table (seats, colours, computer players, ballot entry,
    language) offered as it was, all of it changeable there."""
    ctx.game = Game(ctx.game.saver, ctx.rng, ctx.game.clock)
    ctx.bots = {}
    ctx.notices = []
    ctx.overlays = []
    ctx.keypad = {}
    ctx.private = None
    ctx.menus = []
    ctx.menus_for = None
    size, text_size, ctx.parts = ctx.parts.size, ctx.parts.text_size, Parts()
    ctx.parts.size, ctx.parts.text_size = size, text_size  # the same display
    ctx._saved_screen = None  # the new game saves its own screen


def abandon(ctx: Controller) -> None:
    """The host gives an unfinished game up: it stays in the archive marked abandoned; a new game is set up."""
    try:
        ctx.game.saver.abandon()
    except Exception as error:  # the store says why
        ctx._not_saved(error)
        return
    next_game(ctx)


class NextGame(Mode):
    """At the end: ok sets up the next game (the same table offered, all of it changeable); other keys stay."""

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.source != "host":
            return self
        if event.key == "ok":
            next_game(ctx)
            return self  # the overlays are gone with the finished game
        return None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("new game")), ("any", _("stay")))

    def view(self, ctx: Controller) -> Screen:
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


class AbandonConfirm(Mode):
    """Giving up an unfinished game: only a held back does it."""

    holds_back = True

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.source != "host":
            return self
        if event.kind == "hold" and event.key == "back":
            abandon(ctx)
            return self  # the overlays are gone with the game
        del ctx.overlays[:-1]  # back to the game itself (not the board check or start-up question it came from)
        return None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("hold:back", _("abandon the game")), ("any", _("keep playing")))

    def view(self, ctx: Controller) -> Screen:
        return abandon_view(ctx)


def abandon_view(ctx: Controller) -> Screen:
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

    def __init__(self, game: int, started: str, year: int, zone: tzinfo | None = None) -> None:
        self.game, self.started, self.year, self.zone = game, started, year, zone

    def handle(self, ctx: Controller, event: InputEvent, seat: int | None) -> Mode | None:
        if event.source != "host":
            return self
        if event.key == "right":
            return AbandonConfirm()
        return None

    def keys(self, ctx: Controller) -> tuple[tuple[str, str], ...]:
        return (("ok", _("go on")), ("right", _("a new game instead")))

    def view(self, ctx: Controller) -> Screen:
        when = clock_time(self.started, self.zone)
        return Screen(
            _("Game in progress"),
            (
                Line(_("Game {n}, started {when}").format(n=self.game, when=when), "normal"),
                Line(_("Year {year}: {seats}").format(year=self.year, seats=seats_text(ctx)), "normal"),
            ),
            footer=_("ok: go on   right: a new game"),
            tags=("resume",),
        )


def clock_time(stamp: str, zone: tzinfo | None = None) -> str:
    """A stored UTC stamp (record-format.md's "t" form) as the table's clocks show it: in ``zone``, by default the
    device's own time zone (a Pi set up for its room). Issue 23's read-through: "(UTC)" made the table work out when
    they had started; only a device still on UTC says so."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp.replace("T", " ")[:16]
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(zone)
    # A device whose time zone was never set keeps UTC: then say so, as nobody's wall clock may show it.
    return local.strftime("%Y-%m-%d %H:%M UTC" if local.tzname() == "UTC" else "%Y-%m-%d %H:%M")
