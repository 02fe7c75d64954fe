"""Players who know no rules do what the screen tells them, and their board stays the game's board.

Whole games through button events only. The simulated table reads every notice the shared screen shows (a round's
reveal too, with ballots on keypads), understands each board sentence as a player would
(tests/sentences.py) and carries it out on the table twin. Whenever no notice is pending, the twin must equal the
game's public snapshot; and the sentences read, in order, must be exactly those rendered from the engine's changes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import Count, Replay, snapshot
from companion.engine.changes import PutMarkers
from companion.flow.autoplay import NOTICE_TAGS, Table
from companion.flow.board_text import change_text, markers_text
from companion.flow.controller import Controller
from companion.flow.notice import Notice
from display.pages import paginate
from tests.sentences import LED, read_sentence
from tests.twin import TableTwin


class Reader:
    """A table that knows no rules, reading the board sentences off the shared screen: each notice, each part of one
    too long for the display (or the lines added to it since it was read) once it is on top, carried out on the
    table twin; with no notice up, the twin must be the game's board."""

    def seen(self, notice: Notice) -> bool:
        return any(notice.entry == key for key, _part in self._seen)

    def __init__(self) -> None:
        self.twin: TableTwin | None = None
        self.read: list[str] = []
        self.checks = 0
        self._seen: dict[tuple[int, None], tuple[object, frozenset[int]]] = {}  # a notice: the lines read of it

    def follow(self, lines: Any) -> None:
        assert self.twin is not None
        for line in lines:
            change = read_sentence(line.text)
            if change is not None:
                text = line.text.replace("\u00a0", " ").removeprefix("✓ ")  # glued names, ticks
                self.read.append(LED.sub("", text, count=1))  # a card led by the election that turned it
                self.twin.follow([change])

    @staticmethod
    def _numbered(controller: Controller, screen: Any) -> list[tuple[int, Any]]:
        """The shown part's lines with their places in the whole screen (ticks, parts and re-cuts move nothing; a
        line cut between two parts is followed whole where its first words are shown)."""
        whole = controller.parts.whole
        if screen.part is None or whole is None:
            return list(enumerate(screen.lines))
        parts = paginate(whole, controller.parts.size, controller.parts.text_size)  # type: ignore[arg-type]
        at, places = 0, []
        for part in parts:
            places.append([])
            for line in part.lines:
                text = whole.lines[at].text
                places[-1].append((at, whole.lines[at]))
                if line.text == text or not text.startswith(line.text):  # a whole line, or a cut one's rest
                    at += 1
        return places[screen.part[0] - 1]

    def look(self, controller: Controller) -> None:
        state = controller.state
        if state is not None and self.twin is None:
            self.twin = TableTwin(state.players)
        screen = controller.screen()
        if set(screen.tags) & NOTICE_TAGS and controller.notices:
            top = controller.notices[0]
            _notice, read = self._seen.get((top.entry, None), (top, frozenset()))
            shown = self._numbered(controller, screen)
            self._seen[(top.entry, None)] = (top, read | {n for n, _line in shown})
            self.follow([line for n, line in shown if n not in read])
        if self.twin is not None and not controller.notices and state is not None:
            assert self.twin.differences(snapshot(state)) == [], controller.record[-1]
            self.checks += 1


class ReadingTable(Table):
    """The autoplay table, reading the board sentences off the shared screen before it presses anything."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reader = Reader()

    @property
    def twin(self) -> TableTwin | None:
        return self.reader.twin

    @twin.setter
    def twin(self, twin: TableTwin | None) -> None:
        self.reader.twin = twin

    @property
    def read(self) -> list[str]:
        return self.reader.read

    @property
    def checks(self) -> int:
        return self.reader.checks

    def look(self) -> None:
        self.reader.look(self.controller)

    def turn(self) -> None:
        self.look()
        super().turn()


def expected_sentences(record: list[str], computer_colours: tuple[str, ...] = ()) -> list[str]:
    """Every board sentence the record's changes render, as the notices word them (a round's reveal in short)."""
    replay = Replay()
    texts = []
    for line in record:
        events = replay.feed_with_changes(line)
        assert replay.state is not None
        players = replay.state.players
        texts += [
            markers_text(e, players, computer_colours)
            if type(e) is PutMarkers
            else change_text(e, players, computer_colours)
            for e in events
            if not isinstance(e, Count)
        ]
    return texts


def seat_and_start(table: Table, bots: int) -> None:
    """Setup by buttons: the table's pads join, the host adds ``bots`` computer players, picks keypads if the table
    has them, and starts."""
    for pad in table.pads:
        table.press(pad, "ok")
    for _bot in range(bots):
        table.press("host", "back")  # a computer player takes the next seat
    if table.keypads:
        table.press("host", "right")
    table.press("host", "ok")


@pytest.mark.parametrize(
    ("seed", "players", "keypads", "bots"),
    [(31, 3, False, 0), (32, 4, True, 0), (33, 3, True, 1), (34, 4, False, 2)],
)
def test_following_the_screen_literally_rebuilds_the_board(seed: int, players: int, keypads: bool, bots: int) -> None:
    controller = Controller(random.Random(seed))
    controller.sync_bots = True
    pads = [str(n) for n in range(1, players - bots + 1)]
    table = ReadingTable(controller, random.Random(seed + 1), pads, keypads)
    seat_and_start(table, bots)
    assert controller.stage == "game" and len(controller.players) == players
    table.play()
    state = controller.state
    assert state is not None and state.is_over and table.twin is not None
    assert table.twin.differences(snapshot(state)) == []
    assert table.read == expected_sentences(controller.record, controller.seats.computer_colours)
    assert table.checks > 100 and len(table.read) > 50
