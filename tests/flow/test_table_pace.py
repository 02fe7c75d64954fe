"""The table's pace, not the host's: each player confirms their own board change on their own pad ("done"),
the host's ok still confirms anything, a count a computer player acts on does not stop play, a player's ok is never
taken for "done" when it answers something else of theirs, and the host presses a whole scripted game at most half
as often as before, at both display sizes."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from companion.engine import AREAS
from companion.flow.narration import ANYONE, Notice, reveal_notice
from companion.flow.views import keep_names_together, notice_view
from companion.i18n import set_language
from companion.web.views import seat_view
from display.pages import paginate
from tests.helpers import same_notice, still_queued
from tests.scripted_table import BEFORE, RECORDS, ScriptedTable, game, record_hash


@pytest.mark.parametrize("size", list(BEFORE))
def test_the_host_presses_a_game_at_most_half_as_often_as_before(size: tuple[int, int]) -> None:
    """The same three games as measured before (the records are equal), with the players confirming on their pads:
    what is left to the host is setup, the reminder, year 1's order and the ending pages."""
    for seed in range(3):
        table = game(seed, size)
        assert record_hash(table) == RECORDS[seed], "the same game as the figure measured on main d62f8cd"
        assert sum(table.host_presses.values()) * 2 <= BEFORE[size][seed], table.host_presses


def first(table: ScriptedTable, wanted: object) -> Notice:
    """Play on (confirming as the screen asks) until the notice on top is one ``wanted`` accepts."""
    controller = table.controller
    for _step in range(20_000):
        if controller.notices and wanted(controller.notices[0]):  # type: ignore[operator]
            return controller.notices[0]
        table.turn()
    raise AssertionError("never got there")


def test_a_board_notice_waits_for_its_owners_own_ok_and_the_host_ok_confirms_it_all() -> None:
    table = ScriptedTable(4, bots=0)
    table.setup()
    controller = table.controller
    notice = first(table, lambda n: n.tag == "instructions" and len(n.owners) == 1)
    owner = controller.players.index(notice.owners[0])
    other = (owner + 1) % len(controller.players)
    assert controller.screen().footer == "done? ok on your pad"
    assert seat_view(controller, controller.source_of(owner))["act"], "the owner's phone shows its ok"
    assert not seat_view(controller, controller.source_of(other))["act"]
    table.press(controller.source_of(other), "ok")
    assert same_notice(controller.notices[0], notice), "another player's ok is not theirs to give"
    table.press(controller.source_of(owner), "ok")
    assert not still_queued(notice, controller.notices), "done"
    again = first(table, lambda n: n.tag == "instructions" and n.owners)
    table.press("host", "ok")
    assert not still_queued(again, controller.notices), "the host's ok confirms any notice"


def ok_under_a_reveal(keys: int) -> tuple[str, bool, bool]:
    """The shared screen's text after a waited-for player keys ``keys`` (0: nothing, 1: an area, 2: a whole ballot)
    and presses ok under a round's reveal; whether that said done; whether it locked a ballot in."""
    table = ScriptedTable(2, bots=0)
    table.setup()
    controller = table.controller
    reveal = first(table, lambda n: n.tag == "reveal")
    state = controller.state
    assert state is not None and state.phase == "ballot"
    seat = controller.players.index(reveal.waiting[0])
    source = controller.source_of(seat)
    ballot = state.legal(seat)[0]
    if keys:
        table.press(source, f"area:{AREAS[ballot.area]}")  # type: ignore[attr-defined]
    if keys == 2:
        for value in ballot.markers:  # type: ignore[attr-defined]
            table.press(source, f"marker:{value}")
    table.press(source, "ok")
    locked = controller.state
    assert locked is not None
    now = next(n for n in controller.notices if same_notice(n, reveal))  # the reveal as it is now: a value
    done = controller.players[seat] not in now.waiting and controller.screen().lines[seat].text.startswith("✓ ")
    return controller.screen().text(), done, locked.locked_in(seat)


def test_a_players_ok_under_a_reveal_is_done_whatever_they_have_keyed() -> None:
    """With keypads, a round's reveal is read while the next round is keyed in. A player's ok always says done for
    them, and the shared screen reads the same whether they keyed part of a ballot or nothing (rules.md 11:
    an ok that ticked only with nothing keyed told the table whether they had keyed anything); a whole ballot keyed
    is locked in as well."""
    nothing, part, whole = (ok_under_a_reveal(keys) for keys in (0, 1, 2))
    assert nothing[1] and part[1] and whole[1], "done, ticked"
    assert (nothing[2], part[2], whole[2]) == (False, False, True), "a whole ballot is locked in too"
    assert nothing[0] == part[0], "the shared screen cannot tell an area keyed from nothing"


def test_a_count_a_computer_acts_on_does_not_stop_play_and_its_move_joins_it() -> None:
    """Without a script the computer thinks on its own: the count it acts on is on the screen meanwhile, waiting
    for nobody; its move then joins that notice, which one ok (anyone's) confirms."""
    table = ScriptedTable(3)
    table.controller.sync_bots = False
    table.setup()
    controller = table.controller
    bots = random.Random(1)
    for _step in range(20_000):
        if controller.notices and controller.notices[0].passive:
            break
        if (seat := controller.pending_bot()) is not None:
            decision = controller.bots[seat].decide(controller.bot_view(seat, bots))
            controller.apply_bot(seat, decision, len(controller.record))
        else:
            table.turn()
    passive = controller.notices[0]
    assert passive.tag == "count" and not passive.owners and controller.screen().footer == "the computer is deciding"
    seat = controller.pending_bot()
    assert seat is not None, "the computer player acts under its count"
    count_lines = passive.lines
    controller.apply_bot(seat, controller.bots[seat].decide(controller.bot_view(seat, bots)), len(controller.record))
    top = controller.notices[0]
    assert same_notice(top, passive) and top.lines[: len(count_lines)] == count_lines
    if len(top.lines) > len(count_lines):  # it moved pieces: they are named under the count, a computer's
        assert top.lines[len(count_lines)].text == "On the board:" and ANYONE in top.owners
        assert "(computer)" in top.lines[len(count_lines) + 1].text
    human = next(s for s in range(len(controller.players)) if s not in controller.bots)
    table.press(controller.source_of(human), "ok")
    assert not controller.notices or not same_notice(controller.notices[0], top)


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_a_rounds_reveal_at_160x128_is_cut_once_whoever_has_said_done(language: str) -> None:
    """The longest round there is: four players, a computer among them, the longest area names. Room for each tick
    is kept, so no "done" moves a line to another part, in any order: one part in English; two in German and
    Italian, whose longer lines (the markers named: "Marke", "segnalino") take two rows each (the parts turn
    by themselves: an ok is never a page turn)."""
    from companion.engine.changes import PutMarkers

    set_language(language)
    try:
        players = ("red", "blue", "green", "yellow")
        markers = [PutMarkers(seat, area, 4) for seat, area in ((0, 0), (1, 5), (2, 6), (3, 2))]
        notice = reveal_notice(markers, players, ("yellow",), 3)
        assert len(notice.waiting) == 4
        cuts = set()
        for done in itertools.chain.from_iterable(itertools.permutations(notice.owners, n) for n in range(4)):
            notice = replace(notice, confirmed=frozenset(done))
            parts = paginate(keep_names_together(notice_view(notice, ("yellow",))), (160, 128))
            cuts.add(tuple(len(part.lines) for part in parts))
        assert len(cuts) == 1, cuts
        assert len(cuts.pop()) == (1 if language == "en" else 2)
    finally:
        set_language("en")
