"""The game state and the rules that change it (rules.md 2 to 10).

The state is a handful of flat lists of small integers so that :meth:`State.copy` is a few list copies: computer
players copy states thousands of times per decision. Everything that changes it goes through :meth:`State.apply`
(a player's decision) or :meth:`State.shuffle` (chance), which validate completely before touching anything, so a
rejected decision leaves the state exactly as it was.

An election is resolved as a stack of small immutable *tasks* (whose decision is awaited next, and for what). After
every accepted decision the engine runs everything automatic (rings returning, empty elections, turning cards,
the year end) until someone must decide again; so at any moment the top task names who is awaited.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from ..i18n import _, ngettext
from .areas import (
    AREAS,
    FIRST_PALACE_COST,
    HOUSES_PER_PLAYER,
    MARKER_COUNTS,
    MARKERS_PER_PLAYER,
    MAX_PALACES,
    PALACES_PER_PLAYER,
    QUARANTIA,
    RINGS_PER_PLAYER,
    area_name,
    rounds_per_year,
)
from .changes import (
    AdvisorBack,
    BuildPalace,
    Change,
    MarkersBack,
    MoveAdvisor,
    MoveHouses,
    NewYear,
    PlaceHouses,
    PutMarkers,
    TakeAdvisor,
    TurnCard,
)
from .decisions import (
    ABSTAIN_MOVES,
    ABSTAIN_STILL,
    ADVISORS,
    BUILD_NO,
    BUILD_YES,
    HOUSES,
    MOVE_STOP,
    MOVES,
    Abstain,
    Advisor,
    Ballot,
    Build,
    Decision,
    HouseMove,
    Houses,
    Move,
)
from .errors import IllegalDecisionError

SETUP, BALLOT, ELECTION, YEAR_END, OVER = range(5)
PHASES = ("setup", "ballot", "election", "year_end", "over")

_ALL_AREAS_SET = frozenset(range(7))


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

# The tasks of a sole winner (10.2.1, 10.3), which every count with a winner needs: made once, shared (immutable).
_WINNER_ADVISOR = tuple(tuple(AdvisorTask(p, area) for p in range(4)) for area in range(7))
_WINNER_HOUSES = tuple(tuple(HousesTask(area, 2, (p,), (), False, "10.2.1") for p in range(4)) for area in range(6))


class Awaited(NamedTuple):
    """One decision the engine waits for. ``decision`` is a record KIND; ``advisor`` stands for advisor-or-abstain."""

    player: int
    decision: str
    district: int | None = None


class Count(NamedTuple):
    """The public result of an election's count (6.1 to 6.4), kept while that area is being resolved."""

    area: int
    votes: tuple[int, ...]
    winner: int | None
    first: tuple[int, ...]
    runners_up: tuple[int, ...]
    advisor_votes: tuple[int, ...] = ()  # the part of ``votes`` that advisors standing there gave (6.1)
    markers: tuple[int, ...] = ()  # how many markers each player had put there (public since the reveal, 4.3)


Event = Change | Count
"""What :meth:`State.apply_with_changes` reports: the board changes, and each count where it happens."""


