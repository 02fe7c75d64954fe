"""A decision the store refused (game.py): the notice keeps the player's keyed choice, never swallows their next ok,
and only the host dismisses it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import AREAS, private_view
from companion.flow.autoplay import Table
from companion.flow.controller import Controller, Effect, Saver
from tests.flow.builders import play_until, press, read_notices, table


class FlakySaver(Saver):
    """Refuses to save while ``full`` is set, like a full disk."""

    def __init__(self) -> None:
        self.full = False
        self.saved: list[str] = []

    def save(self, lines: list[str], summary: dict[str, Any], screen: dict[str, Any] | None = None) -> None:
        if self.full:
            raise OSError("the disk is full")
        self.saved.extend(lines)


def started(entry: str) -> tuple[Controller, FlakySaver, Table]:
    saver = FlakySaver()
    at = table(entry, seed=4, saver=saver)
    read_notices(at.controller)
    return at.controller, saver, at


def test_a_keyed_ballot_that_was_not_saved_is_kept_and_the_next_pad_ok_saves_it() -> None:
    controller, saver, _table = started("keypads")
    state = controller.state
    assert state is not None and state.phase == "ballot"
    choice = state.legal(0)[0]
    saver.full = True
    press(controller, "1", f"area:{AREAS[choice.area]}")  # type: ignore[union-attr]
    for value in choice.markers:  # type: ignore[union-attr]
        press(controller, "1", f"marker:{value}")
    press(controller, "1", "ok")
    assert "error" in controller.screen().tags and "press ok and try again" in controller.screen().text()
    kept = controller.keying.keypad[0]
    assert kept.area == choice.area and sorted(kept.markers) == sorted(choice.markers), "the keyed ballot is kept"
    assert controller.state is not None and not controller.state.locked_in(0)
    saver.full = False
    press(controller, "2", "ok")  # another pad's ok does not dismiss the notice
    assert "error" in controller.screen().tags
    press(controller, "1", "ok")  # try again: this ok is the player's, not the notice's
    assert controller.state.locked_in(0), "locked in"
    assert 0 not in controller.keying.keypad
    assert "error" in controller.screen().tags, "only the host dismisses the notice"
    press(controller, "host", "ok")
    assert "error" not in controller.screen().tags


def test_a_private_ballot_that_was_not_saved_stays_on_its_menu() -> None:
    controller, saver, table = started("private")
    while "stage:markers" not in controller.screen().tags:
        table.turn()
    turn = controller.keying.private
    assert turn is not None
    source = controller.source_of(turn.seat)
    press(controller, source, "ok")  # tick the first marker
    saver.full = True
    assert turn.marker_menu is not None
    while turn.marker_menu.current.value is not None:
        press(controller, source, "right")
    press(controller, source, "ok")  # Done: refused
    assert "error" in controller.screen().tags
    press(controller, source, "ok")  # the player's ok does not dismiss it (nor does anything happen behind it)
    assert "error" in controller.screen().tags and controller.keying.private is turn
    saver.full = False
    press(controller, "host", "ok")
    assert controller.keying.private is turn and turn.marker_menu is not None and turn.marker_menu.chosen
    press(controller, source, "ok")  # Done again: saved
    assert controller.state is not None and controller.state.locked_in(turn.seat)


@pytest.mark.parametrize("held", [True, False])
def test_a_marker_key_gives_the_same_feedback_whether_or_not_its_value_is_held(held: bool) -> None:
    """rules.md 11.1: what a player still holds is secret; a beep for a value they lack would tell the table."""
    controller, _saver, _table = started("keypads")
    state = controller.state
    assert state is not None
    mine = private_view(state, 0).markers
    value = 3 if held else 9
    if not held:
        gone = [v for v in range(4) if v not in mine]
        if not gone:  # take every marker of one value out first, as earlier rounds would have
            state._markers[4 * 0 + 3] = 0
            gone = [3]
        value = gone[0]
    controller.take_effects()
    press(controller, "1", f"marker:{value}")
    effects = controller.take_effects()
    assert not [e for e in effects if e.kind == "beep"], effects
    # None left is refused on the key's own LED alone (docs/pad-protocol.md, "Keying a ballot").
    assert effects == [Effect("led", "1", f"marker:{value}", "on" if held else "blink")]


class ChanceRefused(FlakySaver):
    """Refuses the chance lines alone while ``full`` is set: the disk fills up just as a year's order is drawn."""

    def save(self, lines: list[str], summary: dict[str, Any], screen: dict[str, Any] | None = None) -> None:
        if self.full and any('"shuffle"' in line for line in lines):
            raise OSError("the disk is full")
        self.saved.extend(lines)


def test_a_shuffle_the_store_refused_tells_no_order_and_is_drawn_again_on_the_next_press() -> None:
    """rules.md 5.3: the next year's order is chance, drawn once the year's end is shown. A shuffle that could not be
    saved was never shown (game.py): no notice tells its order, and the next press draws it again and tells it."""
    saver = ChanceRefused()
    at = table("keypads", seed=4, saver=saver)
    controller = at.controller
    read_notices(controller)
    saver.full = True
    play_until(at, lambda: bool(controller.notices) and controller.notices[0].tag == "error")
    state = controller.state
    assert state is not None and state.chance_awaited() and state.year == 1, "refused at the first year's end"
    assert saver.saved == controller.record[1:], "every line the game has, and only those, was saved"
    at_refusal = {line.text for notice in controller.notices for line in notice.lines}
    saver.full = False
    press(controller, "host", "ok")  # "Not saved" read: the settle draws the shuffle again
    assert controller.state is not None and not controller.state.chance_awaited()
    assert '"shuffle"' in controller.record[-1] and saver.saved == controller.record[1:]
    told = {line.text for notice in controller.notices for line in notice.lines} - at_refusal
    assert told, "the year's order is told once it is saved, and was not told before"
