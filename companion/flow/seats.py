"""The table: who sits where, which pad is whose, computer seats, which pads are plugged in, and what the table
hears (the voice's level, which the App sets: flow/sound.py).

Seat order is join order (rules.md 2.3); the record's header keeps pads, bots, entry mode and language so a resumed
game sits everyone where they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NewType

from ..i18n import LANGUAGES, language, set_language
from .board_text import display_name
from .sound import Sound

Seat = NewType("Seat", int)
"""A player's place in seat order, from 0: the engine's ``player`` (rules.md 2.3), the record's index."""
Colour = NewType("Colour", str)
"""A player's colour id as the record keeps it ("red"); people read its name (``board_text.player_name``)."""
Source = NewType("Source", str)
"""Where keys come from: "host" (the device's buttons), a pad's slot ("1".."4"), a computer seat's ("cpu1") or a
phone's ("phone1"). A seat is known by its source at setup and in the record's header ("pads")."""

COLOURS = tuple(Colour(c) for c in ("red", "blue", "green", "yellow"))
HOST = Source("host")  # the device's own buttons
ENTRY_MODES = ("private", "keypads")


@dataclass
class Seats:
    entry: str = "private"  # how ballots are entered: one at a time on the screen, or at once on keypads
    language: str = field(default_factory=language)
    joined: list[tuple[Source, Colour]] = field(default_factory=list)  # in seat order
    bot_levels: dict[Source, str] = field(default_factory=dict)  # computer seats -> level
    bot_level: str = "normal"
    bot_work: int | None = None  # the hard player's work per decision; None: measured (companion.bots)
    connected: set[Source] = field(default_factory=set)
    unplugged: set[Source] = field(default_factory=set)
    sound: Sound = field(default_factory=Sound)

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(colour for _pad, colour in self.joined)

    @property
    def computer_colours(self) -> tuple[Colour, ...]:
        """The colours of the computer seats."""
        return tuple(colour for source, colour in self.joined if source in self.bot_levels)

    @property
    def ready(self) -> bool:
        return 3 <= len(self.joined) <= 4

    def seat_of(self, source: Source) -> Seat | None:
        return next((Seat(seat) for seat, (joined, _colour) in enumerate(self.joined) if joined == source), None)

    def source_of(self, seat: Seat) -> Source:
        return self.joined[seat][0]

    def is_bot(self, source: Source) -> bool:
        return source in self.bot_levels

    def colour_of(self, seat: Seat) -> Colour:
        return self.joined[seat][1]

    def display_name(self, seat: Seat) -> str:
        """The seat's name as the table reads it, a computer seat's as such ("Yellow (computer)")."""
        return display_name(self.colour_of(seat), self.computer_colours)

    def pad_status(self, source: Source, connected: bool) -> None:
        if connected:
            self.unplugged.discard(source)
            self.connected.add(source)
        else:
            self.unplugged.add(source)
            self.connected.discard(source)

    # ------------------------------------------------------------------ setup

    def pad_key(self, source: Source, key: str) -> None:
        """ok joins with the next free colour; left/right pick another free one; back leaves."""
        seat = self.seat_of(source)
        taken = set(self.colours)
        if seat is None:
            if key == "ok" and len(self.joined) < 4:
                self.joined.append((source, next(c for c in COLOURS if c not in taken)))
            return
        if key in ("left", "right"):
            free = [c for c in COLOURS if c not in taken]
            if free:
                current = self.joined[seat][1]
                ring = sorted([*free, current], key=COLOURS.index)
                step = 1 if key == "right" else -1
                self.joined[seat] = (source, ring[(ring.index(current) + step) % len(ring)])
        elif key == "back":
            self.joined.pop(seat)

    def add_or_clear_bots(self) -> None:
        """The host's back button at setup: one more computer player, or (with a full table) none."""
        if len(self.joined) >= 4:
            self.joined = [(source, colour) for source, colour in self.joined if source not in self.bot_levels]
            self.bot_levels = {}
            return
        taken = set(self.colours)
        source = Source(f"cpu{len(self.bot_levels) + 1}")
        while source in self.bot_levels:
            source = Source(source + "+")
        self.bot_levels[source] = self.bot_level
        self.joined.append((source, next(c for c in COLOURS if c not in taken)))

    def next_entry(self) -> None:
        self.entry = ENTRY_MODES[(ENTRY_MODES.index(self.entry) + 1) % len(ENTRY_MODES)]

    def next_language(self) -> None:
        self.language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
        set_language(self.language)

    # ------------------------------------------------------------------ the record's header

    def header_extra(self) -> dict[str, Any]:
        return {
            "app": "doge-companion",
            "entry": self.entry,
            "language": self.language,
            "pads": [source for source, _colour in self.joined],
            "bots": {colour: self.bot_levels[source] for source, colour in self.joined if source in self.bot_levels},
        }

    def sit_as_in(self, players: tuple[str, ...], extra: dict[str, Any]) -> None:
        """Everyone back in their seat from a stored header (resume)."""
        pads = extra.get("pads") or [str(n) for n in range(1, len(players) + 1)]
        self.joined = list(zip(map(Source, pads), map(Colour, players), strict=True))
        self.entry = extra.get("entry", "private")
        bots = extra.get("bots") or {}
        self.bot_levels = {source: bots[colour] for source, colour in self.joined if colour in bots}
        if extra.get("language") in LANGUAGES:
            self.language = extra["language"]
            set_language(self.language)
