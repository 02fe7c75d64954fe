"""Undo in words (rules.md 11.4): which decision the host is about to take back, what the table then does to put
the board back, and, when it may not be taken back, what it made public.

The data comes from the engine (:func:`companion.engine.undo.undo_line`); the board sentences are the same
:func:`companion.flow.board_text.change_text` renders for every notice, so a table reads an undo like any other change.
A ballot is named without its area or markers: they are still secret (11.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from display.screen import Line

from ..engine import QUARANTIA, Abstain, Advisor, Ballot, Build, Houses, Move
from ..engine.areas import AREA_NAMES
from ..engine.decisions import HouseMove
from ..engine.undo import Revealed, UndoneLine
from ..i18n import _, ngettext
from .board_text import change_owner, change_text, player_name
from .narration import Notice


def _advisor(subject: int | None) -> str:
    if subject is None or subject == QUARANTIA:
        return _("a Quarantia advisor")
    return _("the {area} advisor").format(area=AREA_NAMES[subject])


def _move(move: HouseMove) -> str:
    return _("move a house from {a} to {b}").format(a=AREA_NAMES[move.source], b=AREA_NAMES[move.target])


def decision_text(undone: UndoneLine) -> str:
    """What was decided, as the rest of "Undo Red's decision: ...?" (a ballot's content is never named)."""
    decision, subject = undone.decision, undone.subject
    district = AREA_NAMES[subject] if subject is not None else ""
    if type(decision) is Advisor:
        if decision.area == QUARANTIA:
            return _("take control of {advisor} and stand it in the Quarantia").format(advisor=_advisor(subject))
        return _("take control of {advisor} and stand it in {area}").format(
            advisor=_advisor(subject), area=AREA_NAMES[decision.area]
        )
    if type(decision) is Abstain:
        text = _("abstain on {advisor}").format(advisor=_advisor(subject))
        if decision.move is not None:
            text = _("{abstain} and {move}").format(abstain=text, move=_move(decision.move))
        return text
    if type(decision) is Houses:
        if decision.number == 0:
            return _("place no house in {d}").format(d=district)
        return ngettext("place {n} house in {d}", "place {n} houses in {d}", decision.number).format(
            n=decision.number, d=district
        )
    if type(decision) is Build:
        if decision.build:
            return _("build a palace in {d}").format(d=district)
        return _("not build in {d}").format(d=district)
    assert type(decision) is Move
    return _move(decision.move) if decision.move is not None else _("move no more houses")


def undo_question(undone: UndoneLine, players: Sequence[str]) -> str:
    """ "Undo Red's decision: take control of the Castello advisor and stand it in San Polo?" """
    name = player_name(players[undone.player])
    if type(undone.decision) is Ballot:
        return _("Undo {name}'s ballot for this round? It stays secret; {name} chooses again.").format(name=name)
    return _("Undo {name}'s decision: {what}?").format(name=name, what=decision_text(undone))


def _revealed_text(item: Revealed) -> str:
    what, which = item
    if what == "ballots":
        return _("the ballots of round {n}").format(n=which)
    if what == "count" and which == QUARANTIA:
        return _("the count in the Quarantia")
    if what == "count":
        return _("the count in {area}").format(area=AREA_NAMES[which])
    return _("next year's card {area}").format(area=AREA_NAMES[which])


def refusal(undone: UndoneLine, players: Sequence[str]) -> str:
    """11.4: why the last decision stays, naming what it made public (one line of the screen per newline)."""
    if not undone.revealed:
        return _("The last decision revealed a ballot, a count or a card: it cannot be undone.")
    # The verdict first, then what it rests on (issue 23's read-through: "made public: ... It cannot be undone."
    # read as a riddle until its last line).
    cannot = _("{name}'s last decision cannot be undone. It revealed:").format(name=player_name(players[undone.player]))
    return "\n".join([cannot, *(_revealed_text(r) for r in undone.revealed)])


def refusal_notice(why: str) -> Notice:
    """Nothing to undo, or 11.4 forbids it: the reason, one screen line per line of :func:`refusal`."""
    return Notice(_("Undo"), [Line(part, "normal") for part in why.split("\n")], rule="11.4", tag="undo")


def undo_notices(undone: UndoneLine, players: Sequence[str], pending: Sequence[Notice]) -> list[Notice]:
    """The notices after an undo, in place of ``pending``: the board put back (record-format.md 4 reversed), if the
    decision changed anything there. When its own board notice was still pending, the table may have done some of it."""
    read = not any(n.tag == "instructions" for n in pending)
    return [undo_notice(undone, players, read)] if undone.changes else []


def undo_notice(undone: UndoneLine, players: Sequence[str], read: bool = True) -> Notice:
    """What the table does now: the undone line's changes turned around, like any board notice (the controller
    shows one only when there is something to put back)."""
    # The first change stays on the part of its heading (a small display cuts the notice in parts).
    lines = [
        Line(change_text(c, players), "normal", change_owner(c, players), with_previous=index == 0)
        for index, c in enumerate(undone.changes)
    ]
    taken_back = _("{name}'s decision is taken back.").format(name=player_name(players[undone.player]))
    # ``read``: the decision's own board notice was dismissed, so the table did what it said. If it was still on the
    # screen, the table may have done all, some or none of it.
    head = _("Put the board back:") if read else _("Undo whatever of the last notice you already did:")
    return Notice(
        _("Undone"), [Line(taken_back, "small"), Line(head, "small"), *lines], rule="11.4", tag="instructions"
    )
