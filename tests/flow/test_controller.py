"""The controller's own behaviour: setup, undo (rules.md 11.4), help, board check, cues."""

from __future__ import annotations

import random

from companion.engine import snapshot
from companion.flow.autoplay import Table
from companion.flow.controller import Controller, Effect
from companion.flow.undo_chain import undo_blocker
from tests.flow.builders import board_page, play_until, press, resumed_at, started


def clear_notices(table: Table) -> None:
    while table.controller.notices:
        table.press("host", "ok")


def test_setup_colours_seats_and_start() -> None:
    controller = Controller(random.Random(1))
    press(controller, "host", "ok")
    assert controller.stage == "setup", "no game with nobody"
    for pad in ("3", "1", "2"):
        press(controller, pad, "ok")
    assert controller.players == ("red", "blue", "green")
    press(controller, "1", "right")  # pad 1 (blue) takes the next free colour
    assert controller.players == ("red", "yellow", "green")
    press(controller, "4", "ok")
    press(controller, "4", "back")  # and leaves again
    assert len(controller.seats.joined) == 3
    assert "ok: start" in controller.screen().footer
    press(controller, "host", "right")
    assert controller.seats.entry == "keypads"
    press(controller, "host", "ok")
    assert controller.stage == "game" and controller.record[0].startswith('{"doge": 1, "players": ["red", "yellow"')
    assert [s.source_of(i) for s in [controller] for i in range(3)] == ["3", "1", "2"], "seat order = join order"
    assert len(controller.record) == 3, "header and the two shuffles"


def decide_once(controller: Controller, table: Table) -> tuple[dict[str, object], int]:
    """Play on to a decision screen and make one decision there; return the snapshot and record length before it."""
    play_until(table, lambda: "decision" in controller.screen().tags)
    assert controller.state is not None
    before, length = snapshot(controller.state), len(controller.record)
    while len(controller.record) == length:
        screen = controller.screen()
        table.pick(screen, table.source(screen.tags[1][9:]))
    return before, length


def test_undo_needs_a_confirm_and_restores_the_state_exactly() -> None:
    controller, table = started()
    for _ in range(200):
        before, length = decide_once(controller, table)
        if undo_blocker(controller) is None:
            break
    else:
        raise AssertionError("no undoable decision in 200 tries")
    press(controller, "host", "back", "hold")
    assert "undo" in controller.screen().tags and controller.confirm_undo
    press(controller, "host", "back")  # keep it
    assert len(controller.record) == length + 1 and not controller.confirm_undo
    press(controller, "host", "back", "hold")
    press(controller, "host", "ok")
    assert controller.state is not None
    assert snapshot(controller.state) == before and len(controller.record) == length
    clear_notices(table)  # the table puts the board back
    assert "decision" in controller.screen().tags


def test_a_decision_that_opened_the_next_count_may_be_undone_until_the_count_is_shown() -> None:
    """rules.md 11.4.1: while its own board notice is up, nothing it made public has been shown."""
    controller, table = started(seed=3)
    for _ in range(200):
        before, length = decide_once(controller, table)
        if any(what == "count" for what, _which in controller.history[-1].reveals):
            break
    else:
        raise AssertionError("no election ended in 200 decisions")
    assert controller.notices[0].tag == "instructions" and "count" in controller.notices[1].tag
    press(controller, "host", "back", "hold")
    assert controller.confirm_undo, controller.screen().text()
    press(controller, "host", "ok")
    assert controller.state is not None and snapshot(controller.state) == before and len(controller.record) == length
    clear_notices(table)
    decide_once(controller, table)  # decided again; its board notice read: the count is on the screen now
    while controller.notices[0].tag == "instructions":
        press(controller, "host", "ok")
    press(controller, "host", "back", "hold")
    assert not controller.confirm_undo and "cannot be undone" in controller.screen().text()
    assert len(controller.record) == length + 1


