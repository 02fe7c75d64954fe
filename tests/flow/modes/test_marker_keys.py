"""Marker keys never lose a choice silently (docs/pad-protocol.md, "Keying a ballot"): every sequence of up to 6 marker
keys on a keypad leaves the ballot holding one marker a key, in the order keyed, except where a key asked for a
marker of a value none is left of (or a fifth): that key is refused on its own LED, and the others stay."""

from __future__ import annotations

from itertools import product

from companion.engine import private_view
from companion.flow.controller import Effect
from tests.flow.builders import press, read_notices, table


def test_every_sequence_of_up_to_6_marker_keys_gives_the_ballot_the_keys_say_or_a_refusal() -> None:
    controller = table("keypads").controller
    read_notices(controller)
    state = controller.state
    assert state is not None and state.phase == "ballot"
    held = list(private_view(state, 0).markers)
    checked = refused = 0
    for length in range(1, 7):
        for values in product(range(4), repeat=length):
            controller.between.keying.clear(0)
            press(controller, "1", "area:castello")
            controller.take_effects()
            expected: list[int] = []
            cues: list[Effect] = []
            for value in values:
                if expected.count(value) < held.count(value) and len(expected) < 4:
                    expected.append(value)
                    cues.append(Effect("led", "1", f"marker:{value}", "on"))
                else:
                    cues.append(Effect("led", "1", f"marker:{value}", "blink"))
                press(controller, "1", f"marker:{value}")
            assert controller.keying.keypad[0].markers == expected, values
            assert controller.take_effects() == cues, values
            checked += 1
            refused += len(values) - len(expected)
    assert checked == 4 + 4**2 + 4**3 + 4**4 + 4**5 + 4**6
    assert refused > 0


def test_a_keypads_marker_keys_on_the_shared_screens_markers_menu_never_untick_one() -> None:
    """Ballots one at a time: a keypad's marker key on the player's own markers menu ticks one more marker of its
    value, or with none of it left unticked (or four ticked) is refused on its LED, nothing unticked (it used to
    untick every marker of that value); the menu's ok on a ticked option is what unticks it, on the screen."""
    controller = table("private").controller
    read_notices(controller)
    state = controller.state
    assert state is not None and state.phase == "ballot"
    turn = controller.between.keying.private
    assert turn is not None
    seat = turn.seat
    source = controller.seats.source_of(seat)
    held = list(private_view(state, seat).markers)
    press(controller, source, "ok")  # past the gate
    press(controller, source, "area:castello")
    assert turn.stage == "markers" and turn.marker_menu is not None
    menu = turn.marker_menu
    controller.take_effects()
    checked = refused = 0
    for length in range(1, 7):
        for values in product(range(4), repeat=length):
            menu.chosen.clear()
            expected: list[int] = []
            cues: list[Effect] = []
            for value in values:
                if expected.count(value) < held.count(value) and len(expected) < 4:
                    expected.append(value)
                else:
                    cues.append(Effect("led", source, f"marker:{value}", "blink"))
                press(controller, source, f"marker:{value}")
            assert sorted(menu.options[i].value for i in menu.chosen) == sorted(expected), values
            assert controller.take_effects() == cues, values
            checked += 1
            refused += len(cues)
    assert checked == 4 + 4**2 + 4**3 + 4**4 + 4**5 + 4**6
    assert refused > 0
