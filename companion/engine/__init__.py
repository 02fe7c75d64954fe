"""The rules engine of Doge: pure standard-library Python, no I/O, no clock, no randomness of its own.

Everything else (screens, pads, bots, the store) talks to it through a :class:`State`, what it awaits
(:meth:`State.awaiting`, :meth:`State.chance_awaited`), the legal choices (:meth:`State.legal`), and record lines.

>>> from companion.engine import State, snapshot
>>> state = State(["red", "blue", "green"])
>>> state.shuffle(range(7)); state.shuffle(range(7))
>>> snapshot(state)["phase"], len(state.legal(0))
('ballot', 273)
"""

from .areas import AREA_INDEX, AREA_NAMES, AREAS, QUARANTIA, area_name
from .changes import Change, change_record
from .decisions import Abstain, Advisor, Ballot, Build, Decision, HouseMove, Houses, Move
from .errors import IllegalDecisionError, MalformedLineError, RecordError
from .record import (
    DecisionLine,
    Header,
    LineError,
    Replay,
    ShuffleLine,
    dump_header,
    dump_line,
    parse_header,
    parse_line,
    replay_text,
    split_lines,
)
from .state import BALLOT, ELECTION, OVER, PHASES, SETUP, YEAR_END, Awaited, Count, Event, State
from .views import PrivateView, private_view, snapshot

__all__ = [
    "AREAS",
    "AREA_INDEX",
    "AREA_NAMES",
    "BALLOT",
    "ELECTION",
    "OVER",
    "PHASES",
    "QUARANTIA",
    "SETUP",
    "YEAR_END",
    "Abstain",
    "Advisor",
    "Awaited",
    "Ballot",
    "Build",
    "Change",
    "Count",
    "Decision",
    "DecisionLine",
    "Event",
    "Header",
    "HouseMove",
    "Houses",
    "IllegalDecisionError",
    "LineError",
    "MalformedLineError",
    "Move",
    "PrivateView",
    "RecordError",
    "Replay",
    "ShuffleLine",
    "State",
    "area_name",
    "change_record",
    "dump_header",
    "dump_line",
    "parse_header",
    "parse_line",
    "private_view",
    "replay_text",
    "snapshot",
    "split_lines",
]
