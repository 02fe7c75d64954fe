"""The game state (rules.md 2 to 10) and the engine's one public surface: typed queries, legal choices, apply.

The state is a handful of flat lists of small integers so that :meth:`State.copy` is a few list copies: computer
players copy states thousands of times per decision. Those lists are the engine's private layout (their names start
with ``_``): everything outside ``companion/engine/`` asks the queries below instead (a layering test holds it), so
each rule is worked out in one place. The rules themselves live beside this module, one module per part of the
game: :mod:`.ballots` (4), :mod:`.elections` (6, 7, 10), :mod:`.building` (8.4 to 8.6), :mod:`.year_end` (9).

Everything that changes the state goes through :meth:`State.apply` (a player's decision) or :meth:`State.shuffle`
(chance), which validate completely before touching anything, so a rejected decision leaves the state exactly as it
was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..i18n import _
from .areas import (
    FIRST_PALACE_COST,
    HOUSES_PER_PLAYER,
    MARKER_COUNTS,
    MARKERS_PER_PLAYER,
    MAX_PALACES,
    PALACES_PER_PLAYER,
    RINGS_PER_PLAYER,
    rounds_per_year,
)
from .awaiting import awaited, legal
from .ballots import apply_ballot
from .building import apply_builds, apply_check
from .chance import shuffle
from .decisions import Ballot, Decision
from .elections import advance, apply_advisor, apply_houses, apply_move, not_awaited
from .errors import IllegalDecisionError
from .tasks import (
    BALLOT,
    ELECTION,
    OVER,
    PHASES,
    SETUP,
    YEAR_END,
    AdvisorTask,
    Applied,
    Awaited,
    BuildsTask,
    CheckTask,
    Condition,
    Count,
    Event,
    HousesTask,
    MovesTask,
    Outcome,
    Phase,
    Revealed,
    Task,
    revealed_by,
)
from .year_end import conditions_met, palaces_to_go
from .year_end import outcome as game_outcome

FIELDS: Final = (
    "_advisor_area",
    "_advisor_controller",
    "_board",
    "_count",
    "_election",
    "_house_supply",
    "_log",
    "_markers",
    "_markers_left",
    "_n",
    "_next_order",
    "_palace_supply",
    "_palaces",
    "_pending",
    "_phase",
    "_players",
    "_quarantia",
    "_rings",
    "_round",
    "_stack_count",
    "_stack_sum",
    "_tasks",
    "_this_order",
    "_turned",
    "_used",
    "_waiting",
    "_winners",
    "_year",
)
"""Every field of a :class:`State`: the slots, and the one list that ``__init__``, ``_copy_from`` and the
annotations must each cover exactly (tests/test_layering.py checks it), for tools that compare states."""


class State:
    """One playthrough of Doge, from the header's players to the end of the game.

    Players and areas are indices (seat order; :data:`~companion.engine.areas.AREAS`). Screens and pads read the
    public and private views (:mod:`companion.engine.views`) or the queries here, never the ``_`` fields.
    """

    __slots__ = FIELDS

    _players: tuple[str, ...]
    _n: int
    _phase: int
    _year: int
    _round: int
    _this_order: tuple[int, ...]
    _next_order: tuple[int, ...]
    _turned: int
    _election: int
    _house_supply: list[int]
    _palace_supply: list[int]
    _rings: list[int]
    _markers: list[int]
    _markers_left: list[int]
    _used: list[int]
    _pending: list[Ballot | None]
    _stack_count: list[int]
    _stack_sum: list[int]
    _board: list[int]
    _palaces: list[tuple[int, ...]]
    _advisor_controller: list[int]
    _advisor_area: list[int]
    _quarantia: tuple[tuple[int, int], ...]
    _tasks: list[Task]
    _count: Count | None
    _winners: tuple[int, ...]
    _log: list[Event] | None
    _waiting: tuple[int, ...]  # in the ballot phase, who has yet to choose this round (seat order)

    def __init__(self, players: Sequence[str], _copy_of: State | None = None) -> None:
        """rules.md 2.1: everything in supply, all advisors neutral; the two shuffles (2.2) are awaited next.

        ``_copy_of`` is :meth:`copy`'s way in: a class compiled by mypyc can be made only by its constructor."""
        if _copy_of is not None:
            self._copy_from(_copy_of)
            return
        if not 3 <= len(players) <= 4:
            raise IllegalDecisionError(_("Doge is played by 3 or 4 players"), "1.1")
        if len(set(players)) != len(players):
            raise IllegalDecisionError(_("each player must have a different id"), "2.3")
        n = len(players)
        self._players = tuple(players)
        self._n = n
        self._phase = SETUP
        self._year = 1
        self._round = 0
        self._this_order = ()
        self._next_order = ()
        self._turned = 0
        self._election = 0
        self._house_supply = [HOUSES_PER_PLAYER] * n
        self._palace_supply = [PALACES_PER_PLAYER] * n
        self._rings = [RINGS_PER_PLAYER] * n
        self._markers = list(MARKER_COUNTS) * n
        self._markers_left = [MARKERS_PER_PLAYER] * n
        self._used = [0] * n
        self._pending = [None] * n
        self._stack_count = [0] * (7 * n)
        self._stack_sum = [0] * (7 * n)
        self._board = [0] * (6 * n)
        self._palaces = [()] * 6
        self._advisor_controller = [-1] * 6
        self._advisor_area = [-1] * 6
        self._quarantia = ()
        self._tasks = []
        self._count = None
        self._winners = ()
        self._log = None
        self._waiting = ()

    def copy(self) -> State:
        """An independent state: tuples are shared (immutable), lists are copied."""
        return State(self._players, self)

    def _copy_from(self, source: State) -> None:
        self._players = source._players
        self._n = source._n
        self._phase = source._phase
        self._year = source._year
        self._round = source._round
        self._this_order = source._this_order
        self._next_order = source._next_order
        self._turned = source._turned
        self._election = source._election
        self._house_supply = source._house_supply[:]
        self._palace_supply = source._palace_supply[:]
        self._rings = source._rings[:]
        self._markers = source._markers[:]
        self._markers_left = source._markers_left[:]
        self._used = source._used[:]
        self._pending = source._pending[:]
        self._stack_count = source._stack_count[:]
        self._stack_sum = source._stack_sum[:]
        self._board = source._board[:]
        self._palaces = source._palaces[:]
        self._advisor_controller = source._advisor_controller[:]
        self._advisor_area = source._advisor_area[:]
        self._quarantia = source._quarantia
        self._tasks = source._tasks[:]
        self._count = source._count
        self._winners = source._winners
        self._log = None
        self._waiting = source._waiting

    # ------------------------------------------------------------------ the game as a whole

    @property
    def players(self) -> tuple[str, ...]:
        """The players' ids in seat order."""
        return self._players

    @property
    def player_count(self) -> int:
        return self._n

    @property
    def phase(self) -> Phase:
        return PHASES[self._phase]

    @property
    def year(self) -> int:
        return self._year

    @property
    def round(self) -> int:
        """The ballot round in progress (4.1), 0 outside the ballot phase."""
        return self._round if self._phase == BALLOT else 0

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """rules.md 9.4: the winners once the game is over (more than one only for a shared victory)."""
        return self._winners

    def rounds_per_year(self) -> int:
        """rules.md 4.1: 4 ballot rounds with 3 players, 3 with 4."""
        return rounds_per_year(self._n)

    @property
    def area(self) -> int | None:
        """The area whose election is being resolved, during the election phase."""
        return self._this_order[self._election] if self._phase == ELECTION else None

    def this_order(self) -> tuple[int, ...]:
        """This year's voting order (public, 11.3); empty before the first shuffle."""
        return self._this_order

    def upcoming(self) -> tuple[int, ...]:
        """The areas still to be counted this year after the one being resolved (all of them before the elections)."""
        if self._phase == ELECTION:
            return self._this_order[self._election + 1 :]
        if self._phase == BALLOT:
            return self._this_order
        return ()

    def counted(self) -> frozenset[int]:
        """The areas whose count is public this year: those finished and the one being resolved (6.1)."""
        if self._phase == ELECTION:
            return frozenset(self._this_order[: self._election + 1])
        return frozenset(range(7)) if self._phase in (YEAR_END, OVER) else frozenset()

    def next_year_turned(self) -> tuple[int, ...]:
        """The cards of next year's order turned so far (5.2; the rest are secret, 11.2)."""
        return self._next_order[: self._turned]

    def current_count(self) -> Count | None:
        """The count of the area being resolved (public since its election began, 6.1)."""
        return self._count

    # ------------------------------------------------------------------ one player's pieces (all public, 11.3)

    def houses(self, district: int, player: int) -> int:
        """How many of ``player``'s houses stand in ``district``."""
        return self._board[district * self._n + player]

    def houses_on_board(self, player: int) -> int:
        n = self._n
        board = self._board
        return sum(board[d * n + player] for d in range(6))

    def house_supply(self, player: int) -> int:
        return self._house_supply[player]

    def palace_supply(self, player: int) -> int:
        return self._palace_supply[player]

    def free_rings(self, player: int) -> int:
        return self._rings[player]

    def markers_left(self, player: int) -> int:
        """How many markers ``player`` still holds (their values are secret, 11.1)."""
        return self._markers_left[player]

    def markers_placed(self, area: int, player: int) -> int:
        """How many markers ``player`` has put on ``area`` this year and not yet counted (4.3; public, 11.3)."""
        return self._stack_count[area * self._n + player]

    def markers_on(self, area: int) -> tuple[int, ...]:
        """How many markers each player (seat order) has put on ``area`` this year and not yet counted."""
        n = self._n
        return tuple(self._stack_count[area * n : area * n + n])

    def areas_used(self, player: int) -> tuple[int, ...]:
        """The areas ``player`` has put markers in this year (4.4), in board order; public once revealed."""
        used = self._used[player]
        return tuple([area for area in range(7) if used >> area & 1])

    def locked_in(self, player: int) -> bool:
        """Whether ``player`` has chosen this round's ballot (public: "locked in"; the ballot is not, 11.1)."""
        return self._phase == BALLOT and self._pending[player] is not None

    def palaces_in(self, district: int) -> tuple[int, ...]:
        """The owners of ``district``'s palaces in space order (the space marked 3 first)."""
        return self._palaces[district]

    def palaces_of(self, player: int) -> int:
        return sum(owners.count(player) for owners in self._palaces)

    def districts_of(self, player: int) -> int:
        """In how many districts ``player`` has at least one palace (9.2)."""
        return sum(1 for owners in self._palaces if player in owners)

    def palace_cost(self, district: int) -> int:
        """rules.md 8.4: 3 for the first palace of a district, 1 more for each palace already there; it is also the
        number printed on the next free space."""
        return FIRST_PALACE_COST + len(self._palaces[district])

    def district_full(self, district: int) -> bool:
        """rules.md 8.4: a district holds at most 5 palaces."""
        return len(self._palaces[district]) >= MAX_PALACES

    def may_build(self, player: int, district: int) -> bool:
        """rules.md 8.4: what a palace check requires (the house that just arrived is the caller's business)."""
        built = len(self._palaces[district])
        return (
            built < MAX_PALACES
            and self._palace_supply[player] > 0
            and self._board[district * self._n + player] >= FIRST_PALACE_COST + built
        )

    def advisor(self, district: int) -> tuple[int, int] | None:
        """``(controller, area it stands in)`` for ``district``'s advisor, None while it is neutral (7.1)."""
        controller = self._advisor_controller[district]
        return None if controller < 0 else (controller, self._advisor_area[district])

    def quarantia_advisors(self) -> tuple[tuple[int, int], ...]:
        """The controlled Quarantia advisors as ``(controller, area)``, sorted (7.2.2)."""
        return self._quarantia

    # ------------------------------------------------------------------ the end (9)

    def victory_conditions(self, player: int) -> tuple[Condition, ...]:
        """rules.md 9.2: the conditions ``player`` meets now, by name."""
        return conditions_met(self.palaces_of(player), self.districts_of(player))

    def palaces_to_go(self, player: int) -> tuple[tuple[Condition, int | None], ...]:
        """rules.md 9.2: how many more palaces ``player`` needs for each victory condition (None: out of reach)."""
        return palaces_to_go(self, player)

    def outcome(self) -> Outcome | None:
        """rules.md 9.2 to 9.4: who won and why, once the game is over."""
        if self._phase != OVER:
            return None
        return game_outcome(self)

    # ------------------------------------------------------------------ what is awaited

    def chance_awaited(self) -> bool:
        """Whether the next line must be a shuffle (2.2, 5.3)."""
        return self._phase == SETUP or self._phase == YEAR_END

    def awaiting(self) -> tuple[Awaited, ...]:
        """The players' decisions the next lines must supply, in seat order (empty when chance or nobody is)."""
        return awaited(self)

    def legal(self, player: int) -> tuple[Decision, ...]:
        """Every decision ``player`` may make now; empty when they are not awaited."""
        return legal(self, player)

    # ------------------------------------------------------------------ board changes

    def apply_with_changes(self, player: int, decision: Decision) -> list[Event]:
        """:meth:`apply`, reporting what the table does (record-format.md 4) and each count, in the order they happen.

        The changes are noted where the rules act, so following them from the previous board always gives this
        state's board. Not noting is the default because computer players apply decisions by the thousand.
        """
        log = self.begin_changes()
        try:
            self.apply(player, decision)
        finally:
            self.end_changes()
        return log

    def shuffle_with_changes(self, order: Sequence[int]) -> list[Event]:
        """:meth:`shuffle`, reporting what the table does (record-format.md 4: a new year, 5.3)."""
        log = self.begin_changes()
        try:
            self.shuffle(order)
        finally:
            self.end_changes()
        return log

    def apply_reporting(self, player: int, decision: Decision) -> Applied:
        """:meth:`apply_with_changes`, also saying what the decision made public (11.4: such a line is final)."""
        events = self.apply_with_changes(player, decision)
        return Applied(events, revealed_by(events))

    def shuffle_reporting(self, order: Sequence[int]) -> Applied:
        """:meth:`shuffle_with_changes` as an :class:`Applied` (a shuffle is chance: never undone)."""
        events = self.shuffle_with_changes(order)
        return Applied(events, revealed_by(events, shuffle=True))

    def begin_changes(self) -> list[Event]:
        """Note the changes of the lines applied from now on into the list returned, until :meth:`end_changes`
        (for callers that apply lines themselves, like :class:`~companion.engine.record.Replay`)."""
        log: list[Event] = []
        self._log = log
        return log

    def end_changes(self) -> None:
        self._log = None

    # ------------------------------------------------------------------ chance

    def shuffle(self, order: Sequence[int]) -> None:
        """Apply a chance line: the order of one voting-order deck (2.2, 5.3, 9.5)."""
        shuffle(self, order)

    # ------------------------------------------------------------------ decisions

    def apply(self, player: int, decision: Decision) -> None:
        """Apply ``player``'s decision, or raise :class:`IllegalDecisionError` and change nothing."""
        phase = self._phase
        if phase == ELECTION:
            task = self._tasks[-1]
            if type(task) is AdvisorTask:
                apply_advisor(self, player, decision, task)
            elif type(task) is HousesTask:
                apply_houses(self, player, decision, task)
            elif type(task) is CheckTask:
                apply_check(self, player, decision, task)
            elif type(task) is BuildsTask:
                apply_builds(self, player, decision, task)
            else:
                assert type(task) is MovesTask
                apply_move(self, player, decision, task)
            advance(self)
        elif phase == BALLOT:
            if type(decision) is not Ballot:
                raise not_awaited(self, player, decision)
            apply_ballot(self, player, decision)
        else:
            raise not_awaited(self, player, decision)


__all__ = [
    "BALLOT",
    "ELECTION",
    "FIELDS",
    "OVER",
    "PHASES",
    "SETUP",
    "YEAR_END",
    "Applied",
    "Awaited",
    "Count",
    "Event",
    "Outcome",
    "Revealed",
    "State",
    "revealed_by",
]
