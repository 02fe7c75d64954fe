"""Always know where the race stands: the year so far, which any player opens with back on their own pad
(and the host finds on the board check), and how close each player is to each victory condition (rules.md 9.2),
never worded like a condition met; only what the table has been shown."""

from __future__ import annotations

import re

from companion.engine import Build, State, set_up
from companion.engine.areas import AREA_NAMES
from companion.flow.narration import standing_text
from tests.flow.test_taking_back import at_a_build
from tests.helpers import RGB
from tests.scripted_table import ScriptedTable


def year_text(table: ScriptedTable, source: str) -> str:
    table.press(source, "back")
    assert "this-year" in table.controller.screen().tags, table.controller.screen()
    return table.controller.screen().text().replace("\u00a0", " ")


def test_a_player_opens_the_year_so_far_on_their_pad_and_closes_it_with_any_key_of_theirs() -> None:
    table = ScriptedTable(5)
    table.setup()
    controller = table.controller
    table.play(until=lambda: controller.state is not None and controller.state.year == 2 and bool(controller.notices))
    state = controller.state
    assert state is not None and state.phase == "ballot" and 1 in (a.player for a in state.awaiting())
    table.press("2", "back")  # keying a ballot, with nothing keyed: back is the ballot's (rules.md 11)
    assert "this-year" not in controller.screen().tags
    table.play(until=lambda: controller.state is not None and controller.state.phase != "ballot")
    text = year_text(table, "2")
    assert text.startswith("Year 2 so far\n") and "Next year so far:" in text and "Palaces this year:" in text
    table.press("3", "ok")  # another player's ok: not theirs to close (it may confirm a notice underneath)
    assert "this-year" in controller.screen().tags
    table.press("2", "left")
    assert "this-year" not in controller.screen().tags
    year_text(table, "1")
    table.press("host", "ok")  # the host's keys close it too
    assert "this-year" not in controller.screen().tags


def test_the_year_so_far_tells_each_count_the_table_has_read_and_none_still_to_come() -> None:
    table = at_a_build()
    controller = table.controller
    state = controller.state
    assert state is not None
    builder = state.awaiting()[0].player
    other = next(s for s in range(len(state.players)) if s not in controller.bots and s != builder)
    pad = controller.source_of(other)

    def area_line(area: str) -> str:
        text = year_text(table, pad)
        table.press(pad, "left")  # any key of that pad closes it
        return next(line for line in text.split("\n") if line.startswith(f"{area}:"))

    table.choose(builder, Build(True))
    area = AREA_NAMES[next(which for what, which in controller.history[-1].reveals if what == "count")]
    waiting = area_line(area)
    assert re.fullmatch(rf"{area}: (markers .*|no markers)", waiting), waiting  # its count is still to come
    table.confirm()  # the builder: done; the count is on the screen now
    counted = area_line(area)
    assert re.fullmatch(rf"{area}: ((Red|Blue|Green|Yellow) \d+(, )?)+|{area}: nobody had a vote", counted), counted


def test_the_race_page_says_how_far_each_player_is_from_each_condition() -> None:
    table = ScriptedTable(6)
    table.setup()
    controller = table.controller
    table.play(until=lambda: controller.state is not None and controller.state.year == 3)
    table.press("host", "back")
    while controller.screen().title != "The race":
        table.press("host", "right")
    text = controller.screen().text().replace("\u00a0", " ")  # each condition kept on one row
    state = controller.state
    assert state is not None
    assert text.split("\n")[1] == "Palaces to go for: all 6 districts · 7 in 5 · 8 in 4"
    for seat, player in enumerate(state.players):
        to_go = " · ".join("-" if more is None else str(more) for _condition, more in state.palaces_to_go(seat))
        line = next(line for line in text.split("\n") if line.startswith(f"{player.capitalize()}: "))
        assert line.startswith(f"{player.capitalize()}: {state.palaces_of(seat)} palace") and line.endswith(to_go)


def test_the_years_end_never_words_a_condition_not_met_like_one_that_is() -> None:
    """Once "Blue: 5 palaces in 5 districts" read like the condition "7 palaces in 5 districts"."""
    state = State(RGB)
    set_up(
        state,
        palaces={"castello": ["blue"], "dorsoduro": ["blue", "red"], "san_marco": ["blue"], "san_polo": ["blue"],
                 "santa_croce": ["blue"], "cannaregio": ["red"]},
    )  # fmt: skip
    blue = standing_text(state, 1).replace("\u00a0", " ")  # the condition is glued: it stays on one row
    assert blue == "5 palaces, 5 districts; 1 more for all 6 districts", blue
    assert not re.search(r"\d+ palaces? in \d+ districts", standing_text(state, 0).replace("\u00a0", " "))
    assert standing_text(state, 2).replace("\u00a0", " ") == "0 palaces, 0 districts; 6 more for all 6 districts"
