"""What the players must do on the physical board, derived from two public snapshots (before and after a step).

Working from snapshots (RECORD.md 2) rather than from the decision means automatic consequences (rings returning
when the Quarantia clears, a tie sending an advisor home, a card of next year's order turning) get their
instructions too, and nothing secret can slip in: a snapshot holds none.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from ..engine.areas import AREA_NAMES, AREAS
from ..i18n import N_, _, ngettext

NAMES = dict(zip(AREAS, AREA_NAMES, strict=True))
COLOUR_NAMES = {"red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow")}


class Instruction(NamedTuple):
    player: str | None  # whose pieces (their colour on screen); None for everyone
    text: str


def player_name(player: str) -> str:
    """A player's colour as people say it, in the table's language (the record keeps the id)."""
    name = COLOUR_NAMES.get(player)
    return _(name) if name else player.capitalize()


def _houses(snapshot: dict[str, Any], district: str, player: str) -> int:
    houses: dict[str, int] = snapshot["districts"][district]["houses"]
    return houses.get(player, 0)


def _house_instructions(before: dict[str, Any], after: dict[str, Any], player: str) -> list[Instruction]:
    name = player_name(player)
    found: list[Instruction] = []
    change: dict[str, int] = {}
    for district in AREAS[:6]:
        old_palaces = before["districts"][district]["palaces"]
        new_palaces = after["districts"][district]["palaces"]
        delta = _houses(after, district, player) - _houses(before, district, player)
        for space in range(len(old_palaces) + 1, len(new_palaces) + 1):
            if new_palaces[space - 1] != player:
                continue
            cost = space + 2  # RULES.md 8.4: the first space costs 3
            delta += cost
            found.append(
                Instruction(
                    player,
                    _(
                        "{name}: take {cost} houses from {district} back to your supply and put a palace on space "
                        "{space}"
                    ).format(name=name, cost=cost, district=NAMES[district], space=space),
                )
            )
        if delta:
            change[district] = delta
    sources = [d for d, delta in change.items() for _unit in range(-delta) if delta < 0]
    targets = [d for d, delta in change.items() for _unit in range(delta) if delta > 0]
    moves = Counter(zip(sources, targets, strict=False))
    placed = Counter(targets[len(sources) :])
    lines = [
        Instruction(
            player,
            ngettext("{name}: move a house from {a} to {b}", "{name}: move {n} houses from {a} to {b}", count).format(
                name=name, n=count, a=NAMES[a], b=NAMES[b]
            ),
        )
        for (a, b), count in moves.items()
    ]
    lines += [
        Instruction(
            player,
            ngettext("{name}: put a house in {d}", "{name}: put {n} houses in {d}", count).format(
                name=name, n=count, d=NAMES[district]
            ),
        )
        for district, count in placed.items()
    ]
    return lines + found


def _advisor_instructions(before: dict[str, Any], after: dict[str, Any]) -> list[Instruction]:
    found: list[Instruction] = []
    for district in AREAS[:6]:
        old, new = before["advisors"][district], after["advisors"][district]
        if old == new:
            continue
        name = NAMES[district]
        if new is None:
            found.append(
                Instruction(
                    old["controller"],
                    _("The {district} advisor goes back to its symbol; {owner} takes the ring back").format(
                        district=name, owner=player_name(old["controller"])
                    ),
                )
            )
            continue
        owner, area = new["controller"], NAMES[new["area"]]
        if old is not None and old["controller"] == owner:
            text = _("{name}: move the {district} advisor to {area}").format(
                name=player_name(owner), district=name, area=area
            )
        else:
            text = _("{name}: put one of your rings on the {district} advisor and stand it in {area}").format(
                name=player_name(owner), district=name, area=area
            )
            if old is not None:
                text = _("{owner} takes the ring back. ").format(owner=player_name(old["controller"])) + text
        found.append(Instruction(owner, text))
    old_q = Counter((a["controller"], a["area"]) for a in before["advisors"]["quarantia"])
    new_q = Counter((a["controller"], a["area"]) for a in after["advisors"]["quarantia"])
    for (owner, area), count in (old_q - new_q).items():
        for _count in range(count):
            found.append(
                Instruction(
                    owner,
                    _("A Quarantia advisor in {area} goes back to the Quarantia; {owner} takes the ring back").format(
                        area=NAMES[area], owner=player_name(owner)
                    ),
                )
            )
    for (owner, area), count in (new_q - old_q).items():
        for _count in range(count):
            found.append(
                Instruction(
                    owner,
                    _("{name}: put one of your rings on a Quarantia advisor and stand it in {area}").format(
                        name=player_name(owner), area=NAMES[area]
                    ),
                )
            )
    return found


def _marker_instructions(before: dict[str, Any], after: dict[str, Any]) -> list[Instruction]:
    found = []
    for area, counts in after["stacks"].items():
        for player, count in counts.items():
            added = count - before["stacks"].get(area, {}).get(player, 0)
            if added > 0:
                found.append(
                    Instruction(
                        player,
                        ngettext(
                            "{name}: put your marker face down on {area}",
                            "{name}: put your {n} markers face down on {area}",
                            added,
                        ).format(name=player_name(player), n=added, area=NAMES[area]),
                    )
                )
    return found


def instructions(before: dict[str, Any], after: dict[str, Any]) -> list[Instruction]:
    """Everything to do on the physical board to go from ``before`` to ``after``, in a sensible order."""
    found = _marker_instructions(before, after)
    found += _advisor_instructions(before, after)
    for player in after["players"]:
        found += _house_instructions(before, after, player)
    turned_before, turned_after = before["order"]["next_year"], after["order"]["next_year"]
    if after["year"] == before["year"] and len(turned_after) > len(turned_before):
        for area in turned_after[len(turned_before) :]:
            found.append(Instruction(None, _("Turn up next year's next card: {area}").format(area=NAMES[area])))
    return found
