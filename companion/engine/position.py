"""Known positions for tests and examples, built through the engine instead of by writing its private lists.

Like a FEN in chess tests: a rule can be tested in the position it is about without playing the years that would
lead there. Every piece is taken from its owner's supply, so the position is one a game could reach (pieces are
conserved, a ring stands on each controlled advisor); anything impossible is refused with a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from .areas import AREA_INDEX, MAX_PALACES, QUARANTIA, QUARANTIA_ADVISORS

if TYPE_CHECKING:
    from .state import State


def set_up(
    state: State,
    houses: Mapping[str, Mapping[str, int]] | None = None,
    palaces: Mapping[str, Sequence[str]] | None = None,
    advisors: Mapping[str, tuple[str, str]] | None = None,
    quarantia: Iterable[tuple[str, str]] = (),
) -> None:
    """Put pieces on the board as if earlier years had: ``houses`` per district and player (the count there from
    now on), ``palaces`` per district in space order, ``advisors`` per district as ``(controller, area)``, and
    controlled Quarantia advisors as ``(controller, area)``. Ids are record-format.md's (players and areas)."""
    index = {p: i for i, p in enumerate(state._players)}
    n = state._n

    def seat(player: str) -> int:
        if player not in index:
            raise ValueError(f"no player {player!r} at this table")
        return index[player]

    def district_of(area: str) -> int:
        d = AREA_INDEX.get(area, -1)
        if not 0 <= d < QUARANTIA:
            raise ValueError(f"{area!r} is not a district")
        return d

    for district, per_player in (houses or {}).items():
        d = district_of(district)
        for player, count in per_player.items():
            p = seat(player)
            supply = state._house_supply[p] + state._board[d * n + p] - count
            if count < 0 or supply < 0:
                raise ValueError(f"{player} has not {count} houses for {district}")
            state._house_supply[p] = supply
            state._board[d * n + p] = count
    for district, owners in (palaces or {}).items():
        d = district_of(district)
        if len(owners) > MAX_PALACES:
            raise ValueError(f"{district} holds at most {MAX_PALACES} palaces")
        for owner in state._palaces[d]:
            state._palace_supply[owner] += 1
        state._palaces[d] = tuple(seat(o) for o in owners)
        for owner in state._palaces[d]:
            state._palace_supply[owner] -= 1
            if state._palace_supply[owner] < 0:
                raise ValueError(f"{state._players[owner]} has no palace left")
    for district, (player, area) in (advisors or {}).items():
        d, p = district_of(district), seat(player)
        if state._advisor_controller[d] >= 0 or not state._rings[p] or AREA_INDEX[area] == d:
            raise ValueError(f"{player} cannot control the {district} advisor standing in {area}")
        state._advisor_controller[d] = p
        state._advisor_area[d] = AREA_INDEX[area]
        state._rings[p] -= 1
    for player, area in quarantia:
        p = seat(player)
        if not state._rings[p] or len(state._quarantia) >= QUARANTIA_ADVISORS:
            raise ValueError(f"{player} cannot control another Quarantia advisor")
        state._quarantia = tuple(sorted((*state._quarantia, (p, district_of(area)))))
        state._rings[p] -= 1
