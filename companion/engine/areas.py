"""The fixed vocabulary of the board: areas, districts and component counts (rules.md 1).

Areas are small integers inside the engine because the state is kept in flat lists indexed by them (cheap to copy,
fast to index); their record ids are the strings in :data:`AREAS`.
"""

from __future__ import annotations

from typing import Final

AREAS: Final = ("cannaregio", "castello", "dorsoduro", "san_marco", "san_polo", "santa_croce", "quarantia")
AREA_INDEX: Final = {area: index for index, area in enumerate(AREAS)}
AREA_NAMES: Final = ("Cannaregio", "Castello", "Dorsoduro", "San Marco", "San Polo", "Santa Croce", "Quarantia")

CANNAREGIO, CASTELLO, DORSODURO, SAN_MARCO, SAN_POLO, SANTA_CROCE, QUARANTIA = range(7)
DISTRICTS: Final = range(6)
ALL_AREAS: Final = range(7)

# rules.md 1.1 and 1.2: what each player owns.
HOUSES_PER_PLAYER: Final = 15
PALACES_PER_PLAYER: Final = 8
RINGS_PER_PLAYER: Final = 6
MARKER_VALUES: Final = (0, 1, 1, 2, 2, 3, 3)
MARKER_COUNTS: Final = (1, 2, 2, 2)  # how many markers of value 0, 1, 2, 3 a full supply holds
MARKERS_PER_PLAYER: Final = len(MARKER_VALUES)
QUARANTIA_ADVISORS: Final = 3

# rules.md 8.4: a district holds at most 5 palaces; the first costs 3 houses, each further one 1 more.
MAX_PALACES: Final = 5
FIRST_PALACE_COST: Final = 3


def rounds_per_year(players: int) -> int:
    """rules.md 4.1: 4 ballot rounds with 3 players, 3 with 4 players."""
    return 4 if players == 3 else 3


def area_name(area: int) -> str:
    """The name printed on the board, for messages meant for players."""
    return AREA_NAMES[area]
