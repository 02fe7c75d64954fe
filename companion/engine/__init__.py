"""The rules engine of Doge: pure standard-library Python, no I/O, no clock, no randomness of its own.

Everything else (screens, pads, bots, the store) talks to it through a :class:`State`, what it awaits
(:meth:`State.awaiting`, :meth:`State.chance_awaited`), the legal choices (:meth:`State.legal`), and record lines.

>>> from companion.engine import State, snapshot
>>> state = State(["red", "blue", "green"])
>>> state.shuffle(range(7)); state.shuffle(range(7))
>>> snapshot(state)["phase"], len(state.legal(0))
('ballot', 273)
"""

from .areas import (
    ALL_AREAS,
    AREA_INDEX,
    AREA_NAMES,
    AREAS,
    DISTRICTS,
    FIRST_PALACE_COST,
    MAX_PALACES,
    QUARANTIA,
    area_name,
    rounds_per_year,
)
from .changes import Change, change_record
from .decisions import Abstain, Advisor, Ballot, Build, Decision, HouseMove, Houses, Move
from .errors import IllegalDecisionError, MalformedLineError, RecordError
from .lines import Read
from .parse import parse_header, parse_line
from .position import set_up
from .record import (
    DecisionLine,
    Header,
    LineError,
    Replay,
    ShuffleLine,
    dump_header,
    dump_line,
    replay_text,
    split_lines,
)
from .state import Applied, State, revealed_by
from .tasks import PHASES, Awaited, AwaitedKind, Condition, Count, Event, Outcome, Phase, Revealed, TieBreak
from .views import PrivateView, private_view, snapshot

__all__ = [
    "ALL_AREAS",
    "AREAS",
    "AREA_INDEX",
    "AREA_NAMES",
    "DISTRICTS",
    "FIRST_PALACE_COST",
    "MAX_PALACES",
    "PHASES",
    "QUARANTIA",
    "Abstain",
    "Advisor",
    "Applied",
    "Awaited",
    "AwaitedKind",
    "Ballot",
    "Build",
    "Change",
    "Condition",
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
    "Outcome",
    "Phase",
    "PrivateView",
    "Read",
    "RecordError",
    "Replay",
    "Revealed",
    "ShuffleLine",
    "State",
    "TieBreak",
    "area_name",
    "change_record",
    "dump_header",
    "dump_line",
    "parse_header",
    "parse_line",
    "private_view",
    "replay_text",
    "revealed_by",
    "rounds_per_year",
    "set_up",
    "snapshot",
    "split_lines",
]
