"""After a restart: the unfinished game goes on where it stopped (docs/architecture.md "A restart"), or, when it
cannot, is set aside.

A game whose row or record cannot be read (store/damage.py), or that this version cannot continue, is kept in the
store marked ``damaged``, the others untouched, and a new game is set up on a fresh controller: nothing
half-resumed (its seats taken, half its lines read) plays on (tests/test_store_damage.py).
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


def told_set_aside(store: Store) -> None:
    """Every start while a game set aside as damaged is not dealt with (``doge-companion recover N``), the screen
    says so, with why and how (it was once said only by the start that found it, and then forgotten)."""
    games = store.set_aside()
    if not games:
        return
    if len(games) == 1:
        lines, why = store.record(games[0])
        row = next((g.problem for g in store.games() if g.id == games[0]), None)
        why = row or why or _("this version cannot go on with it")
        said = _("game {game} is set aside as damaged ({why}); its first {count} lines go on with: "
                 "doge-companion recover {game}").format(game=games[0], why=why, count=len(lines))  # fmt: skip
    else:
        said = _("games {games} are set aside as damaged (doge-companion games); one goes on with: "
                 "doge-companion recover N").format(games=", ".join(map(str, games)))  # fmt: skip
    store.problem = f"{store.problem}; {said}" if store.problem else said


def resume_unfinished(store: Store, saver: StoreSaver, fresh: Callable[[], Controller]) -> tuple[Controller, bool]:
    """(the controller to play on, whether it goes on with the unfinished game); FRESH makes a new controller."""
    before = store.problem
    told_set_aside(store)
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
        if game in store.set_aside():
            store.problem = before
            told_set_aside(store)
        else:  # not even its status could be written
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
