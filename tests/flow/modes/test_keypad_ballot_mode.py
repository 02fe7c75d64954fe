"""Keypad ballot mode: keys on the own pad, LEDs only there; the shared screen says who is choosing, nothing more."""

from __future__ import annotations

from companion.flow.controller import Effect
from companion.flow.modes import KEYPAD_BALLOT
from tests.flow.builders import press, read_notices, table


def test_keys_light_the_own_pad_and_ok_locks_in() -> None:
    controller = table("keypads").controller
    read_notices(controller)
    controller.take_effects()
    assert controller.mode() is KEYPAD_BALLOT
    before = controller.screen()
    press(controller, "2", "area:dorsoduro")
    press(controller, "2", "marker:3")
    press(controller, "2", "marker:0")
    assert controller.screen() == before, "keying in shows nothing on the shared screen"
    effects = controller.take_effects()
    assert {e.source for e in effects} == {"2"}
    assert Effect("led", "2", "marker:3", "on") in effects
    press(controller, "2", "back")  # takes back the last marker key
    assert controller.keying.keypad[1].markers == [3]
    press(controller, "2", "ok")
    view = controller.screen()
    assert "Blue: locked in" in view.text() and "Red: choosing" in view.text() and "dorsoduro" not in view.text()


def test_every_marker_key_gets_the_same_feedback_held_or_not() -> None:
    controller = table("keypads").controller
    read_notices(controller)
    press(controller, "1", "area:castello")
    controller.take_effects()
    for _ in range(3):  # red holds two 3-markers: the third press must sound like the others
        press(controller, "1", "marker:3")
    kinds = [e.kind for e in controller.take_effects() if e.source == "1"]
    assert "beep" not in kinds


def test_ok_without_an_area_or_markers_beeps() -> None:
    controller = table("keypads").controller
    read_notices(controller)
    controller.take_effects()
    press(controller, "3", "ok")
    assert Effect("beep", "3") in controller.take_effects()
    assert 2 not in controller.keying.keypad or controller.keying.keypad[2].area is None


def test_a_keypad_ballot_goes_on_under_the_board_check_and_help() -> None:
    """A player keying a ballot on their own keypad is not stopped by what the host opens on the shared screen."""
    controller = table("keypads").controller
    read_notices(controller)
    press(controller, "host", "back")  # the board check
    board = controller.screen()
    press(controller, "3", "area:castello")
    press(controller, "3", "marker:3")
    press(controller, "3", "ok")
    assert (controller.screen().title, controller.screen().lines) == (board.title, board.lines), "nothing shows"
    assert controller.state is not None and controller.state.locked_in(2), "green locked in meanwhile"
    press(controller, "host", "ok")
    assert not controller.overlays and "Green: locked in" in controller.screen().text()