# Every multiset of 1 to 4 markers a full supply can give, as (values high to low, counts per value 0..3).
_MARKER_SETS: tuple[tuple[tuple[int, ...], tuple[int, int, int, int]], ...] = tuple(
    (tuple([3] * c3 + [2] * c2 + [1] * c1 + [0] * c0), (c0, c1, c2, c3))
    for c0 in range(MARKER_COUNTS[0] + 1)
    for c1 in range(MARKER_COUNTS[1] + 1)
    for c2 in range(MARKER_COUNTS[2] + 1)
    for c3 in range(MARKER_COUNTS[3] + 1)
    if 1 <= c0 + c1 + c2 + c3 <= 4
)
_ALL_BALLOTS = tuple(tuple(Ballot(area, values) for values, _counts in _MARKER_SETS) for area in range(7))
_BALLOT_CACHE: dict[tuple[int, tuple[int, ...]], tuple[Ballot, ...]] = {}
_HAND_CACHE: dict[tuple[int, ...], tuple[tuple[Ballot, ...], ...]] = {}
_ADVISOR_CACHE: dict[tuple[int, bool, int], tuple[Decision, ...]] = {}
_MOVE_CACHE: dict[int, tuple[Decision, ...]] = {}
_NO_VOTES = {n: (0,) * n for n in (3, 4)}
_HOUSES_AWAITED = tuple(Awaited(p, "houses") for p in range(4))
_BALLOT_AWAITED = tuple(Awaited(p, "ballot") for p in range(4))
# Who may be awaited is always a subset of the seats in seat order: each subset's answers exist once.
_SEAT_SETS = tuple(tuple(p for p in range(4) if mask >> p & 1) for mask in range(16))
_BALLOTS_AWAITED = {seats: tuple(_BALLOT_AWAITED[p] for p in seats) for seats in _SEAT_SETS}
_HOUSES_AWAITED_BY = {seats: tuple(_HOUSES_AWAITED[p] for p in seats) for seats in _SEAT_SETS}
_WITHOUT = {(seats, p): tuple(q for q in seats if q != p) for seats in _SEAT_SETS for p in seats}
_BUILD_AWAITED = {(p, d): Awaited(p, "build", d) for p in range(4) for d in range(6)}
_BUILDS_AWAITED_BY = {(seats, d): tuple(_BUILD_AWAITED[p, d] for p in seats) for seats in _SEAT_SETS for d in range(6)}
_ADVISOR_AWAITED = tuple((Awaited(p, "advisor"),) for p in range(4))
_MOVE_AWAITED = tuple((Awaited(p, "move"),) for p in range(4))
_HOUSES_UP_TO = tuple(HOUSES[: k + 1] for k in range(len(HOUSES)))
_BUILD_CHOICES = (BUILD_YES, BUILD_NO)


def _ballot_choices(used: int, held: tuple[int, ...]) -> tuple[Ballot, ...]:
    key = (used, held)
    choices = _BALLOT_CACHE.get(key)
    if choices is None:
        per_area = _ballots_by_area(held)
        choices = ()
        for area in range(7):
            if not used >> area & 1:
                choices += per_area[area]
        _BALLOT_CACHE[key] = choices
    return choices


def _ballots_by_area(held: tuple[int, ...]) -> tuple[tuple[Ballot, ...], ...]:
    """For each area, the ballots a hand of ``held`` markers allows there (each Ballot value made once)."""
    found = _HAND_CACHE.get(held)
    if found is None:
        allowed = [
            index
            for index, (_values, counts) in enumerate(_MARKER_SETS)
            if counts[0] <= held[0] and counts[1] <= held[1] and counts[2] <= held[2] and counts[3] <= held[3]
        ]
        found = _HAND_CACHE[held] = tuple(tuple(_ALL_BALLOTS[area][i] for i in allowed) for area in range(7))
    return found


def _advisor_choices(slot: int, may_control: bool, houses_mask: int) -> tuple[Decision, ...]:
    """Legal answers on one advisor (7.2, 7.3, 7.4, 8.3.1, 8.3.2); ``houses_mask`` has bit d set if a house is in d."""
    key = (slot, may_control, houses_mask)
    choices = _ADVISOR_CACHE.get(key)
    if choices is None:
        found: list[Decision] = []
        if may_control:
            if slot == QUARANTIA:
                found.extend(ADVISORS[d] for d in range(6))
            else:
                found.extend(ADVISORS[a] for a in range(7) if a != slot)
        found.append(ABSTAIN_STILL)
        for source in range(6):
            if houses_mask >> source & 1:
                found.extend(
                    ABSTAIN_MOVES[source, target]
                    for target in range(6)
                    if target != source and (slot == QUARANTIA or slot in (source, target))
                )
        choices = _ADVISOR_CACHE[key] = tuple(found)
    return choices


def _move_choices(houses_mask: int) -> tuple[Decision, ...]:
    choices = _MOVE_CACHE.get(houses_mask)
    if choices is None:
        found: list[Decision] = [MOVE_STOP]
        for source in range(6):
            if houses_mask >> source & 1:
                found.extend(MOVES[source, target] for target in range(6) if target != source)
        choices = _MOVE_CACHE[houses_mask] = tuple(found)
    return choices


def _wanted(markers: tuple[int, ...]) -> tuple[int, int, int, int]:
    """How many markers of each value 0..3 a ballot asks for (rules.md 1.1, 4.2); memoized in ``_WANTED``."""
    if not 1 <= len(markers) <= 4:
        raise IllegalDecisionError(_("a ballot takes 1 to 4 markers, not {count}").format(count=len(markers)), "4.2")
    counts = [0, 0, 0, 0]
    for value in markers:
        if type(value) is not int or not 0 <= value <= 3:
            raise IllegalDecisionError(
                _("there is no {value}-marker: markers are worth 0 to 3").format(value=value), "1.1"
            )
        counts[value] += 1
    wanted = (counts[0], counts[1], counts[2], counts[3])
    _WANTED[markers] = wanted
    return wanted


