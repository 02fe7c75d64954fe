"""What the table is in the middle of between two saved decisions: the notices still to read, the overlays open on
the screen, and what players are keying or choosing. None of it is in the record; the notices are saved as the
screen state (``notice_store.py``), the rest starts afresh after a restart.

One :class:`Between` per game; :class:`Keying` is the part an undo clears (what was being keyed or chosen belonged
to a moment that is gone). Each object here changes only through its own methods, so the modes say what happens
(``keying.lock_in(seat)``) instead of reaching into lists. The notices are frozen values in a queue: each change to
one (a "done", a part up, its being on every screen, a move or a year joining it) is one of the queue's operations,
which puts the changed notice in its place (its ``entry`` kept), so nothing holding a notice sees it change.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, replace
from typing import Generic, Literal, TypeVar

from display.screen import Line

from ..engine import State
from .menus import Menu, decision_menu
from .notice import Notice, count_owners
from .seats import Seat

Overlay = TypeVar("Overlay")  # a mode open on top of the game's (context.Mode): this only keeps them in order


@dataclass
class KeypadBallot:
    """One player's ballot being keyed in on their own keypad. Never shown on the shared screen."""

    area: int | None = None
    markers: list[int] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        """Whether anything is keyed: then a pad's ok locks it in rather than confirming a notice."""
        return self.area is not None or bool(self.markers)

    def choose_area(self, area: int) -> int | None:
        """The area keyed now; the one keyed before, if any (its light goes out)."""
        before, self.area = self.area, area
        return before

    def add_marker(self, value: int, held: int) -> bool:
        """One more marker of ``value`` while the player holds more of it and fewer than 4 are keyed (rules.md 4.2).
        False: refused, and nothing keyed changes; a key never takes a marker back silently (``back`` does:
        docs/pad-protocol.md, "Keying a ballot")."""
        if self.markers.count(value) < held and len(self.markers) < 4:
            self.markers.append(value)
            return True
        return False

    def step_back(self) -> tuple[str, int] | None:
        """Back takes the last key back: a marker, else the area. What was taken back, if anything."""
        if self.markers:
            return "marker", self.markers.pop()
        if self.area is not None:
            area, self.area = self.area, None
            return "area", area
        return None


TurnStage = Literal["gate", "area", "markers"]


@dataclass
class PrivateTurn:
    """One player's ballot entered on the shared screen while the others look away (rules.md 4.2, 11)."""

    seat: Seat
    stage: TurnStage = "gate"
    area_menu: Menu | None = None
    marker_menu: Menu | None = None
    area: int | None = None

    def open_areas(self, menu: Menu) -> None:
        self.stage, self.area_menu = "area", menu

    def open_markers(self, area: int, menu: Menu) -> None:
        self.stage, self.area, self.marker_menu = "markers", area, menu

    def to(self, stage: TurnStage) -> None:
        """Back a step (markers to areas, areas to the gate), or behind the gate when anything covers the screen."""
        self.stage = stage


@dataclass
class Keying:
    """What players are keying or choosing now: ballots on keypads, the private ballot on the shared screen, the
    acting player's menu and the submenus they opened. Cleared by an undo and by a new game."""

    keypad: dict[Seat, KeypadBallot] = field(default_factory=dict)
    private: PrivateTurn | None = None
    menus: list[Menu] = field(default_factory=list)
    menus_for: object = None  # the moment the menus were built for

    def keyed(self, seat: Seat) -> KeypadBallot:
        """``seat``'s keyed ballot, begun by their first key."""
        return self.keypad.setdefault(seat, KeypadBallot())

    def has_keyed(self, seat: Seat) -> bool:
        keyed = self.keypad.get(seat)
        return keyed is not None and keyed.anything

    def lock_in(self, seat: Seat) -> None:
        """The keyed ballot is a decision now (saved): nothing of it is kept here."""
        del self.keypad[seat]

    def clear(self, seat: Seat) -> None:
        """The seat changed hands (a phone took it over): what the old holder keyed is gone, and a private menu of
        theirs goes back behind its gate."""
        self.keypad.pop(seat, None)
        if self.private is not None and self.private.seat == seat:
            self.private.to("gate")

    def follow_decision(self, state: State, length: int) -> None:
        """The acting player's menu, built when the game settles on a new awaited decision (``length``: the
        record's), and kept with the submenus they opened while it stays the same: drawing it changes nothing."""
        signature = (length, state.awaiting()[:1])
        if signature != self.menus_for:
            self.menus_for = signature
            self.menus = [decision_menu(state)]

    def follow_ballot(self, state: State, bots: Container[Seat]) -> None:
        """Whose ballot the shared screen is for: the first awaited human, in seat order (rules.md 4.2). ``bots``: the
        computer players' seats (the controller's ``bots``; ``Seats.computer_colours`` are their colours)."""
        awaited = [a.player for a in state.awaiting() if a.player not in bots]
        if not awaited:
            self.private = None
        elif self.private is None or self.private.seat not in awaited:
            self.private = PrivateTurn(Seat(awaited[0]))

    def ballot_cast(self) -> None:
        """The private ballot is a decision now (saved): the next player's starts at its gate."""
        self.private = None

    def open_submenu(self, menu: Menu) -> None:
        self.menus.append(menu)

    def close_submenu(self) -> None:
        """Back up a level; the decision's own menu stays."""
        if len(self.menus) > 1:
            self.menus.pop()


