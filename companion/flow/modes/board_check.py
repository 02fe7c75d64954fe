"""The board check: the host's back shows the board as the game has it, page by page, to compare with the table,
then where the race stands (how close each player is to each victory condition) and the year so far. Everything as
the table has been shown it (``shown.py``): a card or a count still to come is not on these pages yet. Left of the
map, the sound setting (flow/sound.py)."""

from __future__ import annotations

from typing import Literal

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Action, Binding, Context, Mode, close
from ..seats import HOST, Seat
from ..sound import sound_view
from ..views import board_view
from .evening import abandon_view
from .this_year import race_screen, year_screen

BoardPage = Literal["map", "districts", "advisors", "supplies", "race", "order", "year"]
VIEWS: tuple[BoardPage, ...] = ("map", "districts", "advisors", "supplies", "race", "order", "year")  # in page order
# The pages views.board_view draws, by its number for each; the race and the year so far are this_year.py's.
BOARD_VIEW = {"map": 0, "districts": 1, "advisors": 2, "supplies": 3, "order": 4}
PAGES = len(VIEWS)
END = PAGES  # then the pages the App adds (ctx.additions.pages), then, during a game, the way out of it
SOUND = -1  # left of the map: the voice's level, which ok changes


def turn_up(ctx: Context) -> None:
    """The voice one step louder (or off after the loudest): the App applies and keeps it."""
    ctx.effect("sound", HOST, state=str(ctx.seats.sound.turn_up()))


class BoardCheck(Mode):
    """The board pages; right from the last one (in a game) shows the way out of it: a held back there gives the game
    up (modes/evening.py). Left from the map is the sound page, and left from it wraps to the year so far, so the
    way out is never one stray key away."""

    def __init__(self, added: int = 0) -> None:
        """``added``: the pages the App adds after the board's own (``Additions.pages``)."""
        self.page = 0
        self.end = END + added

    @property
    def holds_back(self) -> bool:  # type: ignore[override]
        return self.page == self.end

    def bindings(self, ctx: Context) -> tuple[Binding, ...]:
        """A board page too long for the display: right and left turn its parts before the pages; the way out asks,
        so its ok shows the parts not yet seen. Right from the way out wraps round to the map."""
        previous = Binding("left", self._left, _("previous page"), turn="back")
        if self.page == self.end:
            abandon = self.stay(lambda ctx: ctx.abandon())  # the overlays are gone with the game
            return (
                Binding("hold:back", abandon, _("abandon the game")),
                Binding("hold:any", abandon),
                Binding("back", close, _("close")),
                previous,
                Binding("right", self._right, turn="next"),
                Binding("ok", close, turn="next"),
                Binding("any", close),
            )
        if self.page == SOUND:
            louder = ctx.seats.sound.adjustable
            return (
                Binding("ok", self.stay(turn_up) if louder else close, _("louder, then off") if louder else _("close")),
                Binding("left", self._to(PAGES - 1), _("previous page")),
                Binding("right", self._to(0), _("next page")),
                Binding("back", close, _("close")),
                Binding("any", close),
            )
        return (
            Binding("ok", close, _("close")),
            previous,
            Binding("right", self._right, _("next page"), turn="next"),
            Binding("back", close, _("close")),
            Binding("any", close),  # any other key of the host's closes it too (a script's area key)
        )

    def ok_reads_on(self, ctx: Context) -> bool:
        return self.page == self.end  # the way out asks: its ok shows the parts not yet seen

    def _right(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        way_out = ctx.stage == "game" and ctx.state is not None and not ctx.state.is_over
        self.page = (self.page + 1) % (self.end + way_out)
        return self

    def _left(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        self.page = SOUND if self.page == 0 else self.page - 1
        return self

    def _to(self, page: int) -> Action:
        def does(ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
            self.page = page
            return self

        return does

    def view(self, ctx: Context) -> Screen:
        if self.page == self.end:
            return abandon_view(ctx)
        if self.page == SOUND:
            return sound_view(ctx.seats.sound)
        if self.page >= PAGES:
            return ctx.additions.pages[self.page - PAGES](ctx)
        view = VIEWS[self.page]
        footer = _("left/right: page   back: close")
        if view == "race":
            return race_screen(ctx, footer)
        if view == "year":
            return year_screen(ctx, footer)
        return board_view(ctx.seen.board, BOARD_VIEW[view])
