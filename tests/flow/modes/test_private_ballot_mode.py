"""Private ballot mode (rules.md 4.2): gate, area menu, markers; only the awaited player's pad acts."""

from __future__ import annotations

from companion.engine import AREAS, Ballot, private_view
from companion.flow.modes import PRIVATE_BALLOT
from tests.flow.builders import press, read_notices, table


def test_gate_then_area_then_markers_then_done_locks_the_ballot_in() -> None:
    controller = table().controller
    read_notices(controller)
    assert controller.mode() is PRIVATE_BALLOT
    gate = controller.screen()
    assert gate.tags == ("ballot-gate",) and "Everyone else: look away" in gate.text()
    press(controller, "2", "ok")  # not red's pad: nothing happens
    assert controller.screen() == gate
    press(controller, "1", "ok")
    areas = controller.screen()
    assert "private:red" in areas.tags and areas.menu is not None and len(areas.menu.options) == 7
    press(controller, "1", "back")
    assert controller.screen().tags == ("ballot-gate",)
    press(controller, "1", "ok")
    press(controller, "1", "right")
    press(controller, "1", "ok")  # the second area: Castello
    markers = controller.screen()
    assert "stage:markers" in markers.tags and markers.menu is not None
    assert markers.menu.options[:-1] == ("3", "3", "2", "2", "1", "1", "0")
    press(controller, "1", "right")
    press(controller, "1", "right")
    press(controller, "1", "right")
    press(controller, "1", "right")
    press(controller, "1", "right")
    press(controller, "1", "right")
    press(controller, "1", "right")  # on Done with nothing ticked: a beep, nothing locked in
    controller.take_effects()
    press(controller, "1", "ok")
    assert [e.kind for e in controller.take_effects()] == ["beep"]
    press(controller, "1", "left")
    press(controller, "1", "ok")  # tick the 0
    press(controller, "1", "right")
    press(controller, "1", "ok")  # Done
    assert controller.state is not None and controller.state.locked_in(0)
    assert private_view(controller.state, 0).pending == Ballot(AREAS.index("castello"), (0,))
    assert controller.screen().tags == ("ballot-gate",) and "Blue's secret ballot" in controller.screen().text()


def test_a_screen_the_host_opens_sends_a_half_keyed_ballot_back_behind_its_gate() -> None:
    """rules.md 11: help, the board check or the undo question over a ballot being keyed on the shared screen; when
    it closes, the screen asks everyone else to look away again instead of showing the half-keyed choice."""
    for opening, closing in ((("host", "back", "press"),) * 2, (("host", "left", "press"), ("host", "left", "press"))):
        controller = table().controller
        read_notices(controller)
        press(controller, "1", "ok")
        press(controller, "1", "ok")  # an area: the marker menu is open
        press(controller, "1", "ok")  # one marker ticked
        assert "stage:markers" in controller.screen().tags
        press(controller, *opening)
        assert controller.overlays
        press(controller, *closing)
        assert not controller.overlays
        assert controller.screen().tags == ("ballot-gate",), (opening, controller.screen().tags)
        assert controller.state is not None and not controller.state.locked_in(0)
