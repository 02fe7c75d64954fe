"""Fewer presses where nothing is asked (docs/architecture.md, "Parts and the page timer"): a notice that moves no
piece (a count no turned card heads, a decision that changes nothing on the board) waits for nobody's ok. Nobody is
asked for a done, a player's ok does not send it away, and the page timer's tick does once it has been read; a power
cut keeps that. A count headed by a turned card still waits for the player who acts on it."""

from __future__ import annotations

import json

from companion.flow.narration import Notice
from companion.flow.notice_store import restore_screen, screen_state
from hardware.events import InputEvent, PageTick
from tests.helpers import same_notice
from tests.scripted_table import ScriptedTable


def first_by_itself(table: ScriptedTable) -> Notice | None:
    """Play on until a notice that moves no piece is on top; None at the game's end."""
    controller = table.controller
    for _step in range(20_000):
        if controller.notices and not controller.overlays and controller.notices[0].by_itself:
            return controller.notices[0]
        if controller.stage == "over" and not controller.notices:
            return None
        table.turn()
    raise AssertionError("the game did not end")


def test_a_notice_that_moves_no_piece_asks_nobody_and_goes_on_the_tick() -> None:
    table = ScriptedTable(4, bots=0)
    table.setup()
    controller = table.controller
    seen = {"count": 0, "instructions": 0}
    while (notice := first_by_itself(table)) is not None:
        assert notice.owners == () and notice.waiting == () and not notice.passive
        assert notice.tag in ("count", "instructions", "empty"), notice.tag
        assert not any(kind == "card" for kind, _area in notice.reveals), "a turned card is laid out: it waits"
        assert controller.screen().footer == "ok: go on"
        for source in table.pads:
            controller.handle(InputEvent(source, "ok"))
        assert controller.notices and same_notice(controller.notices[0], notice), "a player's ok does not send it away"
        controller.handle(PageTick())
        assert not controller.notices or not same_notice(controller.notices[0], notice), "the tick does"
        seen[notice.tag] = seen.get(notice.tag, 0) + 1
    assert seen["count"] > 0, seen


def test_counts_headed_by_a_turned_card_wait_for_whoever_acts_on_them() -> None:
    table = ScriptedTable(4, bots=0)
    table.setup()
    controller = table.controller
    for _step in range(20_000):
        top = controller.notices[0] if controller.notices and not controller.overlays else None
        if top is not None and top.tag == "count" and any(kind == "card" for kind, _area in top.reveals):
            assert top.owners and not top.by_itself
            return
        table.turn()
    raise AssertionError("no count headed by a turned card")


def test_going_by_itself_is_kept_with_the_saved_screen() -> None:
    notices = [Notice("Decided", (), tag="instructions", by_itself=True), Notice("Castello", (), tag="count")]
    stored = json.loads(json.dumps(screen_state(notices)))
    assert [n.by_itself for n in restore_screen(stored)] == [True, False]
    older = {"notices": [{key: value for key, value in n.items() if key != "by_itself"} for n in stored["notices"]]}
    assert [n.by_itself for n in restore_screen(older)] == [False, False], "an older save's notices: as they were"
