"""Undo in words (rules.md 11.4): which decisions the host is about to take back, what the table then does to put
the board back, and, when it may not be taken back, what of it has been shown.

The data comes from the engine (:func:`companion.engine.undo.undo_line`); the board sentences are the same
:func:`companion.flow.board_text.change_text` renders for every notice, so a table reads an undo like any other change.
A ballot is named without its area or markers: they are still secret (11.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from display.screen import Line

from ..engine import QUARANTIA, Ballot
from ..engine.areas import AREA_NAMES
from ..engine.undo import Revealed, UndoneLine
from ..i18n import _
from .board_text import change_owner, change_text, display_name, full_stop, player_name, spoken_change
from .decision_text import decision_text
from .narration import Notice, owners_of


def undo_question(chain: Sequence[UndoneLine], players: Sequence[str], computer_colours: Sequence[str]) -> list[str]:
    """ "Undo Red's decision: take control of the Castello advisor and stand it in San Polo?", then one line for each
    computer player's decision taken back with it (``chain``: newest first, the human's last)."""
    target = chain[-1]
    name = player_name(players[target.player])
    if type(target.decision) is Ballot:
        question = _("Undo {name}'s ballot for this round? It stays secret; {name} chooses again.").format(name=name)
    else:
        question = _("Undo {name}'s decision: {what}?").format(
            name=name, what=decision_text(target.decision, target.subject)
        )
    lines = [question]
    for undone in reversed(chain[:-1]):  # in the order they were made
        who = display_name(players[undone.player], computer_colours)
        if type(undone.decision) is Ballot:
            lines.append(_("Taken back with it: {name}'s ballot (still secret).").format(name=who))
        else:
            what = decision_text(undone.decision, undone.subject)
            lines.append(_("Taken back with it: {name}: {what}.").format(name=who, what=what))
    return lines


def revealed_text(item: Revealed) -> str:
    what, which = item
    if what == "ballots":
        return _("the ballots of round {n}").format(n=which)
    if what == "count" and which == QUARANTIA:
        return _("the count in the Quarantia")
    if what == "count":
        return _("the count in {area}").format(area=AREA_NAMES[which])
    return _("next year's card {area}").format(area=AREA_NAMES[which])


def refusal(player: str, shown: Sequence[Revealed]) -> str:
    """11.4.1: why a decision stays, naming what of it the table has seen (one line of the screen per newline):
    never anything it made public that no screen has shown yet (11.4.3)."""
    # The verdict first, then what it rests on: a list of reveals before the verdict reads as a riddle.
    cannot = _("{name}'s last decision cannot be undone. It revealed:").format(name=player_name(player))
    return "\n".join([cannot, *(revealed_text(r) for r in shown)])


def refusal_notice(why: str) -> Notice:
    """Nothing to undo, or 11.4 forbids it: the reason, one screen line per line of :func:`refusal` (said as it
    reads: a round's number is its only digit, which every engine says)."""
    parts = why.split("\n")
    said = (full_stop(_("Undo")), *(full_stop(part) for part in parts))
    return Notice(_("Undo"), tuple(Line(part, "normal") for part in parts), rule="11.4", tag="undo", spoken=said)


def undo_notice(
    chain: Sequence[UndoneLine], players: Sequence[str], computer_colours: Sequence[str], read: bool = True
) -> Notice | None:
    """What the table does now: each undone line's own changes turned around, the newest line's first (``chain``:
    newest first), confirmed by the players whose pieces they move; None when nothing on the board changes.
    ``read``: the newest line's board notice had been dismissed, so the table did what it said; if it was still on
    the screen, the table may have done all, some or none of it."""
    if not any(undone.changes for undone in chain):
        return None
    target = chain[-1]
    name = player_name(players[target.player])
    taken_back = (
        _("{name}'s decision is taken back, with the computer's after it.").format(name=name)
        if len(chain) > 1
        else _("{name}'s decision is taken back.").format(name=name)
    )
    lines = [Line(taken_back, "small")]
    spoken = [full_stop(_("Undone")), taken_back]
    colours: list[str | None] = []
    for index, undone in enumerate(undone for undone in chain if undone.changes):
        if index == 0:
            head = (
                _("Put the board back:")
                if read or undone is not chain[0]
                else _("Undo whatever of the last notice you already did:")
            )
        else:
            head = _("Then put the board back:")
        lines.append(Line(head, "small"))
        spoken.append(head)
        for number, change in enumerate(undone.changes):
            colour = change_owner(change, players)
            colours.append(colour)
            # The first change stays on the part of its heading (a small display cuts the notice in parts).
            lines.append(
                Line(change_text(change, players, computer_colours), "normal", colour, with_previous=number == 0)
            )
            spoken.append(spoken_change(change, players, computer_colours))
    owners = owners_of(colours, computer_colours)
    return Notice(_("Undone"), tuple(lines), rule="11.4", tag="instructions", owners=owners, spoken=tuple(spoken))
