"""rules.md 11.4.1: a decision may be taken back while nothing it made public has been shown. What one decision
reveals (the next count, a turned card) reaches a screen only after the notice of the decision's own board changes is
done with; until then no way out of the device shows it: not the LCD, the board check, the phones and the table view,
a refusal, an export, nor a shuffle drawn after it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.engine import AREAS, Build, Count, snapshot
from companion.engine.areas import AREA_NAMES
from companion.engine.changes import TurnCard
from companion.flow.controller import Controller
from companion.flow.modes import BoardCheck
from companion.flow.modes.board_check import VIEWS
from companion.flow.notice_store import restore_screen, screen_state
from companion.flow.shown import open_step, public_length
from companion.flow.undo_chain import undo_blocker
from companion.flow.undo_text import revealed_text
from companion.web.views import public_view
from tests.scripted_table import ScriptedTable


def build_that_ends_an_election(controller: Controller) -> bool:
    """A human is asked to build, and building would end the election: the next card turned, the next area counted."""
    state = controller.state
    if controller.notices or controller.overlays or state is None or state.phase != "election":
        return False
    awaited = state.awaiting()[0]
    if (
        awaited.player in controller.bots
        or awaited.decision != "build"
        or Build(True) not in state.legal(awaited.player)
    ):
        return False
    events = state.copy().apply_with_changes(awaited.player, Build(True))
    return any(type(e) is TurnCard for e in events) and any(isinstance(e, Count) for e in events)


def at_a_build(seeds: range = range(40)) -> ScriptedTable:
    for seed in seeds:
        table = ScriptedTable(seed)
        table.setup()
        table.play(until=lambda c=table.controller: build_that_ends_an_election(c))  # type: ignore[misc]
        if table.controller.stage == "game":
            return table
    raise AssertionError("no human build ended an election")


def built() -> tuple[ScriptedTable, Controller]:
    """A human's build that ended an election, just chosen: its own board notice is up, its card and count wait."""
    table = at_a_build()
    state = table.controller.state
    assert state is not None
    table.choose(state.awaiting()[0].player, Build(True))
    return table, table.controller


def board_check_pages(controller: Controller) -> list[str]:
    """Every page of the board check as it would show now."""
    texts = []
    for page in range(len(VIEWS)):
        board = BoardCheck()
        board.page = page
        controller.overlays.append(board)
        texts.append(controller.screen().text().replace("\u00a0", " "))
        controller.overlays.pop()
    return texts


def test_11_4_1_a_build_that_ends_an_election_is_undone_while_its_notice_is_up_and_its_card_shown_nowhere() -> None:
    table = at_a_build()
    controller = table.controller
    state = controller.state
    assert state is not None
    seat = state.awaiting()[0].player
    before, length = snapshot(state), len(controller.record)
    table.choose(seat, Build(True))
    card = next(which for what, which in controller.history[-1].reveals if what == "card")
    assert controller.notices[0].tag == "instructions", "its own board notice first; the card and the count wait"
    assert f"Take the {AREA_NAMES[card]} card" not in controller.screen().text().replace("\u00a0", " ")
    order = next(text for text in board_check_pages(controller) if text.startswith("Voting order"))
    turned = ", ".join(AREA_NAMES[AREAS.index(a)] for a in before["order"]["next_year"]) or "-"
    assert f"Next year: {turned}" in order.split("\n"), order
    public = public_view(controller)["snapshot"]
    assert public["order"]["next_year"] == before["order"]["next_year"] and public["awaiting"] == []
    assert controller.public_record() == controller.record[:length], "the open line stays on the device"
    table.press("host", "back", "hold")
    question = controller.screen().text()
    assert "undo" in controller.screen().tags and "card" not in question and "revealed" not in question, question
    table.press("host", "ok")
    assert controller.state is not None and snapshot(controller.state) == before and len(controller.record) == length
    undone = controller.notices[0]
    assert undone.title == "Undone"
    assert "Undo whatever of the last notice you already did:" in [line.text for line in undone.lines]


