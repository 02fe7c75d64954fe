"""The board check: the host's back shows the board as the game has it, page by page, to compare with the table,
then where the race stands (how close each player is to each victory condition) and the year so far. Everything as
the table has been shown it (``shown.py``): a card or a count still to come is not on these pages yet. Left of the
map, the sound setting (flow/sound.py)."""

from __future__ import annotations

from typing import Literal

from display.screen import Screen
from hardware.events import InputEvent

from ...i18n import _
from ..context import Context, Mode
from ..paging import Turn
from ..seats import HOST, Seat
from ..shown import shown_snapshot
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

    def page_turn(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Turn | None:
        """A board page too long for the display: right and left turn its parts before the pages; the way out asks,
        so its ok shows the parts not yet seen."""
        if self.page == SOUND:
            return None
        if event.key == "ok":
            return "next" if self.page == self.end and event.source == "host" else None
        return "next" if event.key == "right" else "back" if event.key == "left" else None

    def ok_reads_on(self, ctx: Context) -> bool:
        return self.page == self.end  # the way out asks: its ok shows the parts not yet seen

    def handle(self, ctx: Context, event: InputEvent, seat: Seat | None) -> Mode | None:
        pages = self.end + (ctx.stage == "game" and ctx.state is not None and not ctx.state.is_over)
        if event.kind == "hold" and self.page == self.end:
            ctx.abandon()
            return self  # the overlays are gone with the game
        if self.page == SOUND:
            return self._sound(ctx, event.key)
        if event.key == "right":
            self.page = (self.page + 1) % pages
        elif event.key == "left":
            self.page = SOUND if self.page == 0 else self.page - 1
        else:
            return None
        return self

    def _sound(self, ctx: Context, key: str) -> Mode | None:
        if key == "ok" and ctx.seats.sound.adjustable:
            level = ctx.seats.sound.turn_up()
            ctx.effect("sound", HOST, state=str(level))  # the App applies and keeps it
        elif key in ("left", "right"):
            self.page = PAGES - 1 if key == "left" else 0
        else:
            return None  # back, or ok where there is nothing to turn up, closes as on every board page
        return self

    def keys(self, ctx: Context) -> tuple[tuple[str, str], ...]:
        if self.page == self.end:
            return (("hold:back", _("abandon the game")), ("back", _("close")), ("left", _("previous page")))
        if self.page == SOUND:
            ok = ("ok", _("louder, then off") if ctx.seats.sound.adjustable else _("close"))
            return (ok, ("left", _("previous page")), ("right", _("next page")), ("back", _("close")))
        return (("ok", _("close")), ("left", _("previous page")), ("right", _("next page")), ("back", _("close")))

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
        return board_view(shown_snapshot(ctx), BOARD_VIEW[view])
