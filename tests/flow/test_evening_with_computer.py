"""A whole scripted evening with a computer player, as a table that knows no rules lives it: three keypad
players and a computer player; a human's slip undone after the computer moved (one question naming both, the board
put back, last first); a build undone while its board notice is up, and refused once its card was shown; the game to
its end; the next game, offering to skip the introduction, to its end. The table twin reads every notice off the
screen and is the game's board whenever no notice is up and after each game. Then the same key presses, run as a
script by `doge-companion run --script`, play the same evening."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion.engine import Build, snapshot
from companion.flow.undo_chain import undo_chain
from tests.flow.test_board_sentences import Reader
from tests.flow.test_taking_back import build_that_ends_an_election
from tests.helpers import without_stamps
from tests.scripted_table import ScriptedTable

ROOT = Path(__file__).resolve().parents[2]
SEED = 3  # a seed whose first year has a human slip the computer answered, and a human build ending an election
NAMES = {"red": "Red", "blue": "Blue", "green": "Green", "yellow": "Yellow"}


class ReadingScript(ScriptedTable):
    """The scripted table, reading the screen onto the table twin before each thing it does."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, (320, 240))  # the default display, as the script is run below
        self.reader = Reader()

    def turn(self) -> None:
        self.reader.look(self.controller)
        super().turn()

    def tick(self) -> None:
        super().tick()
        self.reader.look(self.controller)

    def until(self, moment: object) -> None:
        for _step in range(20_000):
            self.reader.look(self.controller)
            if moment():  # type: ignore[operator]
                return
            assert self.controller.stage == "game", "the game ended first"
            super().turn()
        raise AssertionError("never got there")


def a_human_slip_the_computer_answered(table: ReadingScript) -> bool:
    """The computer's decision was made after a human's, neither shown anything yet, the computer's notice read."""
    controller = table.controller
    chain = undo_chain(controller)
    notices = controller.notices
    read = not notices or (notices[0].tag == "instructions" and table.reader.seen(notices[0]))
    return read and not controller.overlays and not isinstance(chain, str) and len(chain) == 2


def test_11_4_2_a_whole_evening_with_a_computer_player_then_the_same_evening_as_a_script(tmp_path: Path) -> None:
    table = ReadingScript(SEED)
    table.setup()
    controller = table.controller
    computer = next(iter(controller.bots))

    # A human's slip, undone after the computer moved: one question names both; the board goes back, last first.
    table.until(lambda: a_human_slip_the_computer_answered(table))
    chain = undo_chain(controller)
    assert not isinstance(chain, str)
    bot_step, human = chain
    assert bot_step.seat == computer and human.seat != computer
    table.press("host", "back", "hold")
    question = controller.screen().text()
    assert f"Undo {NAMES[controller.players[human.seat]]}'s decision: " in question, question
    assert f"Taken back with it: {NAMES[controller.players[computer]]} (computer): " in question, question
    table.press("host", "ok")
    assert controller.state is not None and snapshot(controller.state) == snapshot(human.before)
    assert controller.state.awaiting()[0].player == human.seat, "the human decides again, not the computer"
    undone = controller.notices[-1]
    assert undone.title == "Undone" and "with the computer's after it" in undone.lines[0].text
    table.until(lambda: not controller.notices)  # the table put the board back: the twin is the board again

    # A build that ends an election, undone while its notice is up; built again, refused once its card is shown.
    table.until(lambda: build_that_ends_an_election(controller))
    state = controller.state
    assert state is not None
    builder, before = state.awaiting()[0].player, snapshot(state)
    table.choose(builder, Build(True))
    table.reader.look(controller)  # the table reads the board notice (and does it)
    table.press("host", "back", "hold")
    assert controller.confirm_undo and "card" not in controller.screen().text()
    table.press("host", "ok")
    assert snapshot(controller.state) == before  # type: ignore[arg-type]
    table.until(lambda: not controller.notices)
    table.choose(builder, Build(True))
    card = next(which for what, which in controller.history[-1].reveals if what == "card")
    table.until(lambda: controller.notices[0].tag != "instructions")  # done: the card and the count are shown
    table.press("host", "back", "hold")
    refusal = controller.screen().text().replace("\u00a0", " ")
    assert "cannot be undone" in refusal and "next year's card" in refusal and not controller.confirm_undo
    from companion.engine.areas import AREA_NAMES

    assert f"next year's card {AREA_NAMES[card]}" in refusal

    # The rest of the game, then the next one, skipping the introduction.
    table.play()
    assert table.reader.twin is not None and table.reader.twin.differences(snapshot(controller.state)) == []  # type: ignore[arg-type]
    first = list(controller.record)
    table.press("host", "back")
    table.press("host", "ok")
    table.press("host", "ok")
    assert controller.screen().title == "Set up the board" and controller.screen().tags == ("reminder",)
    table.reader.twin = None  # the table clears its board, as that page says
    table.play()
    table.ending()
    state = controller.state
    assert state is not None and state.is_over and table.reader.twin is not None
    assert table.reader.twin.differences(snapshot(state)) == []
    assert table.reader.checks > 200

    # The same key presses as a script: the same evening (the second game's record, stamps aside).
    script = tmp_path / "evening.txt"
    script.write_text("".join(f"{event}\n" for event in table.script))  # the scripted-input spelling
    record = tmp_path / "evening.jsonl"
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "no-config"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "companion.cli", "run", "--hardware", "mock", "--seed", str(SEED)]
    result = subprocess.run(
        [*command, "--script", str(script), "--record", str(record)], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert without_stamps(record.read_text().splitlines()) == without_stamps(controller.record)
    assert first != controller.record