def test_11_4_3_once_its_board_notice_is_done_the_card_is_shown_and_a_refusal_names_only_what_was() -> None:
    table, controller = built()
    step = controller.history[-1]
    table.confirm()  # the builder: done
    top = controller.notices[0]
    assert top.lines[0].text.replace("\u00a0", " ").startswith("Take the "), "the card heads the count it opened"
    assert controller.public_record() == controller.record, "shown: it may leave the device"
    table.press("host", "back", "hold")
    refusal = controller.screen().text().replace("\u00a0", " ").split("\n")
    named = refusal[refusal.index(next(x for x in refusal if "cannot be undone" in x)) + 1 :]
    assert named[: len(step.reveals)] == [revealed_text(item) for item in step.reveals]
    assert controller.notices[1] == top, "the card's notice stays, under the refusal"


def test_the_years_last_decision_draws_no_shuffle_until_its_notice_is_done() -> None:
    """rules.md 11.4.1: chance is drawn only for a decision that can no longer vanish; the year's end and the next
    year's order are then one notice."""
    table = ScriptedTable(1)
    table.setup()
    controller = table.controller
    table.play(until=lambda: controller.state is not None and controller.state.phase == "year_end")
    assert controller.notices[0].tag in ("instructions", "count"), "the year's last decision: its own notice is up"
    shuffles = sum('"shuffle"' in line for line in controller.record)
    assert controller.state is not None and controller.state.chance_awaited()
    while controller.notices[0].tag != "year":
        table.confirm()
    year = controller.notices[0]
    assert sum('"shuffle"' in line for line in controller.record) == shuffles + 1, "drawn once it was final"
    texts = [line.text for line in year.lines]
    assert texts[-3] == f"Year {controller.state.year}'s voting order:", texts  # the new year's, under the old's end
    assert any(text.startswith("Year ") for text in texts), texts


def test_the_games_last_decision_may_be_undone_while_its_notice_is_up() -> None:
    table = ScriptedTable(0)
    table.setup()
    controller = table.controller
    table.play(until=lambda: controller.state is not None and controller.state.is_over)
    assert controller.stage == "game", "over once its last notices are read"
    step = controller.history[-1]
    assert controller.notices[0].tag == "instructions" and step.seat not in controller.bots, "a human's, in seed 0"
    assert "over" not in controller.screen().tags and not controller.overlays
    table.press("host", "back", "hold")
    assert controller.confirm_undo, controller.screen().text()
    table.press("host", "ok")
    assert controller.state is not None and not controller.state.is_over and len(controller.record) == step.length


def test_a_resumed_game_keeps_what_was_shown_and_what_was_not() -> None:
    """After a power cut, the open line is still open (its card still unseen) and a shown one still final."""
    _table, controller = built()
    saved = screen_state(controller.notices)
    assert public_length(saved, len(controller.record)) == len(controller.record) - 1
    resumed = Controller(controller.rng)
    resumed.resume(controller.record, saved)
    assert [(n.title, n.owners, n.reveals, n.seen, n.spoken) for n in resumed.notices] == [
        (n.title, n.owners, n.reveals, n.seen, n.spoken) for n in controller.notices
    ]
    assert all(n.spoken and n.spoken != (n.title,) for n in resumed.notices), "the voice's words are kept (sound.md)"
    assert undo_blocker(resumed) is None, "still open"
    top = replace(restore_screen(saved)[1], seen=True)
    assert public_length(screen_state([top]), len(controller.record)) == len(controller.record)
    assert public_length({"notices": [{"title": "old", "lines": []}]}, 9) == 9, "an older save: all shown"
    old = {"title": "Year 2", "lines": [["Year 2 begins", "small", None]], "rule": None, "tag": "notice", "page": None}
    assert restore_screen({"notices": [old]})[0].spoken == ("Year 2",), "an older save's notice: its title is said"


