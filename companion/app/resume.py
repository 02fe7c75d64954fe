"""After a restart: the unfinished game goes on where it stopped (issue 5), or, when it cannot, is set aside.

A game whose row or record cannot be read (store/damage.py), or that this version cannot continue, is kept in the
store marked ``damaged``, the others untouched, and a new game is set up on a fresh controller: nothing
half-resumed (its seats taken, half its lines read) plays on (issue 35).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from contextlib import suppress

from ..engine import snapshot
from ..flow.controller import Controller
from ..flow.modes import ResumeOffer
from ..i18n import _
from ..store import DAMAGED, Store, StoreError
from .saver import StoreSaver

log = logging.getLogger(__package__)  # "companion.app", the name its lines have always had


def resume_unfinished(store: Store, saver: StoreSaver, fresh: Callable[[], Controller]) -> tuple[Controller, bool]:
    """(the controller to play on, whether it goes on with the unfinished game); FRESH makes a new controller."""
    controller = fresh()
    game = store.unfinished()
    if game is None:
        return controller, False
    try:
        lines = store.lines(game)
        info = next(g for g in store.games() if g.id == game)
        if info.problem:
            raise StoreError(info.problem)
        # Bound first: going on may draw a shuffle that was due (a game stopped once the year's last decision was
        # final, before its shuffle was saved: flow/settling.py), and that line is saved like any other.
        saver.game, saver.length = game, len(lines)
        controller.resume(lines, store.screen(game))
        lines = controller.record
    except Exception as error:  # damaged, or a record this version cannot continue: keep it, start afresh
        saver.game, saver.length = None, 0
        log.error("game %d cannot be resumed (%s); it is kept in the store, set aside as damaged", game, error)
        with suppress(StoreError):
            store.abandon(game, DAMAGED)
        store.problem = store.problem or _(
            "game {game} could not be resumed; it is kept, set aside (doge-companion games)"
        ).format(game=game)
        return fresh(), False
    controller.open(ResumeOffer(game, info.started, info.year))  # which game goes on
    log.info("resumed game %d at line %d", game, len(lines))
    if saver.acks is not None and controller.state is not None:
        digest = hashlib.sha256(json.dumps(snapshot(controller.state), sort_keys=True).encode()).hexdigest()
        print(f"resumed {game} {saver.length} {digest[:16]}", file=saver.acks, flush=True)
    return controller, True
