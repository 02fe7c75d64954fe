"""Telling the table what just happened: the engine's board changes and counts, turned into notices.

The controller hands over what :meth:`State.apply_with_changes` reported for one record line; nothing here looks at
snapshots or works out a change itself, so every sentence on the board notices is exactly the one
:func:`.board_text.change_text` renders for a change (record-format.md 4), in the order the table does them.

A line is told in two parts (``engine.undo.first_reveal``): first the decision's own board changes, then what the
rules did after it (a round's reveal, a turned card, the next count, the year's end). The second part waits behind
the first, so nothing a decision made public reaches a screen before the table has done what the decision itself
asked (rules.md 11.4.1: until then the decision may be taken back). Each election is told under its own name, an
area nobody voted in with the card its end turns (5.2); a card turned by the decision that ended an election told
before heads the notice that follows it, under that election's name, rather than stopping play on its own.

Each notice says who confirms it (``owners``): the players whose pieces it moves, each with ok on their own pad
("done"); a computer seat's pieces are moved by anyone at the table (:data:`ANYONE`). A notice that moves no piece
(a count, a decision that changes nothing on the board) asks nobody's ok: it goes ``by_itself`` once each of its
parts has been up its time (the page timer, routing.py). The host's ok confirms any notice; a notice with no owners
that does not go by itself (the reminder, a refusal) is the host's alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from display.screen import Line

from ..engine import Count, Event, State
from ..engine.areas import AREA_NAMES, QUARANTIA
from ..engine.changes import Change, MarkersBack, NewYear, PutMarkers, TurnCard
from ..engine.undo import Revealed, first_reveal
from ..i18n import N_, _, and_list, ngettext, pgettext
from .board_text import (
    change_owner,
    change_text,
    display_name,
    full_stop,
    markers_text,
    player_name,
    spoken_change,
    spoken_seat,
)
from .decision_text import Decided
from .notice import ANYONE as ANYONE
from .notice import Notice as Notice
from .notice import count_owners as count_owners
from .notice import owners_of as owners_of
from .spoken_text import (
    spoken_changes,
    spoken_count,
    spoken_laid,
    spoken_leaders,
    spoken_next_year,
    spoken_year_begins,
)

CONDITION_NAMES = {
    "six_districts": N_("a palace in all 6 districts"),
    "seven_in_five": N_("7 palaces in 5 districts"),
    "eight_in_four": N_("8 palaces in 4 districts"),
}
SHORT_CONDITIONS = {  # the same, where a line has room for only a few words
    "six_districts": N_("all 6 districts"),
    "seven_in_five": N_("7 in 5"),
    "eight_in_four": N_("8 in 4"),
}
NO_BREAK = "\u00a0"  # the renderer never breaks a line there: "Santa Croce", "7 in 5" stay on one row


def narrate(
    events: Sequence[Event],
    state: State,
    revealed_round: int,
    computer_colours: Sequence[str] = (),
    line: int | None = None,
    decided: Decided | None = None,
) -> list[Notice]:
    """The notices for one line's events; ``state`` is the state after the line (the year's end, who decides next),
    ``revealed_round`` the round its ballots belong to, ``line`` its index in the record. A decision that changes
    nothing on the board but reveals something (``decided``) gets a notice of its own first, so it too is shown
    before what it made public."""
    cut = first_reveal(events)
    own, rest = events[:cut], events[cut:]
    notices: list[Notice] = []
    if own:
        notices.append(board_notice(own, state.players, computer_colours, line, decided=True))  # type: ignore[arg-type]
    elif rest and decided is not None:
        text = _("{name}'s decision: {what}").format(
            name=display_name(decided.player, computer_colours), what=decided.text
        )
        lines = [Line(text, "normal", decided.player), Line(_("Nothing changes on the board."), "small")]
        said = _("{name}'s decision: {what}").format(
            name=spoken_seat(decided.player, computer_colours), what=decided.text
        )
        spoken = (full_stop(said), lines[1].text)
        quiet = decided.player not in computer_colours
        notices.append(  # nothing moves: nobody's ok is asked (it goes by itself once read)
            Notice(
                _("Decided"), tuple(lines), tag="instructions", line=line, spoken=spoken, quiet=quiet, by_itself=True
            )
        )
    return notices + consequences(rest, state, revealed_round, computer_colours, line)


def board_notice(
    changes: Sequence[Change],
    players: Sequence[str],
    computer_colours: Sequence[str],
    line: int | None,
    decided: bool = False,
) -> Notice:
    """ "On the board": one sentence a change, each in the colour of the pieces it moves, confirmed by their owners.
    Of a decision's own changes (``decided``) the voice says only those that move a computer's pieces (the table
    moves them); a person's own, as they just chose, are the screen's to show: with none, the notice is quiet."""
    colours = [change_owner(c, players) for c in changes]
    lines = [
        Line(change_text(c, players, computer_colours), "normal", colour)
        for c, colour in zip(changes, colours, strict=True)
    ]
    spoken = spoken_changes(
        changes, players, computer_colours
    )  # a player's Quarantia advisors going back: one sentence
    if decided:
        spoken = tuple(spoken_change(c, players, computer_colours) for c in changes)  # one a change, by its colour
        said = tuple(text for text, colour in zip(spoken, colours, strict=True) if colour in computer_colours)
        spoken, quiet = said or spoken, not said
    else:
        quiet = False
    owners = owners_of(colours, computer_colours)
    return Notice(
        _("On the board"), tuple(lines), tag="instructions", owners=owners, line=line, spoken=spoken, quiet=quiet
    )


def consequences(
    events: Sequence[Event], state: State, revealed_round: int, computer_colours: Sequence[str], line: int | None
) -> list[Notice]:
    """What the rules did after a decision, as notices: one election to a notice, under its name (an area nobody
    voted in too, with the card its end turns: 5.2); a card turned as a decision ends an election told before heads
    the notice after it; the count a computer player acts on is ``passive`` (it waits for that player's move)."""
    players = state.players
    notices: list[Notice] = []
    head: list[Line] = []
    reveals: list[Revealed] = []
    markers: list[PutMarkers] = []
    board: list[Change] = []
    ended: str | None = None  # the election whose end turned the card heading the next notice

    def add(notice: Notice, revealed: tuple[Revealed, ...] = ()) -> None:
        nonlocal ended
        lead = notice.lead
        if head and ended is not None:
            lead, ended = (ended, len(head)), None
        made = (*reveals, *revealed)
        notices.append(replace(notice, lines=(*head, *notice.lines), reveals=made, line=line, lead=lead))
        head.clear()
        reveals.clear()

    def flush() -> None:
        if markers:
            add(reveal_notice(markers, players, computer_colours, revealed_round), (("ballots", revealed_round),))
            markers.clear()
        if board:
            add(board_notice(board, players, computer_colours, line))
            board.clear()

    empty: int | None = None  # an election nobody voted in, just told (its index): the card turned next is its own
    for event in events:
        just_empty, empty = empty, None
        if type(event) is PutMarkers:
            markers.append(event)
            continue
        if isinstance(event, Count) or type(event) in (TurnCard, MarkersBack, NewYear) or markers:
            flush()
        if isinstance(event, Count):
            add(count_notice(event, players, computer_colours), (("count", event.area),))
            if event.winner is None and not event.first:
                empty = len(notices) - 1  # finished at once (5.2): its card, turned next, is told under its name
        elif type(event) is TurnCard:
            card = Line(change_text(event, players), "small")  # the screen's to tell: the card is laid out
            if just_empty is not None:
                told = notices[just_empty]
                notices[just_empty] = replace(  # someone lays the card
                    told,
                    lines=(*told.lines, card),
                    reveals=(*told.reveals, ("card", event.area)),
                    owners=(ANYONE,),
                    by_itself=False,
                )
            else:
                head.append(card)
                reveals.append(("card", event.area))
                ended = ended_by(event, state)
        elif type(event) is MarkersBack:
            add(year_end_notice(state, change_text(event, players), computer_colours))
        elif type(event) is NewYear:
            begins = [Line(change_text(event, players), "small")]
            add(year_start_notice(state, begins, "9.5", (ANYONE,)))
        else:
            board.append(event)  # a count's board changes (advisors going neutral)
    flush()
    if head:  # nothing followed a turned card in its line: it is a notice of its own
        ended = None  # its title names what it is
        title = _("Next year's order")
        add(Notice(title, (), rule="5.2", owners=(ANYONE,), spoken=(full_stop(title),)))
    return _count_owner(notices, state, computer_colours)


def ended_by(card: TurnCard, state: State) -> str | None:
    """The election whose end turned ``card``: the k-th card turned ends this year's k-th election (5.2)."""
    turned, order = state.next_year_turned(), state.this_order()
    if card.area not in turned or turned.index(card.area) >= len(order):
        return None
    return AREA_NAMES[order[turned.index(card.area)]]


def _count_owner(notices: list[Notice], state: State, computer_colours: Sequence[str]) -> list[Notice]:
    """A count moves no piece: it goes by itself once read, unless a turned card heads it (the table lays the card
    out: then the player who acts on it confirms). The last one, when a computer acts on it, is passive."""
    awaited = state.awaiting() if state.phase == "election" else ()
    decider = state.players[awaited[0].player] if awaited else None
    acting = owners_of([decider], computer_colours) if decider else (ANYONE,)
    owned = [count_owners(n, acting) if n.tag == "count" else n for n in notices]
    if owned and owned[-1].tag == "count" and decider in computer_colours:
        owned[-1] = replace(owned[-1], owners=(), passive=True, by_itself=False)
    return owned


def reveal_notice(
    markers: Sequence[PutMarkers], players: Sequence[str], computer_colours: Sequence[str], revealed_round: int
) -> Notice:
    """rules.md 4.3: who put how many markers where, one short line each (the round fits one part at 160x128)."""
    lines = [Line(markers_text(m, players, computer_colours), "small", players[m.player]) for m in markers]
    owners = owners_of([players[m.player] for m in markers], computer_colours)
    title = _("Round {n} revealed").format(n=revealed_round)
    spoken = (spoken_laid(markers, players),)
    return Notice(title, tuple(lines), rule="4.3", tag="reveal", owners=owners, spoken=spoken)


def order_lines(names: Sequence[str]) -> list[Line]:
    """A voting order on two lines (the comma stays with the line it ends), on one part of a screen in parts."""
    return [Line(", ".join(names[:4]) + ",", "small"), Line(", ".join(names[4:]), "small", with_previous=True)]


def year_start_lines(state: State) -> list[Line]:
    """The order of the year beginning, named by its number: under a year's end (settling.py joins the two
    notices) "this year" would mean the year that just ended."""
    return [
        Line(_("Year {year}'s voting order:").format(year=state.year), "small"),  # also under the last year's end
        *order_lines([AREA_NAMES[a] for a in state.this_order()]),
    ]


def year_start_notice(state: State, lines: list[Line], rule: str, owners: tuple[str, ...] = ()) -> Notice:
    """A year begins: its voting order on the screen; the voice says where it begins (after a year's end, whose
    notice this one joins, the year's end has said so: settling.py adds all but the first sentence)."""
    said = (spoken_year_begins(state.year, state.this_order()[0]),)
    title = _("Year {year}").format(year=state.year)
    return Notice(title, (*lines, *year_start_lines(state)), rule=rule, owners=owners, spoken=said)


def count_notice(count: Count, players: Sequence[str], computer_colours: Sequence[str] = ()) -> Notice:
    """rules.md 6.1 to 6.5: everyone's votes (markers and advisors), then the result."""
    area = count.area
    if count.winner is None and not count.first:
        nobody = _("Nobody has a vote here: nothing happens.")
        spoken = (spoken_count(count, players),)
        return Notice(
            AREA_NAMES[area], (Line(nobody, "normal"),), rule="6.5", tag="empty", spoken=spoken, by_itself=True
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
                result=True,
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
    spoken = (spoken_count(count, players, computer_colours),)
    return Notice(AREA_NAMES[area], tuple(lines), rule=rule, tag="count", spoken=spoken)


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
        text = _("{name} decides on the advisor and may place 2 houses; {runner} may place 1.")
        return text.format(name=name, runner=player_name(players[count.runners_up[0]]))
    if count.runners_up:
        return _("{name} decides on the advisor and may place 2 houses; each tied runner-up may place 1.").format(
            name=name
        )
    return _("{name} decides on the advisor and may place 2 houses here.").format(name=name)


def standing_text(state: State, seat: int) -> str:
    """Where one player stands against the victory conditions (rules.md 9.2): the conditions met, or their palaces
    and districts and the nearest condition still ahead, never worded like a condition ("5 palaces in 5 districts"
    reads as met)."""
    met = state.victory_conditions(seat)
    if met:
        return ", ".join(_(CONDITION_NAMES[m]) for m in met)
    palaces, districts = state.palaces_of(seat), state.districts_of(seat)
    text = ngettext("{n} palace", "{n} palaces", palaces).format(n=palaces) + ", "
    text += ngettext("{d} district", "{d} districts", districts).format(d=districts)
    reachable = [(more, condition) for condition, more in state.palaces_to_go(seat) if more is not None]
    if reachable:
        more, condition = min(reachable)
        text += ngettext("; {n} more for {condition}", "; {n} more for {condition}", more).format(
            n=more,
            condition=_(SHORT_CONDITIONS[condition]).replace(" ", NO_BREAK),  # "7 in 5" on one row
        )
    return text


def year_end_notice(state: State, markers_back: str, computer_colours: Sequence[str] = ()) -> Notice:
    """rules.md 9.1, 9.2: markers come back; where each player stands against the victory conditions. Everyone takes
    their own markers back (a computer's: anyone)."""
    lines = [Line(markers_back, "small")]
    said = [
        pgettext("spoken", "Take back your markers."),
        spoken_leaders(state),
        *spoken_next_year(state),
    ]
    for seat, player in enumerate(state.players):
        lines.append(Line(f"{player_name(player)}: {standing_text(state, seat)}", "small", player))
    return Notice(
        _("Year {year} ends").format(year=state.year),
        tuple(lines),
        rule="9.2",
        tag="year",
        owners=owners_of(state.players, computer_colours),
        spoken=tuple(said),
    )
