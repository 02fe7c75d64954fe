"""Overlays on any mode: the board check pages, rule help, the undo question (rules.md 11.4); a shared-screen menu waits
meanwhile (a keypad ballot goes on: test_keypad_ballot_mode)."""

from __future__ import annotations

from companion.flow.modes import PRIVATE_BALLOT, UndoConfirm
from hardware.events import PageTick
from tests.flow.builders import board_page, press, read_notices, table


def test_board_check_pages_and_closes_and_pads_wait() -> None:
    controller = table().controller
    read_notices(controller)
    press(controller, "host", "back")
    assert controller.screen().tags == ("board", "page:0")
    press(controller, "host", "left")
    assert controller.screen().tags == ("sound",), "left of the map: the sound page (test_sound_page.py)"
    press(controller, "host", "left")  # wraps to the last page: the year so far
    assert controller.screen().tags == ("this-year",) and controller.screen().title == "Year 1 so far"
    press(controller, "host", "left")
    assert controller.screen().tags == ("board", "page:4") and controller.screen().title == "Voting order"
    press(controller, "1", "ok")  # red's pad: nothing while the host looks at the board
    assert (
        board_page(controller) == 5 and controller.keying.private is None
    ) or controller.keying.private.stage == "gate"  # type: ignore[union-attr]
    press(controller, "host", "ok")
    assert board_page(controller) is None and controller.mode() is PRIVATE_BALLOT


def test_help_explains_the_rule_of_the_screen_underneath() -> None:
    controller = table().controller
    read_notices(controller)
    rule = controller.screen().rule
    press(controller, "host", "left")
    assert controller.screen().title == f"Rule {rule}" and controller.screen().footer == "any host key: back"
    press(controller, "host", "right")
    assert controller.screen().rule == rule and not controller.overlays


def test_undo_question_ok_undoes_and_other_keys_keep() -> None:
    controller = table().controller
    read_notices(controller)
    press(controller, "1", "ok")
    press(controller, "1", "ok")
    press(controller, "1", "ok")  # red: gate, first area, first marker ticked
    press(controller, "1", "left")
    press(controller, "1", "ok")  # Done
    assert controller.state is not None and controller.state.locked_in(0)
    press(controller, "host", "back", "hold")
    assert type(controller.overlays[-1]) is UndoConfirm
    assert "Undo Red's ballot for this round?" in controller.screen().text()
    press(controller, "host", "back")  # keep
    assert not controller.overlays and controller.state.locked_in(0)
    press(controller, "host", "back", "hold")
    press(controller, "host", "ok")
    assert not controller.state.locked_in(0) and len(controller.record) == 3


def test_a_question_in_parts_turns_by_itself_and_ok_answers_it_on_every_part() -> None:
    """Once "ok: more", now the same keys on every part: at 160x128 in large type the undo question takes two parts. Its
    keys are the same on both, so the host's habitual ok always means yes; the parts turn by themselves (the page
    timer's ticks), so all of it can be read without a key."""
    controller = table().controller
    read_notices(controller)
    for key in ("ok", "ok", "ok", "left", "ok"):  # red: gate, first area, first marker ticked, Done
        press(controller, "1", key)
    assert controller.state is not None and controller.state.locked_in(0)
    controller.parts.size = (160, 128)
    press(controller, "host", "back", "hold")
    first = controller.screen()
    if first.part is None:  # the question fits whole: make it long enough to need a second part
        controller.parts.text_size = "large"
        first = controller.screen()
    assert first.part == (1, 2) and first.footer == "host ok: undo   back: keep" and ("ok", "undo") in first.keys
    controller.handle(PageTick())
    second = controller.screen()
    assert second.part == (2, 2) and (second.footer, second.keys) == (first.footer, first.keys)
    controller.handle(PageTick())
    assert controller.screen().part == (1, 2)  # round again
    press(controller, "host", "ok")
    assert not controller.overlays and not controller.state.locked_in(0)
