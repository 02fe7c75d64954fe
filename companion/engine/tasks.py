"""The small values the engine speaks in: phases, what it awaits, counts, outcomes, and its internal tasks.

An election is resolved as a stack of immutable *tasks* (whose decision is awaited next, and for what); the tasks
are the engine's own business. What the rest of the companion sees of them is an :class:`Awaited`: who decides,
what kind of decision, and the context a screen or a pad needs to ask it (the advisor in question, the district,
how many houses are on offer, the rule), so nothing outside the engine has to look at a task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple, TypeAlias

from .changes import Change, PutMarkers, TurnCard

SETUP, BALLOT, ELECTION, YEAR_END, OVER = range(5)
Phase: TypeAlias = Literal["setup", "ballot", "election", "year_end", "over"]
PHASES: Final[tuple[Phase, ...]] = ("setup", "ballot", "election", "year_end", "over")

AwaitedKind: TypeAlias = Literal["ballot", "advisor", "houses", "build", "move"]
Condition: TypeAlias = Literal["six_districts", "seven_in_five", "eight_in_four"]
TieBreak: TypeAlias = Literal["only", "palaces", "houses", "shared"]


class AdvisorTask(NamedTuple):
    """``player`` decides on one advisor: the district advisor of ``slot``, or a Quarantia advisor (7.2, 7.4)."""

    player: int
    slot: int


class HousesTask(NamedTuple):
    """The players in ``waiting`` may place up to ``offer`` houses in ``district`` (8.2).

    ``together`` marks tied players (10.2.1 step 3, 10.2.2): their palace checks happen at once after all of them
    have placed (8.6). ``placed`` collects those who placed at least one house.
    """

    district: int
    offer: int
    waiting: tuple[int, ...]
    placed: tuple[int, ...]
    together: bool
    rule: str


class BuildsTask(NamedTuple):
    """A simultaneous palace check (8.6): ``waiting`` still answer; ``builders`` said yes."""

    district: int
    waiting: tuple[int, ...]
    builders: tuple[int, ...]


class CheckTask(NamedTuple):
    """A single palace check that allows building (8.4): ``player`` decides whether to build in ``district``."""

    player: int
    district: int


class MovesTask(NamedTuple):
    """``player`` may move up to ``left`` more houses, any district to any other (10.4, 10.5)."""

    player: int
    left: int
    rule: str


Task = AdvisorTask | HousesTask | BuildsTask | CheckTask | MovesTask


class Awaited(NamedTuple):
    """One decision the engine waits for, with what a screen needs to ask it.

    ``decision`` is a record KIND (``advisor`` stands for advisor-or-abstain). ``district`` is where houses go or a
    palace would stand; ``slot`` the advisor in question (a district, or the Quarantia for a Quarantia advisor);
    ``offer`` how many houses may be placed, or moves made; ``together`` that tied players answer at once (8.6,
    10.2.2); ``rule`` the rules.md section that asks it.
    """

    player: int
    decision: AwaitedKind
    district: int | None = None
    slot: int | None = None
    offer: int | None = None
    together: bool = False
    rule: str = ""


class Count(NamedTuple):
    """The public result of an election's count (6.1 to 6.4), kept while that area is being resolved."""

    area: int
    votes: tuple[int, ...]
    winner: int | None
    first: tuple[int, ...]
    runners_up: tuple[int, ...]
    advisor_votes: tuple[int, ...] = ()  # the part of ``votes`` that advisors standing there gave (6.1)
    markers: tuple[int, ...] = ()  # how many markers each player had put there (public since the reveal, 4.3)


class Outcome(NamedTuple):
    """The end of the game (rules.md 9.2 to 9.4), as python-chess's ``Outcome``: data, not sentences.

    ``qualified`` are the players who met a victory condition, ``conditions`` what each player meets (every seat,
    in seat order), ``decided_by`` what chose the winners among the qualified: ``only`` (a single one qualified),
    ``palaces`` (9.4), ``houses`` (9.4, palaces tied) or ``shared`` ([RULING] tied on both), and ``palaces`` and
    ``houses`` the winners' figures that decided it.
    """

    winners: tuple[int, ...]
    qualified: tuple[int, ...]
    conditions: tuple[tuple[Condition, ...], ...]
    decided_by: TieBreak
    palaces: int
    houses: int


class Revealed(NamedTuple):
    """What one line made public (rules.md 11.4: such a line is never undone), as data.

    ``ballots``: a ballot round was revealed; ``counts``: the areas whose votes were counted; ``cards``: the cards
    of next year's order that were turned; ``shuffle``: the line was a shuffle (a new deck order is in play).
    """

    ballots: bool = False
    counts: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    shuffle: bool = False

    @property
    def anything(self) -> bool:
        return self.ballots or bool(self.counts) or bool(self.cards) or self.shuffle


Event = Change | Count
"""What :meth:`State.apply_with_changes` reports: the board changes, and each count where it happens."""


class Applied(NamedTuple):
    """What one line did: the board changes and counts in the order they happened, and what it made public."""

    events: list[Event]
    revealed: Revealed


def revealed_by(events: Sequence[Event], shuffle: bool = False) -> Revealed:
    """What a line's events made public (rules.md 11): a ballot round, counts, turned cards; a shuffle's new deck."""
    counts = tuple(e.area for e in events if type(e) is Count)
    cards = tuple(e.area for e in events if type(e) is TurnCard)
    ballots_out = any(type(e) is PutMarkers for e in events)
    return Revealed(ballots_out, counts, cards, shuffle)