def test_11_4_4_a_rounds_last_ballot_is_final_once_its_reveal_is_shown() -> None:
    controller = resumed_at(lambda state: state.round == 2)
    assert controller.state is not None
    assert controller.history[-1].reveals == (("ballots", 1),), "the last ballot of round 1 revealed the round"
    length = len(controller.record)
    before = snapshot(controller.state)
    press(controller, "host", "back", "hold")
    assert not controller.confirm_undo
    assert "cannot be undone" in controller.screen().text()
    press(controller, "host", "ok")
    assert len(controller.record) == length and snapshot(controller.state) == before


def test_undo_a_locked_in_ballot_before_the_reveal() -> None:
    controller, table = started("keypads")
    clear_notices(table)
    press(controller, "2", "area:castello")
    press(controller, "2", "marker:3")
    press(controller, "2", "ok")
    assert controller.state is not None and controller.state.locked_in(1)
    assert "Blue: locked in" in controller.screen().text()
    press(controller, "host", "back", "hold")
    assert "Undo Blue's ballot for this round?" in controller.screen().text()
    assert "castello" not in controller.screen().text().lower(), "the confirm screen shows nothing of the ballot"
    press(controller, "host", "ok")
    assert not controller.state.locked_in(1) and "Blue: choosing" in controller.screen().text()


def test_help_shows_the_rule_behind_the_screen() -> None:
    controller = resumed_at(lambda state: state.phase == "election" and bool(state.awaiting()))
    rule = controller.screen().rule
    press(controller, "host", "left")
    help_screen = controller.screen()
    assert "help" in help_screen.tags and help_screen.title == f"Rule {rule}" and len(help_screen.text()) > 40
    press(controller, "host", "ok")
    assert "decision" in controller.screen().tags


def test_board_check_pages_through_the_public_state() -> None:
    controller = resumed_at(lambda state: state.year == 2)
    press(controller, "host", "back")
    titles = []
    for _ in range(7):
        titles.append(controller.screen().title)
        press(controller, "host", "right")
    assert titles == [
        "Board", "Board: districts", "Board: advisors", "Board: supplies", "The race", "Voting order", "Year 2 so far"
    ]  # fmt: skip
    assert controller.screen().title == "Abandon this game?", "after the last page: the way out of the game"
    press(controller, "host", "right")
    assert controller.screen().title == "Board" and controller.screen().board, "pages wrap around to the map"
    press(controller, "3", "ok")  # pads do nothing while the board check is open
    press(controller, "host", "back")
    assert board_page(controller) is None


def test_cues_light_the_acting_players_pad_and_can_be_turned_off() -> None:
    controller, table = started()
    controller.take_effects()
    clear_notices(table)
    effects = controller.take_effects()
    assert Effect("led", "1", "turn", "on") in effects and Effect("beep", "1") in effects
    quiet, quiet_table = started(seed=2)
    quiet.cues.enabled = False
    quiet.take_effects()
    clear_notices(quiet_table)
    assert [e for e in quiet.take_effects() if e.target == "turn" or e.kind == "beep"] == []


def test_keypad_led_echo_goes_only_to_the_players_own_pad() -> None:
    controller, table = started("keypads")
    clear_notices(table)
    controller.take_effects()
    press(controller, "3", "area:san_polo")
    press(controller, "3", "marker:2")
    echoes = [e for e in controller.take_effects() if e.kind == "led" and e.target != "turn"]
    assert echoes == [Effect("led", "3", "area:san_polo", "on"), Effect("led", "3", "marker:2", "on")]
    assert controller.state is not None and controller.state.phase == "ballot"


def test_a_keypad_ballot_cannot_be_illegal() -> None:
    controller, table = started("keypads")
    clear_notices(table)
    press(controller, "1", "ok")  # nothing chosen: refused with a beep
    assert controller.state is not None and not controller.state.locked_in(0)
    for _ in range(3):
        press(controller, "1", "marker:3")  # only two 3s: the third press is refused, the two stay
    assert controller.keying.keypad[0].markers == [3, 3]
    for _ in range(2):
        press(controller, "1", "back")  # back takes them back, one a press
    press(controller, "1", "area:quarantia")
    press(controller, "1", "ok")
    assert not controller.state.locked_in(0), "no marker is picked any more"
    press(controller, "1", "marker:1")
    press(controller, "1", "ok")
    assert controller.state.locked_in(0)
