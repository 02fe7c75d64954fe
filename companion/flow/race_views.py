"""Where the race stands, as screens: the year so far (its elections, who won them, the markers still lying, next
year's cards turned, the palaces built) and how close each player is to each victory condition (rules.md 9.2).

Pure functions of public facts (rules.md 11.3), like ``views.py``: the snapshot as the table has been shown it
(``shown.Seen.board``), the counts the table has read, the palaces at the year's start and the engine's
``State.palaces_to_go``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from display.screen import Line, Screen

from ..engine import Condition, Count
from ..i18n import _, ngettext
from .board_text import NAMES, player_name
from .narration import NO_BREAK, SHORT_CONDITIONS


def _votes(count: Count, players: Sequence[str]) -> str:
    ranked = sorted((seat for seat, votes in enumerate(count.votes) if votes), key=lambda seat: -count.votes[seat])
    if not ranked:
        return _("nobody had a vote")
    return ", ".join(f"{player_name(players[seat])} {count.votes[seat]}" for seat in ranked)


def year_view(
    snap: dict[str, Any],
    counts: Mapping[str, Count],
    palaces_before: Mapping[str, int],
    palaces_now: Mapping[str, int],
    footer: str,
) -> Screen:
    """The year so far: where it is, each area of this year's order (its votes once counted, else the markers lying
    there), next year's cards turned so far and the palaces built this year."""
    players = list(snap["players"])
    if snap["phase"] == "ballot":
        where = _("Ballots, round {n}").format(n=snap["round"])
    elif snap["phase"] == "election":
        done = len(snap["order"]["next_year"])
        where = _("Election {n} of 7: {area}").format(n=min(done + 1, 7), area=NAMES[snap["area"]])
    else:
        where = _("All 7 elections held")
    lines = [Line(where, "normal")]
    for area in snap["order"]["this_year"]:
        count = counts.get(area)
        if count is not None:
            text = f"{NAMES[area]}: {_votes(count, players)}"
        elif area in snap["stacks"]:
            lying = ", ".join(f"{player_name(p)} {n}" for p, n in snap["stacks"][area].items())
            text = _("{area}: markers {lying}").format(area=NAMES[area], lying=lying)
        else:
            text = _("{area}: no markers").format(area=NAMES[area])
        lines.append(Line(text, "small"))
    turned = ", ".join(NAMES[a] for a in snap["order"]["next_year"]) or "-"
    lines.append(Line(_("Next year so far: {cards}").format(cards=turned), "small"))
    built = [(p, palaces_now[p] - palaces_before.get(p, 0)) for p in players]
    gains = ", ".join(f"{player_name(p)} +{n}" for p, n in built if n) or _("none yet")
    lines.append(Line(_("Palaces this year: {gains}").format(gains=gains), "small"))
    return Screen(
        _("Year {year} so far").format(year=snap["year"]), tuple(lines), footer=footer, rule="5.1", tags=("this-year",)
    )


def race_view(race: Sequence[tuple[str, int, int, Sequence[tuple[Condition, int | None]]]], footer: str) -> Screen:
    """rules.md 9.2: each player's palaces and districts, and how many more palaces each victory condition needs
    (a dash: out of reach), in the order the first line names them; checked only at a year's end (9.1)."""
    conditions = [condition for condition, _more in race[0][3]] if race else []
    heading = " · ".join(_(SHORT_CONDITIONS[condition]).replace(" ", NO_BREAK) for condition in conditions)
    # The key to the columns heads every part of the race (display/pages.py), each condition on one row ("8 in 4").
    lines = [Line(_("Palaces to go for: {conditions}").format(conditions=heading), "small", key=True)]
    for player, palaces, districts, to_go in race:
        built = ngettext("{n} palace", "{n} palaces", palaces).format(n=palaces)
        spread = ngettext("{d} district", "{d} districts", districts).format(d=districts)
        needs = " · ".join("-" if more is None else str(more) for _condition, more in to_go)
        lines.append(Line(f"{player_name(player)}: {built}, {spread}: {needs}", "normal", player))
    return Screen(_("The race"), tuple(lines), footer=footer, rule="9.2", tags=("board", "page:race"))
