"""A decision in words, as the rest of "Red's decision: ...": for the undo question and for a decision that changes
nothing on the board but ends an election (its own notice, so the table can still take it back: rules.md 11.4.1).
A ballot's content is never named: it is secret (11.1)."""

from __future__ import annotations

from typing import NamedTuple

from ..engine import QUARANTIA, Abstain, Advisor, Ballot, Build, Decision, Houses, Move, State
from ..engine.areas import AREA_NAMES
from ..engine.decisions import HouseMove
from ..engine.undo import decision_subject
from ..i18n import _, ngettext


class Decided(NamedTuple):
    """A decision in words (:func:`decision_text`), by ``player``'s colour."""

    player: str
    text: str


def decided(before: State, seat: int, decision: Decision) -> Decided | None:
    """``seat``'s ``decision`` in words, as the state ``before`` it asked it (None for a ballot: it is secret)."""
    if type(decision) is Ballot:
        return None
    return Decided(before.players[seat], decision_text(decision, decision_subject(before, decision)))


def _advisor(subject: int | None) -> str:
    if subject is None or subject == QUARANTIA:
        return _("a Quarantia advisor")
    return _("the {area} advisor").format(area=AREA_NAMES[subject])


def _move(move: HouseMove) -> str:
    return _("move a house from {a} to {b}").format(a=AREA_NAMES[move.source], b=AREA_NAMES[move.target])


def decision_text(decision: Decision, subject: int | None) -> str:
    """What was decided (``subject``: the advisor's or the district's area, engine.undo.decision_subject)."""
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
