"""Telling the table what just happened: the engine's board changes and counts, turned into notices.

The controller hands over what :meth:`State.apply_with_changes` reported for one record line; nothing here looks at
snapshots or works out a change itself, so every sentence on the board notices is exactly the one
:func:`.board_text.change_text` renders for a change (record-format.md 4), in the order the table does them.
Consecutive changes of one sort share a notice; a count (6.1 to 6.5) gets its own, where it happened.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from display.screen import Line

from ..engine import Count, Event, State
from ..engine.areas import AREA_NAMES, QUARANTIA
from ..engine.changes import MarkersBack, NewYear, PutMarkers, TurnCard
from ..i18n import N_, _, and_list, ngettext
from .board_text import change_owner, change_text, player_name

log = logging.getLogger(__name__)

CONDITION_NAMES = {
    "six_districts": N_("a palace in all 6 districts"),
    "seven_in_five": N_("7 palaces in 5 districts"),
    "eight_in_four": N_("8 palaces in 4 districts"),
}


@dataclass
class Notice:
    """Something everybody reads before play goes on (a count, what to do on the board); ok clears it."""

    title: str
    lines: list[Line]
    rule: str | None = None
    tag: str = "notice"
    page: tuple[int, int] | None = None  # (n, of): one page of several read in a row (the first year's reminder)


def _group(event: Event) -> str:
    if isinstance(event, Count):
        return "count"
    if type(event) is PutMarkers:
        return "reveal"
    if type(event) is TurnCard:
        return "cards"
    if type(event) in (MarkersBack, NewYear):
        return "year"
    return "board"


def narrate(events: Sequence[Event], state: State, revealed_round: int, computers: Sequence[str] = ()) -> list[Notice]:
    """The notices for one line's events; ``state`` is the state after the line (for the year's end). A computer
    player's pieces (``computers``: their colours) are moved by the people at the table: each board notice asks."""
    players = state.players
    notices: list[Notice] = []
    run: list[Event] = []

    def close() -> None:
        if not run:
            return
        kind = _group(run[0])
        lines = [Line(change_text(e, players), "normal", change_owner(e, players)) for e in run]  # type: ignore[arg-type]
        lines += computer_lines(computers, [line.colour for line in lines])
        if kind == "reveal":
            title = _("Round {n} revealed").format(n=revealed_round)
            notices.append(Notice(title, [Line(x.text, "small", x.colour) for x in lines], rule="4.3", tag="reveal"))
        elif kind == "cards":
            notices.append(Notice(_("Next year's order"), lines, rule="5.2"))
        elif kind == "board":
            notices.append(Notice(_("On the board"), lines, tag="instructions"))
        run.clear()

    for event in events:
        kind = _group(event)
        if run and _group(run[0]) != kind:
            close()
        if isinstance(event, Count):
            notices.append(count_notice(event, players))
        elif type(event) is MarkersBack:
            notices.append(year_end_notice(state, change_text(event, players)))
        elif type(event) is NewYear:
            notices.append(year_start_notice(state, [Line(change_text(event, players), "small")], "9.5"))
        else:
            run.append(event)
    close()
    return notices


def computer_lines(computers: Sequence[str], owners: Sequence[str | None]) -> list[Line]:
    """ "Green is a computer player: someone please move Green's pieces." for each computer a notice names."""
    return [
        Line(
            _("{name} is a computer player: someone please move {name}'s pieces.").format(name=player_name(c)), "small"
        )
        for c in computers
        if c in owners
    ]


def order_lines(names: Sequence[str]) -> list[Line]:
    """A voting order on two lines (the comma stays with the line it ends)."""
    return [Line(", ".join(names[:4]) + ",", "small"), Line(", ".join(names[4:]), "small")]


def year_start_notice(state: State, lines: list[Line], rule: str) -> Notice:
    return Notice(
        _("Year {year}").format(year=state.year),
        [
            *lines,
            Line(_("This year's voting order:"), "small"),
            *order_lines([AREA_NAMES[a] for a in state.this_order()]),
        ],
        rule=rule,
    )


