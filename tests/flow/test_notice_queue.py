"""The notices are frozen values in a queue (flow/between.py): every change is one of the queue's operations, which
puts a new notice in the old one's place and keeps its ``entry`` (what the voice knows it by, flow/announcer.py), so
whoever holds a notice never sees it change under them."""

from __future__ import annotations

import dataclasses

import pytest

from companion.flow.between import Between
from companion.flow.notice import Notice
from display.screen import Line


def count(title: str = "Castello", passive: bool = False) -> Notice:
    return Notice(title, (Line("Red: 3 votes", "normal", "red", result=True),), rule="6.3", tag="count",
                  reveals=(("count", 0),), line=4, passive=passive, spoken=(f"{title}: Red wins.",))  # fmt: skip


def test_a_notice_cannot_be_changed_in_place() -> None:
    notice = count()
    with pytest.raises(dataclasses.FrozenInstanceError):
        notice.seen = True  # type: ignore[misc]
    assert hash(notice) == hash(dataclasses.replace(notice)), "a value: equal notices hash alike"


def test_each_queue_operation_replaces_the_notice_and_keeps_its_entry() -> None:
    first, second = count(), count("San Marco")
    queue: Between[object] = Between([first, second])
    entries = [first.entry, second.entry]
    assert len(set(entries)) == 2, "no two notices share an entry"

    queue.top_shown()
    queue.top_part_shown(1, 3)
    confirmed = queue.confirm_top("red")
    assert confirmed is queue.notices[0] and confirmed.seen and confirmed.confirmed == {"red"}
    assert confirmed.parts == 3 and confirmed.parts_shown == {1}
    assert [n.entry for n in queue.notices] == entries, "the same notices, in the same places"
    assert not first.seen and first.confirmed == frozenset() and first.parts_shown == frozenset(), "held: unchanged"
    assert queue.notices[1] is second, "only the top one changed"

    top = queue.notices[0]
    queue.top_part_shown(1, 3)
    assert queue.notices[0] is top, "a part already noted changes nothing"


def test_a_computers_move_and_a_new_year_join_the_notice_they_belong_to() -> None:
    passive = count(passive=True)
    year = Notice("Year 1 ends", (Line("Take back your markers", "small"),), tag="year", spoken=("Year 1 ends.",))
    queue: Between[object] = Between([passive, year])
    move = Notice("On the board", (Line("Yellow places a house", "normal", "yellow"),), owners=("*",),
                  spoken=("Yellow places a house.",))  # fmt: skip
    assert queue.join_count(move, "On the board:")
    joined = queue.notices[0]
    assert joined.entry == passive.entry and not joined.passive and joined.owners == ("*",)
    assert [line.text for line in joined.lines] == ["Red: 3 votes", "On the board:", "Yellow places a house"]
    assert joined.spoken == ("Castello: Red wins.", "Yellow places a house.")
    assert passive.passive and len(passive.lines) == 1, "the count as it was is unchanged"

    begins = Notice("Year 2", (Line("The order: Castello, San Marco", "small"),), spoken=("Year 2.", "Castello first."))
    queue.add_year([begins])
    assert [n.entry for n in queue.notices] == [passive.entry, year.entry], "onto the year's end: one notice"
    assert queue.notices[1].lines[-1] == begins.lines[0] and queue.notices[1].spoken == (
        "Year 1 ends.",
        "Castello first.",
    )
    assert len(year.lines) == 1


def test_a_passive_count_waits_for_whoever_acts_now() -> None:
    passive = count(passive=True)
    queue: Between[object] = Between([passive])
    queue.wait_for(("blue",))
    now = queue.notices[0]
    assert now.entry == passive.entry and not now.passive
    assert (now.owners, now.by_itself) == ((), True), "a count no card heads goes by itself"
    assert passive.passive, "held: unchanged"