_WANTED: dict[tuple[int, ...], tuple[int, int, int, int]] = {}


FIELDS: Final = (
    "_log",
    "_waiting",
    "advisor_area",
    "advisor_controller",
    "board",
    "count",
    "election",
    "house_supply",
    "markers",
    "markers_left",
    "n",
    "next_order",
    "palace_supply",
    "palaces",
    "pending",
    "phase",
    "players",
    "quarantia",
    "rings",
    "round",
    "stack_count",
    "stack_sum",
    "tasks",
    "this_order",
    "turned",
    "used",
    "winners",
    "year",
)
"""Every field of a :class:`State`, for tools that compare states field by field."""


class State:
    """One playthrough of Doge, from the header's players to the end of the game.

    Players and areas are indices (seat order; :data:`~companion.engine.areas.AREAS`). Read the public and
    private views (:mod:`companion.engine.views`) rather than these fields when showing anything to people.
    """

    __slots__ = FIELDS

    players: tuple[str, ...]
    n: int
    phase: int
    year: int
    round: int
    this_order: tuple[int, ...]
    next_order: tuple[int, ...]
    turned: int
    election: int
    house_supply: list[int]
    palace_supply: list[int]
    rings: list[int]
    markers: list[int]
    markers_left: list[int]
    used: list[int]
    pending: list[Ballot | None]
    stack_count: list[int]
    stack_sum: list[int]
    board: list[int]
    palaces: list[tuple[int, ...]]
    advisor_controller: list[int]
    advisor_area: list[int]
    quarantia: tuple[tuple[int, int], ...]
    tasks: list[Task]
    count: Count | None
    winners: tuple[int, ...]
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
        self.players = tuple(players)
        self.n = n
        self.phase = SETUP
        self.year = 1
        self.round = 0
        self.this_order = ()
        self.next_order = ()
        self.turned = 0
        self.election = 0
        self.house_supply = [HOUSES_PER_PLAYER] * n
        self.palace_supply = [PALACES_PER_PLAYER] * n
        self.rings = [RINGS_PER_PLAYER] * n
        self.markers = list(MARKER_COUNTS) * n
        self.markers_left = [MARKERS_PER_PLAYER] * n
        self.used = [0] * n
        self.pending = [None] * n
        self.stack_count = [0] * (7 * n)
        self.stack_sum = [0] * (7 * n)
        self.board = [0] * (6 * n)
        self.palaces = [()] * 6
        self.advisor_controller = [-1] * 6
        self.advisor_area = [-1] * 6
        self.quarantia = ()
        self.tasks = []
        self.count = None
        self.winners = ()
        self._log = None
        self._waiting = ()

    def copy(self) -> State:
        """An independent state: tuples are shared (immutable), lists are copied."""
        return State(self.players, self)

    def _copy_from(self, source: State) -> None:
        self.players = source.players
        self.n = source.n
        self.phase = source.phase
        self.year = source.year
        self.round = source.round
        self.this_order = source.this_order
        self.next_order = source.next_order
        self.turned = source.turned
        self.election = source.election
        self.house_supply = source.house_supply[:]
        self.palace_supply = source.palace_supply[:]
        self.rings = source.rings[:]
        self.markers = source.markers[:]
        self.markers_left = source.markers_left[:]
        self.used = source.used[:]
        self.pending = source.pending[:]
        self.stack_count = source.stack_count[:]
        self.stack_sum = source.stack_sum[:]
        self.board = source.board[:]
        self.palaces = source.palaces[:]
        self.advisor_controller = source.advisor_controller[:]
        self.advisor_area = source.advisor_area[:]
        self.quarantia = source.quarantia
        self.tasks = source.tasks[:]
        self.count = source.count
        self.winners = source.winners
        self._log = None
        self._waiting = source._waiting

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def area(self) -> int | None:
        """The area whose election is being resolved, during the election phase."""
        return self.this_order[self.election] if self.phase == ELECTION else None

    def chance_awaited(self) -> bool:
        """Whether the next line must be a shuffle (2.2, 5.3)."""
        return self.phase == SETUP or self.phase == YEAR_END

    def awaiting(self) -> tuple[Awaited, ...]:
        """The players' decisions the next lines must supply, in seat order (empty when chance or nobody is)."""
        phase = self.phase
        if phase == BALLOT:
            return _BALLOTS_AWAITED[self._waiting]
        if phase != ELECTION:
            return ()
        task = self.tasks[-1]
        kind = type(task)
        if kind is AdvisorTask:
            return _ADVISOR_AWAITED[task.player]  # type: ignore[union-attr]
        if kind is HousesTask:
            return _HOUSES_AWAITED_BY[task.waiting]  # type: ignore[union-attr]
        if kind is BuildsTask:
            return _BUILDS_AWAITED_BY[task.waiting, task.district]  # type: ignore[union-attr]
        if kind is CheckTask:
            return (_BUILD_AWAITED[task.player, task.district],)  # type: ignore[union-attr]
        assert kind is MovesTask
        return _MOVE_AWAITED[task.player]  # type: ignore[union-attr]

    def legal(self, player: int) -> tuple[Decision, ...]:
        """Every decision ``player`` may make now; empty when they are not awaited."""
        phase = self.phase
        if phase == BALLOT:
            if player not in self._waiting:
                return ()
            base = 4 * player
            return _ballot_choices(self.used[player], tuple(self.markers[base : base + 4]))
        if phase != ELECTION:
            return ()
        task = self.tasks[-1]
        if type(task) is AdvisorTask:
            if task.player != player:
                return ()
            slot = task.slot
            may_control = self.rings[player] > 0 or (slot != QUARANTIA and self.advisor_controller[slot] == player)
            return _advisor_choices(slot, may_control, self._houses_mask(player))
        if type(task) is HousesTask:
            if player not in task.waiting:
                return ()
            supply = self.house_supply[player]
            return _HOUSES_UP_TO[task.offer if task.offer < supply else supply]
        if type(task) is BuildsTask:
            return _BUILD_CHOICES if player in task.waiting else ()
        if type(task) is CheckTask:
            return _BUILD_CHOICES if task.player == player else ()
        assert type(task) is MovesTask
        if task.player != player:
            return ()
        return _move_choices(self._houses_mask(player))

    def houses_on_board(self, player: int) -> int:
        n = self.n
        return sum(self.board[d * n + player] for d in range(6))

    def palace_cost(self, district: int) -> int:
        """rules.md 8.4: 3 for the first palace of a district, 1 more for each palace already there."""
        return FIRST_PALACE_COST + len(self.palaces[district])

    def may_build(self, player: int, district: int) -> bool:
        """rules.md 8.4: what a palace check requires (the house that just arrived is the caller's business)."""
        built = len(self.palaces[district])
        return (
            built < MAX_PALACES
            and self.palace_supply[player] > 0
            and self.board[district * self.n + player] >= FIRST_PALACE_COST + built
        )

    def victory_conditions(self, player: int) -> tuple[str, ...]:
        """rules.md 9.2: the conditions ``player`` meets now, by name."""
        palaces = sum(owners.count(player) for owners in self.palaces)
        districts = sum(1 for owners in self.palaces if player in owners)
        met = []
        if districts == 6:
            met.append("six_districts")
        if palaces >= 7 and districts >= 5:
            met.append("seven_in_five")
        if palaces >= 8 and districts >= 4:
            met.append("eight_in_four")
        return tuple(met)

    def _houses_mask(self, player: int) -> int:
        board, n = self.board, self.n
        mask = 0
        for d in range(6):
            if board[d * n + player]:
                mask |= 1 << d
        return mask

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
        if self.phase not in (SETUP, YEAR_END):
            if self.phase == OVER:
                raise IllegalDecisionError(_("the game is over: nothing may follow"), "9.2")
            raise IllegalDecisionError(_("no shuffle is due now: decks are shuffled only at setup and year end"), "2.2")
        order = tuple(order)
        if len(order) != 7 or set(order) != _ALL_AREAS_SET:
            raise IllegalDecisionError(_("a shuffle must list each of the 7 areas exactly once"), "1.3")
        if self.phase == SETUP:
            if not self.this_order:
                self.this_order = order
                return
            self.next_order = order
        else:
            self.year += 1
            if self._log is not None:
                self._log.append(NewYear(self.year))
            self.this_order = self.next_order
            self.next_order = order
            self.turned = 0
            self.election = 0
        self.phase = BALLOT
        self.round = 1
        self._waiting = self._with_markers()

    # ------------------------------------------------------------------ decisions

    def apply(self, player: int, decision: Decision) -> None:
        """Apply ``player``'s decision, or raise :class:`IllegalDecisionError` and change nothing."""
        phase = self.phase
        if phase == ELECTION:
            task = self.tasks[-1]
            if type(task) is AdvisorTask:
                self._apply_advisor(player, decision, task)
            elif type(task) is HousesTask:
                self._apply_houses(player, decision, task)
            elif type(task) is CheckTask:
                self._apply_check(player, decision, task)
            elif type(task) is BuildsTask:
                self._apply_builds(player, decision, task)
            else:
                assert type(task) is MovesTask
                self._apply_move(player, decision, task)
            self._advance()
        elif phase == BALLOT:
            if type(decision) is not Ballot:
                raise self._not_awaited(player, decision)
            self._apply_ballot(player, decision)
        else:
            raise self._not_awaited(player, decision)

    def _name(self, player: int) -> str:
        return self.players[player]

    def _not_awaited(self, player: int, decision: Decision) -> IllegalDecisionError:
        name = self._name(player)
        if self.phase == OVER:
            return IllegalDecisionError(_("the game is over: nothing may follow"), "9.2")
        if self.phase in (SETUP, YEAR_END):
            rule = "2.2" if self.phase == SETUP else "5.3"
            return IllegalDecisionError(
                _("a shuffle of the voting-order deck is due, not a {kind}").format(kind=decision.kind), rule
            )
        awaited = self.awaiting()
        mine = [a for a in awaited if a.player == player]
        if self.phase == BALLOT:
            if mine:
                return IllegalDecisionError(
                    _("only ballots are played in the ballot phase, not a {kind}").format(kind=decision.kind), "4.2"
                )
            if not self.markers_left[player]:
                return IllegalDecisionError(
                    _("{name} has no marker left and sits this round out").format(name=name), "4.2"
                )
            return IllegalDecisionError(_("{name} has already chosen this round").format(name=name), "4.2")
        if mine:
            wanted = '"advisor" or "abstain"' if mine[0].decision == "advisor" else f'"{mine[0].decision}"'
            return IllegalDecisionError(
                _('{name} must answer with {wanted} now, not with "{kind}"').format(
                    name=name, wanted=wanted, kind=decision.kind
                ),
                _ELECTION_RULE,
            )
        who = ", ".join(f"{self._name(a.player)} ({a.decision})" for a in awaited)
        return IllegalDecisionError(
            _("it is not {name}'s turn: awaiting {who}").format(name=name, who=who), _ELECTION_RULE
        )

    def _with_markers(self) -> tuple[int, ...]:
        """rules.md 4.2: who chooses in a new ballot round (a player without markers sits it out)."""
        left = self.markers_left
        return tuple([p for p in range(self.n) if left[p]])

    def _apply_ballot(self, player: int, ballot: Ballot) -> None:
        waiting = self._waiting
        if player not in waiting:
            raise self._not_awaited(player, ballot)
        markers, area = ballot.markers, ballot.area
        wanted = _WANTED.get(markers)
        if wanted is None:
            wanted = _wanted(markers)
        if self.used[player] >> area & 1:
            raise IllegalDecisionError(
                _("{name} has already put markers in {area} this year").format(
                    name=self._name(player), area=area_name(area)
                ),
                "4.4",
            )
        held = self.markers
        base = 4 * player
        if (
            wanted[0] > held[base]
            or wanted[1] > held[base + 1]
            or wanted[2] > held[base + 2]
            or wanted[3] > held[base + 3]
        ):
            for value in range(4):
                have = held[base + value]
                if wanted[value] > have:
                    name = self._name(player)
                    if have == 0:
                        raise IllegalDecisionError(
                            _("{name} has no {value}-marker left").format(name=name, value=value), "4.2"
                        )
                    raise IllegalDecisionError(
                        ngettext(
                            "{name} has only {have} {value}-marker left",
                            "{name} has only {have} {value}-markers left",
                            have,
                        ).format(name=name, have=have, value=value),
                        "4.2",
                    )
        self.pending[player] = ballot
        waiting = self._waiting = _WITHOUT[waiting, player]
        if not waiting:
            self._reveal()

    def _reveal(self) -> None:
        """rules.md 4.3: all chosen cards are turned at once; the markers go face down onto their areas."""
        n = self.n
        pending, held, log = self.pending, self.markers, self._log
        for player in range(n):
            ballot = pending[player]
            if ballot is None:
                continue
            area, markers = ballot
            placed = len(markers)
            slot = area * n + player
            self.used[player] |= 1 << area
            if log is not None:
                log.append(PutMarkers(player, area, placed))
            self.stack_count[slot] += placed
            self.stack_sum[slot] += sum(markers)
            for value in markers:
                held[4 * player + value] -= 1
            self.markers_left[player] -= placed
            pending[player] = None
        self.round += 1
        self._waiting = self._with_markers()
        if self.round > rounds_per_year(n) or not self._waiting:
            self._waiting = ()
            self.phase = ELECTION
            self.round = 0
            self.election = 0
            self._open_election()
            self._advance()

    def _check_move(self, player: int, move: HouseMove, rule: str) -> None:
        source, target = move
        if not (0 <= source < 6 and 0 <= target < 6):
            raise IllegalDecisionError(_("houses stand only in districts, never in the Quarantia"), "8.1")
        if source == target:
            raise IllegalDecisionError(_("a house must move to a different district"), "8.3")
        if not self.board[source * self.n + player]:
            raise IllegalDecisionError(
                _("{name} has no house in {area} to move").format(name=self._name(player), area=area_name(source)),
                rule,
            )

    def _move_house(self, player: int, move: HouseMove) -> None:
        """Move a checked house and push the palace check the arrival triggers (8.4)."""
        n = self.n
        if self._log is not None:
            self._log.append(MoveHouses(player, move.source, move.target, 1))
        self.board[move.source * n + player] -= 1
        self.board[move.target * n + player] += 1
        if self.may_build(player, move.target):
            self.tasks.append(CheckTask(player, move.target))

    def _apply_advisor(self, player: int, decision: Decision, task: AdvisorTask) -> None:
        if player != task.player or type(decision) not in (Advisor, Abstain):
            raise self._not_awaited(player, decision)
        slot = task.slot
        if type(decision) is Advisor:
            area = decision.area
            if slot == QUARANTIA:
                if area == QUARANTIA:
                    raise IllegalDecisionError(_("a Quarantia advisor may stand only in a district"), "7.2.2")
                if not self.rings[player]:
                    raise IllegalDecisionError(
                        _("{name} has no free ring and must abstain").format(name=self._name(player)), "7.3"
                    )
                self.tasks.pop()
                if self._log is not None:
                    self._log.append(TakeAdvisor(player, QUARANTIA, area))
                self.rings[player] -= 1
                self.quarantia = tuple(sorted((*self.quarantia, (player, area))))
                return
            if area == slot:
                raise IllegalDecisionError(
                    _("the {area} advisor may not stand in {area}, its home").format(area=area_name(slot)), "7.2"
                )
            controller = self.advisor_controller[slot]
            if controller != player:
                if not self.rings[player]:
                    raise IllegalDecisionError(
                        _("{name} has no free ring and must abstain").format(name=self._name(player)), "7.3"
                    )
                self._neutralize(slot)
                if self._log is not None:
                    self._log.append(TakeAdvisor(player, slot, area))
                self.rings[player] -= 1
                self.advisor_controller[slot] = player
            elif self._log is not None and self.advisor_area[slot] != area:
                self._log.append(MoveAdvisor(player, slot, self.advisor_area[slot], area))
            self.advisor_area[slot] = area
            self.tasks.pop()
            return
        assert type(decision) is Abstain
        move = decision.move
        if move is not None:
            if slot == QUARANTIA:
                self._check_move(player, move, "8.3.2")
            else:
                self._check_move(player, move, "8.3.1")
                if slot != move.source and slot != move.target:
                    raise IllegalDecisionError(
                        _("after abstaining on the {area} advisor, the house must move from or into {area}").format(
                            area=area_name(slot)
                        ),
                        "8.3.1",
                    )
        self.tasks.pop()
        if slot != QUARANTIA:
            self._neutralize(slot)
        if move is not None:
            self._move_house(player, move)

    def _apply_houses(self, player: int, decision: Decision, task: HousesTask) -> None:
        if type(decision) is not Houses or player not in task.waiting:
            raise self._not_awaited(player, decision)
        count = decision.number
        if count < 0:
            raise IllegalDecisionError(_("the number of houses cannot be negative"), "8.2")
        if count > task.offer:
            raise IllegalDecisionError(
                ngettext(
                    "{name} may place at most {n} house here", "{name} may place at most {n} houses here", task.offer
                ).format(name=self._name(player), n=task.offer),
                task.rule,
            )
        supply = self.house_supply[player]
        if count > supply:
            raise IllegalDecisionError(
                ngettext("{name} has only {n} house in supply", "{name} has only {n} houses in supply", supply).format(
                    name=self._name(player), n=supply
                ),
                "8.2",
            )
        district = task.district
        if count and self._log is not None:
            self._log.append(PlaceHouses(player, district, count))
        self.house_supply[player] = supply - count
        self.board[district * self.n + player] += count
        if not task.together:
            self.tasks.pop()
            if count and self.may_build(player, district):
                self.tasks.append(CheckTask(player, district))
            return
        placed = tuple(sorted((*task.placed, player))) if count else task.placed
        self.tasks[-1] = HousesTask(district, task.offer, _WITHOUT[task.waiting, player], placed, True, task.rule)

    def _apply_check(self, player: int, decision: Decision, task: CheckTask) -> None:
        if type(decision) is not Build or player != task.player:
            raise self._not_awaited(player, decision)
        self.tasks.pop()
        if decision.build:
            self._build(task.district, (player,))

    def _apply_builds(self, player: int, decision: Decision, task: BuildsTask) -> None:
        if type(decision) is not Build or player not in task.waiting:
            raise self._not_awaited(player, decision)
        waiting = _WITHOUT[task.waiting, player]
        builders = tuple(sorted((*task.builders, player))) if decision.build else task.builders
        if waiting:
            self.tasks[-1] = BuildsTask(task.district, waiting, builders)
            return
        self.tasks.pop()
        # rules.md 8.6 [RULING]: if the free spaces cannot take every builder, nobody builds in this check.
        if builders and len(builders) <= MAX_PALACES - len(self.palaces[task.district]):
            self._build(task.district, builders)

    def _build(self, district: int, builders: tuple[int, ...]) -> None:
        """rules.md 8.4, 8.6: every builder pays the cost of the first free space; palaces go in seat order."""
        n = self.n
        cost = self.palace_cost(district)
        for space, player in enumerate(builders, cost):
            if self._log is not None:
                self._log.append(BuildPalace(player, district, cost, space))
            self.board[district * n + player] -= cost
            self.house_supply[player] += cost
            self.palace_supply[player] -= 1
        self.palaces[district] = self.palaces[district] + builders

    def _apply_move(self, player: int, decision: Decision, task: MovesTask) -> None:
        if type(decision) is not Move or player != task.player:
            raise self._not_awaited(player, decision)
        move = decision.move
        if move is None:
            self.tasks.pop()
            return
        self._check_move(player, move, task.rule)
        if task.left > 1:
            self.tasks[-1] = MovesTask(player, task.left - 1, task.rule)
        else:
            self.tasks.pop()
        self._move_house(player, move)

    # ------------------------------------------------------------------ automatic steps

    def _neutralize(self, district: int) -> None:
        """rules.md 7.4, 10.2.2: the advisor goes back to its symbol and its ring to its owner."""
        controller = self.advisor_controller[district]
        if controller >= 0:
            if self._log is not None:
                self._log.append(AdvisorBack(controller, district, self.advisor_area[district]))
            self.rings[controller] += 1
            self.advisor_controller[district] = -1
            self.advisor_area[district] = -1

    def _open_election(self) -> None:
        """rules.md 6.1 to 6.5: count the votes of the next area and queue its resolution (10.2 to 10.5)."""
        n = self.n
        area = self.this_order[self.election]
        base = area * n
        votes = self.stack_sum[base : base + n]
        advisor_votes = _NO_VOTES[n]
        standing_in = self.advisor_area  # -1 for a neutral advisor, so a match means controlled (7.1)
        quarantia = self.quarantia
        if area in standing_in or (quarantia and any(standing == area for _controller, standing in quarantia)):
            extra = [0] * n
            for district in range(6):
                if standing_in[district] == area:
                    extra[self.advisor_controller[district]] += 1
            for controller, standing in quarantia:
                if standing == area:
                    extra[controller] += 1
            for player in range(n):
                votes[player] += extra[player]
            advisor_votes = tuple(extra)
        placed = tuple(self.stack_count[base : base + n])
        log = self._log
        top = max(votes)
        if top == 0:  # 6.5
            self.count = Count(area, tuple(votes), None, (), (), advisor_votes, placed)
            if log is not None:
                log.append(self.count)
            return
        runners: tuple[int, ...] = ()
        winner = None
        if votes.count(top) == 1:
            winner = votes.index(top)
            first: tuple[int, ...] = _SEAT_SETS[1 << winner]
            votes_sorted = sorted(votes)
            second = votes_sorted[-2]  # below the winner's, who alone has the most
            if second > 0:  # 6.2: only players with a vote are ranked
                runners = tuple([p for p in range(n) if votes[p] == second])
        else:
            first = tuple([p for p in range(n) if votes[p] == top])
        self.count = Count(area, tuple(votes), winner, first, runners, advisor_votes, placed)
        if log is not None:
            log.append(self.count)
        plan: list[Task]
        if area != QUARANTIA:
            if winner is not None:  # 10.2.1; the stack runs from its end
                plan = [_WINNER_HOUSES[area][winner], _WINNER_ADVISOR[area][winner]]
                if runners:
                    plan.insert(0, HousesTask(area, 1, runners, (), len(runners) > 1, "10.2.1"))
            else:  # 10.2.2
                self._neutralize(area)
                plan = [HousesTask(area, 2, first, (), True, "10.2.2")]
        else:
            for controller, standing in quarantia:  # 10.3 step 1, 10.5
                if log is not None:
                    log.append(AdvisorBack(controller, QUARANTIA, standing))
                self.rings[controller] += 1
            self.quarantia = ()
            if winner is not None:
                plan = [_WINNER_ADVISOR[QUARANTIA][winner]]
                if len(runners) == 1:  # 10.3 step 3
                    plan.append(_WINNER_ADVISOR[QUARANTIA][runners[0]])
                else:  # 10.4 [RULING] seat order
                    plan.extend(MovesTask(p, 1, "10.4") for p in reversed(runners))
                plan.append(plan[0])
            else:  # 10.5 [RULING] seat order
                plan = [MovesTask(p, 2, "10.5") for p in reversed(first)]
        self.tasks = plan

    def _advance(self) -> None:
        """Run everything automatic until a decision is awaited or the year ends."""
        tasks = self.tasks
        while True:
            while tasks:
                task = tasks[-1]
                if type(task) is HousesTask:
                    seats = task.waiting
                    supply = self.house_supply
                    if len(seats) == 1:
                        if supply[seats[0]]:
                            return
                        waiting: tuple[int, ...] = ()
                    else:
                        waiting = tuple([p for p in seats if supply[p]])
                    if waiting:
                        if waiting != seats:
                            tasks[-1] = HousesTask(
                                task.district, task.offer, waiting, task.placed, task.together, task.rule
                            )
                        return
                    tasks.pop()
                    if task.together and task.placed:  # 8.6
                        district = task.district
                        able = tuple(p for p in task.placed if self.may_build(p, district))
                        if able:
                            tasks.append(BuildsTask(district, able, ()))
                            return
                elif type(task) is MovesTask:
                    if task.left and self.houses_on_board(task.player):
                        return
                    tasks.pop()
                else:
                    return
            self._close_election()
            if self.phase != ELECTION:
                return
            self._open_election()
            tasks = self.tasks

    def _close_election(self) -> None:
        """rules.md 5.2, 6.6: the area's markers are done and one more card of next year's order is turned."""
        n = self.n
        base = self.this_order[self.election] * n
        self.stack_count[base : base + n] = self.stack_sum[base : base + n] = _NO_VOTES[n]
        if self._log is not None:
            self._log.append(TurnCard(self.next_order[self.turned]))
        self.turned += 1
        self.election += 1
        self.count = None
        if self.election == 7:
            self._end_year()

    def _end_year(self) -> None:
        """rules.md 9.1 to 9.5."""
        n = self.n
        if self._log is not None:
            self._log.append(MarkersBack())
        self.markers = list(MARKER_COUNTS) * n
        self.markers_left = [MARKERS_PER_PLAYER] * n
        self.used = [0] * n
        self.election = 0
        meeting = [p for p in range(n) if self.victory_conditions(p)]
        if not meeting:
            self.phase = YEAR_END
            return
        self.phase = OVER
        self.winners = tuple(self.ranked_winners(meeting))

    def ranked_winners(self, meeting: Sequence[int]) -> list[int]:
        """rules.md 9.4: most palaces, then most houses on the board; [RULING] then a shared victory."""

        def key(player: int) -> tuple[int, int]:
            return (sum(owners.count(player) for owners in self.palaces), self.houses_on_board(player))

        best = max(key(p) for p in meeting)
        return [p for p in meeting if key(p) == best]


_ELECTION_RULE = "10.1"

__all__ = [
    "AREAS",
    "BALLOT",
    "ELECTION",
    "OVER",
    "PHASES",
    "SETUP",
    "YEAR_END",
    "Awaited",
    "Count",
    "Event",
    "State",
]
