"""The chance lines (rules.md 2.2, 5.3, 9.5): a voting-order deck's shuffle, which starts the first year (the two
decks at setup) and every next one (the finished year's deck, shuffled as next year's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..i18n import _
from .ballots import with_markers
from .changes import NewYear
from .errors import IllegalDecisionError
from .tasks import BALLOT, OVER, SETUP, YEAR_END

if TYPE_CHECKING:
    from .state import State

_ALL_AREAS_SET = frozenset(range(7))


def shuffle(state: State, order: Sequence[int]) -> None:
    """Apply a chance line: the order of one voting-order deck (2.2, 5.3, 9.5)."""
    if state._phase not in (SETUP, YEAR_END):
        if state._phase == OVER:
            raise IllegalDecisionError(_("the game is over: nothing may follow"), "9.2")
        raise IllegalDecisionError(_("no shuffle is due now: decks are shuffled only at setup and year end"), "2.2")
    order = tuple(order)
    if len(order) != 7 or set(order) != _ALL_AREAS_SET:
        raise IllegalDecisionError(_("a shuffle must list each of the 7 areas exactly once"), "1.3")
    if state._phase == SETUP:
        if not state._this_order:
            state._this_order = order
            return
        state._next_order = order
    else:
        state._year += 1
        if state._log is not None:
            state._log.append(NewYear(state._year))
        state._this_order = state._next_order
        state._next_order = order
        state._turned = 0
        state._election = 0
    state._phase = BALLOT
    state._round = 1
    state._waiting = with_markers(state)