def count_notice(count: Count, players: Sequence[str]) -> Notice:
    """rules.md 6.1 to 6.5: everyone's votes (markers and advisors), then the result."""
    area = count.area
    if count.winner is None and not count.first:
        return Notice(
            AREA_NAMES[area], [Line(_("Nobody has a vote here: nothing happens."), "normal")], rule="6.5", tag="empty"
        )
    lines = []
    for seat in sorted(range(len(players)), key=lambda s: -count.votes[s]):
        votes = count.votes[seat]
        if not votes and not count.markers[seat]:
            continue
        extra = count.advisor_votes[seat]
        detail = ""
        if extra and votes > extra:
            detail = ngettext(
                " ({markers} from markers + {advisors} advisor)",
                " ({markers} from markers + {advisors} advisors)",
                extra,
            ).format(markers=votes - extra, advisors=extra)
        elif extra:
            detail = ngettext(" (from {advisors} advisor)", " (from {advisors} advisors)", extra).format(advisors=extra)
        lines.append(
            Line(
                ngettext("{name}: {n} vote", "{name}: {n} votes", votes).format(
                    name=player_name(players[seat]), n=votes
                )
                + detail,
                "normal",
                players[seat],
            )
        )
    if count.winner is not None:
        result = _("{name} wins").format(name=player_name(players[count.winner]))
        if len(count.runners_up) == 1:
            result += _("; {name} is runner-up").format(name=player_name(players[count.runners_up[0]]))
        elif count.runners_up:
            names = and_list(player_name(players[s]) for s in count.runners_up)
            result += _("; {names} tie for second").format(names=names)
        rule = "6.4" if count.runners_up else "6.3"
    else:
        names = and_list(player_name(players[s]) for s in count.first)
        result = _("{names} tie for first").format(names=names)
        rule = "10.5" if area == QUARANTIA else "10.2.2"
    lines.append(Line(result, "large"))
    lines.append(Line(what_follows(count, players), "small"))
    return Notice(AREA_NAMES[area], lines, rule=rule, tag="count")


def what_follows(count: Count, players: Sequence[str]) -> str:
    """What the result means for the table next (rules.md 10.2 to 10.5), in one line."""
    name = player_name(players[count.winner]) if count.winner is not None else ""
    if count.area == QUARANTIA:
        if count.winner is None:
            return _("All Quarantia advisors go neutral; each tied player may move up to 2 houses.")
        if len(count.runners_up) == 1:
            return _("Quarantia advisors go neutral; {name} decides on two of them, {runner} on one.").format(
                name=name, runner=player_name(players[count.runners_up[0]])
            )
        if count.runners_up:
            return _(
                "Quarantia advisors go neutral; {name} decides on two; each tied runner-up may move a house."
            ).format(name=name)
        return _("Quarantia advisors go neutral; {name} decides on two of them.").format(name=name)
    if count.winner is None:
        return _("The advisor goes neutral; each tied player may place 2 houses here.")
    if len(count.runners_up) == 1:
        return _("{name} decides on the advisor and may place 2 houses; {runner} may place 1.").format(
            name=name, runner=player_name(players[count.runners_up[0]])
        )
    if count.runners_up:
        return _("{name} decides on the advisor and may place 2 houses; each tied runner-up may place 1.").format(
            name=name
        )
    return _("{name} decides on the advisor and may place 2 houses here.").format(name=name)


def year_end_notice(state: State, markers_back: str) -> Notice:
    """rules.md 9.1, 9.2: markers come back; where each player stands against the victory conditions."""
    lines = [Line(markers_back, "small")]
    for seat, player in enumerate(state.players):
        met = state.victory_conditions(seat)
        palaces = state.palaces_of(seat)
        districts = state.districts_of(seat)
        status = (
            ", ".join(_(CONDITION_NAMES[m]) for m in met)
            if met
            else ngettext("{n} palace", "{n} palaces", palaces).format(n=palaces)
            + ngettext(" in {d} district", " in {d} districts", districts).format(d=districts)
        )
        lines.append(Line(f"{player_name(player)}: {status}", "small", player))
    return Notice(_("Year {year} ends").format(year=state.year), lines, rule="9.2", tag="year")


def screen_state(notices: Sequence[Notice]) -> dict[str, Any]:
    """The notices still to read, as data the store keeps, so a resumed game shows them again (errors excepted)."""

    def lines(items: Sequence[Line]) -> list[list[Any]]:
        # a line kept with the one before (``with_previous``) says so in a fourth item; older saves have three
        return [[line.text, line.size, line.colour, *([True] if line.with_previous else [])] for line in items]

    kept = [
        {"title": n.title, "lines": lines(n.lines), "rule": n.rule, "tag": n.tag, "page": n.page}
        for n in notices
        if n.tag != "error"
    ]
    return {"notices": kept}


def restore_screen(screen: dict[str, Any]) -> list[Notice]:
    """The notices saved by :func:`screen_state` (an older version's "last_reveal", a keypad round's reveal shown
    beside the next round, is not shown again: its sentences were on the screen before the game stopped)."""

    def restore(items: list[list[Any]]) -> list[Line]:
        return [Line(text, size, colour, *kept) for text, size, colour, *kept in items]

    try:
        notices = [
            Notice(n["title"], restore(n["lines"]), n["rule"], n["tag"], tuple(n["page"]) if n.get("page") else None)
            for n in screen.get("notices", [])
        ]
        if not all(type(text) is str for n in notices for text in (n.title, *(line.text for line in n.lines))):
            raise TypeError("a text that is not text")
    except (KeyError, TypeError, ValueError, AttributeError) as error:  # a damaged row: only the screen is lost
        log.warning("the saved screen step cannot be read (%s); the game goes on at its next screen", error)
        return []
    return notices
