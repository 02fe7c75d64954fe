"""Reading the board sentences as a player does: English text in, the change it asks for out.

The end-to-end tests give the table twin only what the screen says, read through this, so a sentence that leaves out
a count, a place or a palace space (or says one wrongly) makes the twin's board differ from the game's.
"""

from __future__ import annotations

import re
from typing import Any

AREA_IDS = {
    "Cannaregio": "cannaregio",
    "Castello": "castello",
    "Dorsoduro": "dorsoduro",
    "San Marco": "san_marco",
    "San Polo": "san_polo",
    "Santa Croce": "santa_croce",
    "Quarantia": "quarantia",
}
AREA = "(" + "|".join(AREA_IDS) + ")"
NAME = r"(Red|Blue|Green|Yellow)(?: \(computer\))?"  # a computer seat's pieces are named as such
COUNT = r"(a|\d+)"

PATTERNS: list[tuple[str, str, tuple[str, ...]]] = [
    (rf"{NAME}: put (\d+) of your markers face down on (?:the )?{AREA}", "markers", ("player", "count", "area")),
    (rf"{NAME}: (\d+) on (?:the )?{AREA}", "markers", ("player", "count", "area")),  # a round's reveal, in short
    (r"Everyone: take back all your markers\.", "markers_back", ()),
    (f"{NAME}: put {COUNT} houses? in {AREA}", "houses", ("player", "count", "district")),
    (f"{NAME}: move {COUNT} houses? from {AREA} to {AREA}", "move", ("player", "count", "from", "to")),
    (f"{NAME}: take {COUNT} houses? from {AREA} back to your supply", "houses_back", ("player", "count", "district")),
    (
        rf"{NAME}: take your palace off the space marked (\d) in {AREA} and put (\d+) houses? back there",
        "palace_back",
        ("player", "space", "district", "houses"),
    ),
    (
        rf"{NAME}: take (\d+) houses? from {AREA} back to your supply and put a palace on the space marked (\d)",
        "palace",
        ("player", "houses_back", "district", "space"),
    ),
    (
        f"{NAME}: put one of your rings on a Quarantia advisor and stand it in {AREA}",
        "advisor",
        ("player", "area"),
    ),
    (
        f"{NAME}: put one of your rings on the {AREA} advisor and stand it in (?:the )?{AREA}",
        "advisor",
        ("player", "advisor", "area"),
    ),
    (
        f"{NAME}: move the {AREA} advisor from (?:the )?{AREA} to (?:the )?{AREA}",
        "advisor_move",
        ("player", "advisor", "from", "to"),
    ),
    (
        f"A Quarantia advisor in {AREA} goes back to the Quarantia; {NAME} takes the ring back",
        "advisor_back",
        ("from", "player"),
    ),
    (
        f"The {AREA} advisor in (?:the )?{AREA} goes back to its symbol; {NAME} takes the ring back",
        "advisor_back",
        ("advisor", "from", "player"),
    ),
    (f"Take the {AREA} card and lay it face up as next year's next card", "card", ("area",)),
    (r"Year (\d+) begins: the turned-up cards are its order; .*", "new_year", ("year",)),
]
LED = re.compile(AREA + ": (?=Take the )")
COMPILED = [(re.compile(pattern + "$"), do, fields) for pattern, do, fields in PATTERNS]


def read_sentence(text: str) -> dict[str, Any] | None:
    """The change an English board sentence asks for, or None if the text is no board sentence."""
    text = text.replace("\u00a0", " ").removeprefix("✓ ")  # "San Marco" glued; a tick: that player is done
    led = LED.match(text)  # a card under the election that turned it ("San Polo: Take the Castello card…")
    text = text[led.end() :] if led else text
    for pattern, do, fields in COMPILED:
        match = pattern.match(text)
        if not match:
            continue
        change: dict[str, Any] = {"do": do}
        for field, value in zip(fields, match.groups(), strict=True):
            if field == "player":
                change[field] = value.lower()
            elif field in ("count", "houses_back", "space", "year", "houses"):
                change[field] = 1 if value == "a" else int(value)
            else:
                change[field] = AREA_IDS[value]
        if do in ("houses", "move", "houses_back"):
            change.setdefault("count", 1)
        if do in ("advisor", "advisor_back"):
            change.setdefault("advisor", "quarantia")
        return change
    return None
