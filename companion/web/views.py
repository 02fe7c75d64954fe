"""What each web page is sent, built on the game thread from the engine's public queries and one seat's private view.

This is the one place where a phone's bytes are decided (STYLE.md: filter per player where bytes leave, as
boardgame.io's ``playerView``): :func:`public_view` holds nothing a twin with other secrets would show differently
(the snapshot, record-format.md 2, and the notices everyone reads on the LCD), and :func:`seat_view` adds only what
``private_view(state, seat)`` and that seat's own keyed ballot say. The table view is the public view alone (a
spectator is a client with no seat). The LCD's own screen is never forwarded: with ballots one at a time it shows a
player's private menu (rules.md 11). What the table has been shown is ``Seen.board`` (flow/shown.py) (rules.md
11.4.1): everything public here comes from it, and the game's end only once it says the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from display.marks import SYMBOLS, mark_of
from display.screen import Line

from ..engine import AREAS, private_view
from ..engine.areas import AREA_NAMES
from ..flow.board_text import player_name
from ..flow.cues import awaited_seats
from ..flow.ending import ending_pages
from ..flow.modes import DECISION
from ..flow.modes.notices import waited_as
from ..flow.seats import Seat, Source
from ..i18n import language

if TYPE_CHECKING:
    from ..flow.context import Context


def public_view(ctx: Context) -> dict[str, Any]:
    """Public facts only: the seats, the snapshot, and the notice on top (the board instructions read aloud)."""
    seats = ctx.seats
    state = ctx.state
    notices = ctx.between.notices
    notice = notices[0] if notices else None
    shown = ctx.seen.board if state is not None else None  # a reveal still to come is not in it
    return {
        "stage": ctx.stage,
        "language": language(),
        "entry": seats.entry,
        "seats": [
            {
                "colour": colour,
                "name": player_name(colour),
                "mark": SYMBOLS[mark_of(colour, index)],  # the player's shape, as on the LCD (display/marks.py)
                "kind": _kind(ctx, source),
            }
            for index, (source, colour) in enumerate(seats.joined)
        ],
        "areas": {area: AREA_NAMES[i] for i, area in enumerate(AREAS)},
        "snapshot": shown,
        "locked": [state.locked_in(p) for p in range(state.player_count)] if state is not None else [],
        "notice": None
        if notice is None
        else {"title": notice.title, "lines": [line.text for line in notice.lines], "rule": notice.rule},
        "ending": ending_view(ctx, shown),
    }


def ending_view(ctx: Context, shown: dict[str, Any] | None) -> dict[str, Any] | None:
    """The game's end as the device's game-over pages say it (flow/ending.py, in the device's words): the winners,
    the tie-break and each victory condition met, the standings, and the palace chart's series with its legend.
    None until the device shows the end: the game over (its last notices read) and the table shown the state that
    ended it (``shown``, ``Seen.board``), so no winner is told while the last decision may be taken back."""
    state = ctx.state
    if state is None or shown is None or ctx.stage != "over" or shown["phase"] != "over":
        return None
    final, standings, chart = ending_pages(state, ctx.palaces_by_year)
    return {
        "title": final.title,
        "rule": final.rule,
        "result": [_line(line) for line in final.lines],
        "standings": {"title": standings.title, "lines": [_line(line) for line in standings.lines]},
        "chart": {
            "title": chart.title,
            "series": [
                {"colour": colour, "name": name, "mark": mark_of(colour, index), "palaces": list(palaces)}
                for index, ((colour, palaces), name) in enumerate(zip(chart.chart or (), chart.legend, strict=True))
            ],
        },
    }


def _line(line: Line) -> dict[str, Any]:
    return {"text": line.text, "size": line.size, "colour": line.colour}


def _kind(ctx: Context, source: str) -> str:
    if ctx.seats.is_bot(Source(source)):
        return "computer"
    return "phone" if source.startswith("phone") else "pad"


def seat_view(ctx: Context, source: str, hide_pending: bool = False) -> dict[str, Any] | None:
    """What the phone of ``source`` alone may see: its own held markers, its own unrevealed ballot or the ballot it
    is keying, the areas it may still choose, and its own decision's menu (the LCD menu's very options).
    ``hide_pending``: the seat's locked-in ballot was made on another phone (a takeover): only that it is locked in."""
    seat = ctx.seats.seat_of(Source(source))
    if seat is None:
        return None
    colour = ctx.seats.joined[seat][1]
    mine: dict[str, Any] = {"colour": colour, "name": player_name(colour), "seat": seat}
    state = ctx.state
    if state is None or ctx.stage != "game":
        return mine
    private = private_view(state, seat)
    keyed = ctx.between.keying.keypad.get(seat)
    mine.update(
        markers=list(private.markers),
        used=[AREAS[a] for a in private.used_areas],
        locked=state.locked_in(seat),
        pending=None
        if private.pending is None or hide_pending
        else {"area": AREAS[private.pending.area], "markers": list(private.pending.markers)},
        keyed=None
        if keyed is None
        else {"area": None if keyed.area is None else AREAS[keyed.area], "markers": list(keyed.markers)},
        act=seat in awaited_seats(ctx),
        done=_done(ctx, seat),
        menu=_menu(ctx, seat),
    )
    return mine


def _done(ctx: Context, seat: int) -> str | None:
    """What the seat's ok says "done" to: the notice on top waits for its own pieces (its colour) or for a computer's
    (``narration.ANYONE``: anyone's ok), whatever the seat has keyed (a keyed ballot is locked in as well,
    tests/web/test_pad_done.py); None when its ok means something else (the device's footer says the same)."""
    if not ctx.between.notices or seat in ctx.bots:
        return None
    return waited_as(ctx, Seat(seat))


def _menu(ctx: Context, seat: int) -> dict[str, Any] | None:
    state = ctx.state
    if state is None or ctx.between.notices or ctx.between.overlays or ctx.mode() is not DECISION:
        return None
    awaited = state.awaiting()
    if not awaited or awaited[0].player != seat:
        return None
    menus = ctx.between.keying.menus
    menu = menus[-1]
    return {
        "title": menu.title,
        "options": [option.label for option in menu.options],
        "hints": [option.hint for option in menu.options],
        "cursor": menu.cursor,
        "rule": menu.rule,
        "depth": len(menus),
    }
