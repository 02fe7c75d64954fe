"""What the table has been shown is one value (``shown.Seen``), built once per step when the step has settled, and
read by the board check, the year so far, the phones, the table view, the undo key and ``public_record``
(rules.md 11.4.1). Here: after every press of whole scripted games, the value the controller hands out is the one
its game and notices make now (a value built before the step settled, or not rebuilt after a computer's answer,
would show a reveal's board before its notice, or offer an undo the table can no longer have), and the live
record's public length agrees with the one a saved screen gives ``export``."""

from __future__ import annotations

import pytest

from companion.flow.notice_store import screen_state
from companion.flow.shown import public_length, table_has_seen
from tests.scripted_table import ScriptedTable


@pytest.mark.parametrize("seed", [0, 1])
def test_the_seen_handed_out_is_the_one_the_game_makes_now(seed: int) -> None:
    table = ScriptedTable(seed)
    table.setup()
    controller = table.controller
    checked = hidden = 0
    while controller.stage != "over" and len(table.script) < 20_000:
        table.turn()
        seen = controller.seen
        fresh = table_has_seen(controller.state, controller.history, controller.notices, controller.bots)
        assert seen.hidden == fresh.hidden, len(table.script)
        assert seen.open_chain == fresh.open_chain, len(table.script)
        if controller.state is not None:
            assert seen.board == fresh.board, len(table.script)
        length = len(controller.record)
        assert len(controller.public_record()) == public_length(screen_state(controller.notices), length)
        checked += 1
        hidden += bool(seen.hidden)
    assert controller.stage == "over"
    assert hidden > 20 and checked > hidden, (checked, hidden)  # moments with a reveal still to come, and without