@dataclass
class Between(Generic[Overlay]):
    """The notices to read (the top one is on every screen), the overlays open on top of the game's own mode (help,
    the board check, a question), and the keying in progress."""

    notices: list[Notice] = field(default_factory=list)
    overlays: list[Overlay] = field(default_factory=list)
    keying: Keying = field(default_factory=Keying)

    def tell(self, notice: Notice) -> None:
        """A notice that goes before the others (a refusal, "Not saved"): it answers what was just pressed."""
        self.notices.insert(0, notice)

    def add(self, notices: list[Notice]) -> None:
        self.notices += notices

    def join_count(self, move: Notice, heading: str) -> bool:
        """A computer player's move joins the passive count it acted on: one notice, the count then ``heading`` and
        the move's sentences, confirmed by whoever moves the pieces. False: no count waits for it."""
        at = next((k for k, n in enumerate(self.notices) if n.passive), None)
        if at is None:
            return False
        count = self.notices[at]
        self.notices[at] = replace(
            count,
            lines=(*count.lines, Line(heading, "small"), *move.lines),
            spoken=(*count.spoken, *move.spoken),  # "On the board." and its sentences: said when they join (announcer)
            owners=move.owners,
            passive=False,
            by_itself=move.by_itself,
        )
        return True

    def wait_for(self, owners: tuple[str, ...]) -> None:
        """A passive count is a count as any other now (its computer player no longer acts on it): it goes by itself,
        or, headed by a turned card, waits for ``owners`` (narration.count_owners)."""
        self.notices = [count_owners(replace(n, passive=False), owners) if n.passive else n for n in self.notices]

    def add_year(self, notices: list[Notice]) -> None:
        """A new year's notices: onto the year's end still to read, if there is one (one notice for both; its title
        is the year's, said already), else after the others."""
        at = next((k for k, n in enumerate(self.notices) if n.tag == "year"), None)
        if at is None:
            self.notices += notices
            return
        year = self.notices[at]
        self.notices[at] = replace(
            year,
            lines=(*year.lines, *(line for n in notices for line in n.lines)),
            spoken=(*year.spoken, *(text for n in notices for text in n.spoken[1:])),
        )

    def top_shown(self) -> None:
        """The top notice is on every screen now (shown.py: what it reveals the table has seen)."""
        if self.notices and not self.notices[0].seen:
            self.notices[0] = replace(self.notices[0], seen=True)

    def confirm_top(self, owner: str) -> Notice:
        """``owner`` is done with what the top notice asked of them; the notice as it is now."""
        self.notices[0] = self.notices[0].confirmed_by(owner)
        return self.notices[0]

    def top_part_shown(self, index: int, count: int) -> None:
        """Part ``index`` of the top notice's ``count`` is up (composition.py): it goes once every part was."""
        top = self.notices[0]
        if top.parts != count or index not in top.parts_shown:
            self.notices[0] = top.part_shown(index, count)

    def after_top(self, notices: list[Notice]) -> None:
        """Notices read right after the top one (the introduction's other pages, asked for again)."""
        self.notices[1:1] = notices

    def dismiss(self) -> Notice:
        """The top notice is done with."""
        return self.notices.pop(0)

    def keep_notices(self, notices: list[Notice]) -> None:
        """The queue as a step left it: after a decision, the one saved with its line (worked out on a copy, so an
        unsaved decision changes no notice); after an undo, the notices about lines still in the game, and the
        undo's own."""
        self.notices = notices

    def open(self, overlay: Overlay) -> None:
        self.overlays.append(overlay)

    def close_top(self) -> None:
        self.overlays.pop()

    def back_to_game(self) -> None:
        """Every overlay but the top one goes (the top one then closes as any does): back to the game itself."""
        del self.overlays[:-1]

    def top_overlay(self) -> Overlay | None:
        return self.overlays[-1] if self.overlays else None
