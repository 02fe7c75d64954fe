"""Notices mode: a notice nobody owns (the reminder) only the host's ok clears (a player's ok is their own); keypad
ballots go on underneath; help and board open on top. Owners' "done": tests/flow/test_table_pace.py."""

from __future__ import annotations

from companion.flow.modes import KEYPAD_BALLOT, NOTICES, BoardCheck, Help
from tests.flow.builders import press, read_notices, table
from tests.helpers import same_notice, still_queued


def test_the_host_ok_clears_one_notice_and_a_pad_ok_clears_none() -> None:
    controller = table().controller
    assert controller.mode() is NOTICES and controller.screen().tags == ("reminder", "page:1")
    first = controller.notices[0]
    assert controller.screen().title == first.title and "ok: go on" in controller.screen().footer
    press(controller, "1", "ok")
    assert controller.notices and same_notice(controller.notices[0], first), "a player's ok is their own"
    press(controller, "host", "ok")
    assert not still_queued(first, controller.notices)


def test_keypad_keys_go_on_under_a_notice() -> None:
    controller = table("keypads").controller
    assert controller.mode() is NOTICES
    press(controller, "1", "area:castello")
    assert controller.keying.keypad[0].area == 1
    assert any(e.kind == "led" and e.target == "area:castello" for e in controller.take_effects())
    read_notices(controller)
    assert controller.mode() is KEYPAD_BALLOT and controller.keying.keypad[0].area == 1


def test_left_opens_help_and_back_the_board_check_on_top() -> None:
    controller = table().controller
    press(controller, "host", "left")
    assert type(controller.overlays[-1]) is Help and "help" in controller.screen().tags
    press(controller, "host", "ok")  # any host key closes help: the notice is still there
    assert not controller.overlays and controller.mode() is NOTICES
    press(controller, "host", "back")
    assert type(controller.overlays[-1]) is BoardCheck
