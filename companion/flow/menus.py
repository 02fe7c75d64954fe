"""Menus for every decision, built only from the engine's legal choices: an illegal choice cannot even be offered.

A menu is navigated with left/right/ok/back (any pad), and a keypad's direct keys select the option they name
(``area:san_polo``). Decisions with many answers (an advisor: 6 places to stand it, or abstain with one of up to 30
house moves) become small trees, so a 3-button pad never scrolls through more than 7 options.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import AREAS, Abstain, Advisor, Build, Decision, Houses, Move, State
from ..engine.areas import AREA_NAMES, QUARANTIA
from ..i18n import _, ngettext, pgettext, spoken_number


@dataclass
class Option:
    label: str
    value: Any  # a Decision, or a Menu to open
    key: str | None = None  # a keypad key that picks this option directly
    hint: str = ""  # one short line of what picking it does, shown under the menu for the highlighted option


@dataclass
class Menu:
    title: str
    options: list[Option]
    cursor: int = 0
    rule: str | None = None
    chosen: set[int] = field(default_factory=set)
    spoken: str | None = None  # the title for the ear, where it shows a number (flow/announcer.py)

    def move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.options)

    def tick_cursor(self, most: int) -> None:
        """Tick the highlighted option, or untick it; no more than ``most`` ticked (rules.md 4.2: 1 to 4 markers)."""
        if self.cursor in self.chosen:
            self.chosen.discard(self.cursor)
        elif len(self.chosen) < most:
            self.chosen.add(self.cursor)

    def tick_value(self, value: Any, most: int) -> bool:
        """A keypad's marker key: one more option of ``value`` ticked; False, nothing changed, with none of it left
        unticked (or ``most`` ticked): a marker key never takes one back (docs/pad-protocol.md, "Keying a ballot")."""
        free = [i for i, o in enumerate(self.options) if o.value == value and i not in self.chosen]
        if not free or len(self.chosen) >= most:
            return False
        self.chosen.add(free[0])
        return True

    @property
    def current(self) -> Option:
        return self.options[self.cursor]

    def find(self, key: str) -> int | None:
        return next((i for i, option in enumerate(self.options) if option.key == key), None)


def _area_key(area: int) -> str:
    return f"area:{AREAS[area]}"


def _move_tree(title: str, moves: Sequence[tuple[int, int, Decision]], rule: str) -> Menu:
    """Choose a house to move: first the district it leaves, then the one it enters, each option the district's
    name alone (the question says from or to: "from Santa Croce" options were too wide to go two to a row at
    160x128, and five of them were two at a time in sight)."""
    sources: dict[int, list[Option]] = {}
    for source, target, decision in moves:
        sources.setdefault(source, []).append(
            # rules.md 8.4: a house moved into a district is a palace check there
            Option(
                AREA_NAMES[target],
                decision,
                _area_key(target),
                _("Then you may build there"),
            )
        )
    options = [
        Option(
            AREA_NAMES[source],
            Menu(_("Move a house from {area} to...").format(area=AREA_NAMES[source]), targets, rule=rule),
            _area_key(source),
            _("Then choose where it goes"),  # rules.md 8.3
        )
        for source, targets in sorted(sources.items())
    ]
    return Menu(title, options, rule=rule)


def advisor_menu(state: State, seat: int, slot: int, legal: tuple[Decision, ...]) -> Menu:
    """rules.md 7.2-7.4, 8.3: take control and stand the advisor, or abstain with an optional move."""
    advisor = _("a Quarantia advisor") if slot == QUARANTIA else _("the {area} advisor").format(area=AREA_NAMES[slot])
    takes = [d for d in legal if type(d) is Advisor]
    still = [d for d in legal if type(d) is Abstain and d.move is None]
    moves = [(d.move.source, d.move.target, d) for d in legal if type(d) is Abstain and d.move is not None]
    move_rule = "8.3.2" if slot == QUARANTIA else "8.3.1"
    # rules.md 7.4: abstaining makes the advisor neutral, and the move is optional (8.3.1, 8.3.2)
    abstain_options = [Option(_("Move no house"), still[0], hint=_("The advisor goes neutral; nothing else"))]
    if moves:
        tree = _move_tree(_("Abstain: move which house?"), moves, move_rule)
        abstain_options.append(Option(_("Move a house"), tree, hint=_("The advisor goes neutral; pick the house")))
    abstain = Menu(_("Abstain on {advisor}").format(advisor=advisor), abstain_options, rule="7.4")
    if not takes:
        abstain.title = _("No free ring: abstain on {advisor}").format(advisor=advisor)
        abstain.rule = "7.3"
        return abstain
    stand = Menu(
        _("Stand {advisor} in...").format(advisor=advisor),
        # rules.md 6.1: an advisor adds 1 vote for its controller to every count in the area it stands in
        [Option(AREA_NAMES[d.area], d, _area_key(d.area), _("Its vote counts for you there")) for d in takes],
        rule="7.2",
    )
    standing = state.advisor(slot) if slot != QUARANTIA else None
    own = standing is not None and standing[0] == seat
    if own:  # the controller's own advisor: where it stands now first
        assert standing is not None
        stand.cursor = next((i for i, d in enumerate(takes) if d.area == standing[1]), 0)
    # rules.md 7.2 (a ring on it, then stand it), 7.3 (one's own advisor keeps its ring), 7.4 (abstain: neutral)
    take_hint = _("Your ring stays; stand it anew") if own else _("Put your ring on it, then stand it")
    top = Menu(
        _("Decide on {advisor}").format(advisor=advisor),
        [
            Option(_("Take control"), stand, hint=take_hint),
            Option(_("Abstain"), abstain, hint=_("It goes neutral; you may move a house")),
        ],
        rule="7.2",
    )
    return top


def houses_menu(state: State, seat: int, legal: tuple[Decision, ...], district: int, rule: str) -> Menu:
    """rules.md 8.2 [RULING]: the full count is offered first. Each option's hint says whether a palace can follow
    (8.4: a check after at least one house, which a palace in supply, a free space and enough houses must pass)."""
    counts = sorted((d.number for d in legal if type(d) is Houses), reverse=True)
    can = not state.district_full(district) and state.palace_supply(seat) > 0

    def hint(n: int) -> str:
        # rules.md 8.4: placing at least one house is a palace check; placing none is none
        if n == 0:
            return _("No palace here this time")
        if can and state.houses(district, seat) + n >= state.palace_cost(district):
            return _("Then you may build here")
        return _("Not enough for a palace") if can else _("No palace possible here")

    options = [
        Option(
            _("Place none") if n == 0 else ngettext("Place {n} house", "Place {n} houses", n).format(n=n),
            Houses(n),
            hint=hint(n),
        )
        for n in counts
    ]
    return Menu(_("Houses in {area}").format(area=AREA_NAMES[district]), options, rule=rule)


def build_menu(state: State, district: int, together: bool) -> Menu:
    """rules.md 8.4; 8.6: tied builders all pay the first free space's cost, and their spaces follow seat order, so
    only a single builder can be told the space (by its printed number, 3 to 7) before anyone answers."""
    cost = state.palace_cost(district)
    question = (
        _("A palace in {area}? Every builder pays {cost}").format(area=AREA_NAMES[district], cost=cost)
        if together
        else _("A palace in {area}, on the space marked {space}?").format(area=AREA_NAMES[district], space=cost)
    )
    # rules.md 8.6: tied builders' palaces take the next free spaces in seat order; 8.4: extra houses stay
    build_hint = (
        _("Palaces go on the free spaces in seat order")
        if together
        else _("Palace on space {space}; your other houses stay").format(space=cost)
    )
    spoken = (
        pgettext("spoken", "A palace in {area}? Every builder pays {cost} houses.")
        if together
        else pgettext("spoken", "A palace in {area}, on the space marked {space}?")
    )
    return Menu(
        question,
        [
            Option(_("Build: {cost} houses back").format(cost=cost), Build(True), hint=build_hint),
            Option(_("Do not build"), Build(False), hint=_("Your houses stay; no palace")),
        ],
        rule="8.4",
        spoken=spoken.format(area=AREA_NAMES[district], cost=spoken_number(cost), space=spoken_number(cost)),
    )


def move_menu(legal: tuple[Decision, ...], rule: str) -> Menu:
    """rules.md 10.4, 10.5: one house move, any district to any other, or none."""
    moves = [(d.move.source, d.move.target, d) for d in legal if type(d) is Move and d.move is not None]
    options = [Option(_("Move no house"), Move(None), hint=_("The board stays as it is"))]
    if moves:
        tree = _move_tree(_("Move which house?"), moves, rule)
        options.insert(0, Option(_("Move a house"), tree, hint=_("Pick the house, then where it goes")))
    return Menu(_("You may move a house"), options, rule=rule)


def navigate(menu: Menu, key: str) -> Option | None:
    """left/right move, ok picks; a direct key (or a phone's ``pick:N``) picks its option at once."""
    if key in ("left", "right"):
        menu.move(1 if key == "right" else -1)
        return None
    if key == "ok":
        return menu.current
    if key.startswith("pick:"):  # a phone pad's button for one option
        picked = int(key[5:])
        if picked >= len(menu.options):
            return None
        menu.cursor = picked
        return menu.current
    index = menu.find(key)
    if index is not None:
        menu.cursor = index
        return menu.current
    return None


def decision_menu(state: State) -> Menu:
    """The menu of the decision the game awaits first (rules.md 10), from its legal choices."""
    awaited = state.awaiting()[0]
    seat = awaited.player
    legal = state.legal(seat)
    if awaited.decision == "advisor":
        assert awaited.slot is not None
        return advisor_menu(state, seat, awaited.slot, legal)
    if awaited.decision == "houses":
        assert awaited.district is not None
        return houses_menu(state, seat, legal, awaited.district, awaited.rule)
    if awaited.decision == "build":
        assert awaited.district is not None
        return build_menu(state, awaited.district, awaited.together)
    return move_menu(legal, awaited.rule)