def test_a_line_is_told_in_two_parts_and_what_it_made_public_comes_after() -> None:
    """Its own board changes first, then the card (heading the count it opened), then the count's own changes,
    one notice for them all; each of the second part's notices carries what it reveals."""
    from companion.engine import QUARANTIA, State
    from companion.engine.changes import AdvisorBack, PlaceHouses
    from companion.flow.narration import narrate

    state = State(("red", "blue", "green"))
    state.shuffle(range(7))
    state.shuffle(range(7))
    count = Count(QUARANTIA, (3, 1, 0), 0, (0,), (1,), (0, 0, 0), (2, 1, 0))
    events = [PlaceHouses(0, 1, 2), TurnCard(4), count, AdvisorBack(0, QUARANTIA, 5), AdvisorBack(1, QUARANTIA, 2)]
    own, told, changes = narrate(events, state, 3, line=7)
    assert (own.tag, own.owners, own.reveals, own.line) == ("instructions", ("red",), (), 7)
    assert told.tag == "count" and told.reveals == (("card", 4), ("count", QUARANTIA)) and told.line == 7
    assert told.lines[0].text.startswith("Take the San Polo card")
    assert changes.owners == ("red", "blue") and len(changes.lines) == 2 and changes.line == 7


def test_while_a_line_is_open_a_table_where_it_revealed_other_things_sees_the_same() -> None:
    """The secrecy twin for what a line made public but no screen has shown yet: the same decision applied to the
    state before it with every secret changed (other unturned cards, other marker values: another card turned,
    another count) must read the same on the LCD, every board-check page, the year so far and the phones' public
    part, until its board notice is done."""
    import copy
    import random

    from companion.flow.decision_text import decided
    from companion.flow.game import _step
    from companion.flow.narration import narrate
    from companion.flow.shown import table_has_seen
    from tests.engine.test_properties import scramble_secrets

    table, controller = built()
    step = controller.history[-1]
    rng = random.Random(4)
    for _attempt in range(50):
        before = scramble_secrets(step.before, rng)
        other = before.copy()
        events = other.apply_with_changes(step.seat, step.decision)
        assert controller.state is not None
        if snapshot(other)["order"]["next_year"] != snapshot(controller.state)["order"]["next_year"]:
            break
    else:
        raise AssertionError("no other card could have been turned")
    twin = copy.copy(controller)  # what the device would hold, had the secrets been those: its own line and notices
    twin.game = copy.copy(controller.game)
    twin.game.state = other
    twin_step = _step(before, step.length, step.line, step.seat, step.decision, events)
    twin.game.history = [*controller.history[:-1], twin_step]
    said = decided(before, step.seat, step.decision)
    twin.between = replace(
        controller.between,
        notices=narrate(events, other, before.round, controller.seats.computer_colours, step.length, said),
    )
    twin.between.top_shown()
    twin.seen = table_has_seen(other, twin.game.history, twin.notices, twin.bots)  # its own, as its step would build
    assert twin.screen() == controller.screen()
    assert board_check_pages(twin) == board_check_pages(controller)
    assert public_view(twin) == public_view(controller)
    table.confirm()  # the builder: done; what the line revealed is shown now, and the two tables part
    twin.between = controller.between
    assert public_view(twin) != public_view(controller)


def test_a_game_stopped_before_its_due_shuffle_was_saved_draws_it_on_resume(tmp_path: Path) -> None:
    """The shuffle after a year's last decision is drawn once that decision is final: a power cut between its notice
    being read and the shuffle being saved leaves the record waiting for chance. Going on draws it, saved like any
    line (the saver is bound to the game before the controller goes on), never "Not saved"."""
    import random

    from companion.app import App
    from companion.flow.autoplay import Table
    from tests.helpers import app_settings

    app = App(app_settings(tmp_path), seed=2)
    try:
        table = Table(app.controller, random.Random(2), ["1", "2", "3"], keypads=True, handle=app.step)
        table.setup()
        controller = app.controller
        while not (controller.state is not None and controller.state.chance_awaited() and controller.stage == "game"):
            table.turn()
        assert open_step(controller.history, controller.notices) is not None, (
            "the year's last decision, its own notice up"
        )
        read = screen_state(controller.notices[1:])  # its notice done; the power went before the shuffle was saved
        app.saver.screen(read)
        length = len(controller.record)
    finally:
        app.close()
    app = App(app_settings(tmp_path), seed=3)
    try:
        assert len(app.controller.record) == length + 1 and '"shuffle"' in app.controller.record[-1]
        assert len(app.store.lines(app.saver.game)) == length + 1  # type: ignore[arg-type]
        assert "error" not in app.controller.screen().tags and app.controller.notices[0].tag == "year"
    finally:
        app.close()
