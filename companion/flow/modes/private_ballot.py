"""Ballots one at a time on the shared screen (rules.md 4.2): a gate asks everyone else to look away, then the
player picks an area and ticks markers on a menu only they are meant to see."""

from __future__ import annotations

from display.screen import Screen

from ...engine import ALL_AREAS, AREAS, Ballot, private_view, snapshot
from ...engine.areas import AREA_NAMES, QUARANTIA
from ...i18n import _, ngettext
from ..between import PrivateTurn
from ..context import Context
from ..menus import Menu, Option, navigate
from ..seats import Seat
from ..views import gate_view, private_ballot_view
from .game_mode import GameMode


def _area_hint(area: int) -> str:
    """rules.md 10.2: a district's winner places houses there; 10.3: the Quarantia's takes its advisors."""
    return _("The winner takes advisors") if area == QUARANTIA else _("The winner places houses")


def _marker_hint(value: int) -> str:
    """rules.md 6.1, 6.2: a marker's value is its votes, so the 0 is a bluff that counts nothing."""
    if value == 0:
        return _("No vote: a bluff")
    return ngettext("{n} vote at the count", "{n} votes at the count", value).format(n=value)


class PrivateBallotMode(GameMode):
    def pad(self, ctx: Context, seat: Seat, key: str) -> None:
        turn = ctx.between.keying.private
        if turn is None or turn.seat != seat:
            return
        if turn.stage == "gate":
            if key == "ok":
                self._open_areas(ctx, turn)
        elif turn.stage == "area":
            self._area_key(ctx, turn, key)
        else:
            self._marker_key(ctx, turn, key)

    @staticmethod
    def _open_areas(ctx: Context, turn: PrivateTurn) -> None:
        assert ctx.state is not None
        mine = private_view(ctx.state, turn.seat)
        turn.open_areas(
            Menu(
                _("Choose an area"),
                [
                    Option(AREA_NAMES[a], a, f"area:{AREAS[a]}", _area_hint(a))
                    for a in ALL_AREAS
                    if a not in mine.used_areas
                ],
                rule="4.2",
            )
        )

    @staticmethod
    def _area_key(ctx: Context, turn: PrivateTurn, key: str) -> None:
        assert ctx.state is not None and turn.area_menu is not None
        if key == "back":
            turn.to("gate")
            return
        picked = navigate(turn.area_menu, key)
        if picked is None:
            return
        mine = private_view(ctx.state, turn.seat)
        options = [Option(str(v), v, None, _marker_hint(v)) for v in mine.markers]
        options.append(Option(_("Done"), None, hint=_("Lay the ticked ones (1 to 4)")))  # rules.md 4.2
        title = _("Markers for {area}").format(area=AREA_NAMES[picked.value])
        turn.open_markers(picked.value, Menu(title, options, rule="4.2"))

    @staticmethod
    def _marker_key(ctx: Context, turn: PrivateTurn, key: str) -> None:
        menu = turn.marker_menu
        assert menu is not None
        if key == "back":
            turn.to("area")
        elif key.startswith("marker:"):  # a keypad in private mode: the marker key ticks one more of that value
            if not menu.tick_value(int(key[7:]), most=4):  # none left: refused on its own LED, as keypad_ballot.py
                ctx.effect("led", ctx.seats.source_of(turn.seat), key, "blink")
        elif key in ("left", "right"):
            menu.move(1 if key == "right" else -1)
        elif key == "ok" and menu.current.value is not None:
            menu.tick_cursor(most=4)
        elif key == "ok":
            if not 1 <= len(menu.chosen) <= 4:
                ctx.effect("beep", ctx.seats.source_of(turn.seat))
                return
            markers = tuple(sorted((menu.options[i].value for i in menu.chosen), reverse=True))
            assert turn.area is not None
            # once saved; not saved: the choice stays on the menu
            ctx.decide(turn.seat, Ballot(turn.area, markers), ctx.between.keying.ballot_cast)

    def view(self, ctx: Context) -> Screen:
        turn = ctx.between.keying.private
        assert turn is not None and ctx.state is not None
        colour = ctx.seats.colour_of(turn.seat)
        if turn.stage == "gate":
            return gate_view(snapshot(ctx.state), colour)
        menu = turn.area_menu if turn.stage == "area" else turn.marker_menu
        assert menu is not None
        return private_ballot_view(colour, turn.stage, menu)
