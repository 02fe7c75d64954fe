"""Every board sentence in every language names what record-format.md 4's "plain" asks: the player, the count, the
place, the printed palace space; and no English is left in German or Italian (the Quarantia included, as a place)."""

from __future__ import annotations

import itertools
import re

import pytest

from companion.engine.areas import AREA_NAMES, QUARANTIA
from companion.engine.changes import (
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
from companion.flow.board_text import change_text, player_name
from companion.i18n import set_language

PLAYERS = ("red", "blue", "green")
# The Quarantia is a place with an article in every language ("in die Quarantia", "nella Quarantia").
BARE_QUARANTIA = {
    "en": re.compile(r"\b(in|on|from|to) Quarantia"),
    "de": re.compile(r"\b(nach|in|von|auf|aus) Quarantia"),
    "it": re.compile(r"\b(a|da|su|in) Quarantia"),
}
ENGLISH = ("put ", "move ", " advisor", "the Quarantia", " your ", "houses", "markers", "back to")


def every_change() -> list[tuple[Change, tuple[str, ...]]]:
    """Each kind of change with the places and counts it can have, and what its sentence must show."""
    found: list[tuple[Change, tuple[str, ...]]] = []
    for area, count in itertools.product(range(7), (1, 2, 4)):
        found.append((PutMarkers(0, area, count), (str(count),)))
    for district, count in itertools.product(range(6), (1, 2)):
        found.append((PlaceHouses(1, district, count), (AREA_NAMES[district],)))
        found.append((MoveHouses(2, district, (district + 1) % 6, 1), (AREA_NAMES[district],)))
    for district, space in itertools.product(range(6), (3, 5, 7)):
        found.append((BuildPalace(0, district, 5, space), (AREA_NAMES[district], "5", str(space))))
    for advisor, area in itertools.product(range(7), range(7)):
        if advisor == area or (advisor == QUARANTIA and area == QUARANTIA):
            continue
        shown = () if area == QUARANTIA else (AREA_NAMES[area],)
        found.append((TakeAdvisor(1, advisor, area), shown))
        found.append((AdvisorBack(2, advisor, area), shown))
        if advisor != QUARANTIA:
            target = next(a for a in range(7) if a not in (advisor, area))
            found.append((MoveAdvisor(0, advisor, area, target), (AREA_NAMES[target], *shown)))
    found += [(TurnCard(a), (AREA_NAMES[a],)) for a in range(7)]
    found += [(MarkersBack(), ()), (NewYear(3), ("3",))]
    return found


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_every_sentence_names_its_player_count_and_place(language: str) -> None:
    set_language(language)
    try:
        for change, must_show in every_change():
            text = change_text(change, PLAYERS)
            player = getattr(change, "player", None)
            if player is not None:
                assert player_name(PLAYERS[player]) in text, (language, change, text)
            for part in must_show:
                assert part in text, (language, change, text, part)
            if QUARANTIA in (getattr(change, f, None) for f in ("area", "source", "target")):
                assert "Quarantia" in text, (language, change, text)
            if type(change) is not TurnCard:  # a card is named, not a place
                assert not BARE_QUARANTIA[language].search(text), (language, change, text)
            if language != "en":
                assert not any(word in text for word in ENGLISH), (language, change, text)
    finally:
        set_language("en")
