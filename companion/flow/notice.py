"""What the table reads and does before play goes on, as a value: a notice, who confirms it, and when it goes by
itself. Apart from narration.py, which writes the notices, so the rooms that only hold or show one (the in-between,
the notice store, the views) need none of the sentences."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from display.screen import Line

from ..engine.undo import Revealed

NoticeKind = Literal["notice", "reveal", "count", "empty", "instructions", "year", "undo", "error", "reminder"]
"""What a notice is (the screen's tag too): a round's reveal, a count, an election nobody voted in, what to do on the
board, a year's end, the undo's question or result, a save that failed, the first year's reminder; else a notice."""
NOTICE_KINDS: frozenset[str] = frozenset(get_args(NoticeKind))

_ENTRIES = itertools.count(1)

ANYONE = "*"
"""The owner of a computer seat's pieces on a notice: any player at the table moves them and confirms."""


@dataclass(frozen=True)
class Notice:
    """Something the table reads, and does, before play goes on (a count, what to do on the board). A value: what
    changes while it waits (who confirmed it, whether it was on a screen, which of its parts were up) makes a new
    notice in its place, through the queue's own operations (``between.Between``), so no holder of one sees it
    change under them.

    ``owners`` confirm it with ok on their own pads, the host's ok confirms it whoever is left; with no owners only
    the host's ok clears it, unless it is ``passive``: a count a computer player acts on, which yields to that
    player's move and heads its notice. ``reveals`` is what the table learns when it reaches the screen (``seen``)
    from record line ``line`` (its index): until then that line may be taken back (rules.md 11.4.1). ``spoken`` is
    what the voice says of it (flow/announcer.py): sentences written for the ear from the same facts, the fewest
    that let the table act (numbers as words, no brackets); a notice from an older save has its title only. A
    ``quiet`` notice begins without a word (a person's own pieces, as they just chose): the repeat key says it. A
    ``by_itself`` notice moves no piece: it waits for nobody's ok and goes on a tick of the page timer once every
    part of it has been up its time (routing.py's ``turn_by_itself``)."""

    title: str
    lines: tuple[Line, ...]
    rule: str | None = None
    tag: NoticeKind = "notice"
    page: tuple[int, int] | None = None  # (n, of): one page of several read in a row (the first year's reminder)
    owners: tuple[str, ...] = ()
    confirmed: frozenset[str] = frozenset()
    reveals: tuple[Revealed, ...] = ()
    line: int | None = None
    seen: bool = False
    passive: bool = False
    spoken: tuple[str, ...] = ()
    quiet: bool = False
    by_itself: bool = False
    # (name, n): its first n lines are what the election ``name`` ended with (the card it turned, 5.2), shown first
    # and led by that name (flow/views.py's notice_view).
    lead: tuple[str, int] | None = None
    # Which of its parts the LCD has shown, of how many (composition.py): it goes only once all were up. Not
    # stored: after a power cut every part is shown again.
    parts_shown: frozenset[int] = field(default=frozenset(), compare=False, repr=False)
    parts: int = field(default=1, compare=False, repr=False)
    # Which notice this is, whatever its ticks, parts or the lines joined to it: every change keeps it, and no two
    # notices made in one run share it (the voice says a notice once, when it reaches the top: flow/announcer.py).
    entry: int = field(default_factory=lambda: next(_ENTRIES), compare=False, repr=False)

    @property
    def read(self) -> bool:
        """Every part of it has been on the screen (a player's ok alone never sends a line away unseen)."""
        return all(k in self.parts_shown for k in range(self.parts))

    @property
    def waiting(self) -> tuple[str, ...]:
        """The owners still to confirm, in the order the notice names them."""
        return tuple(owner for owner in self.owners if owner not in self.confirmed)

    def confirmed_by(self, owner: str) -> Notice:
        """The notice once ``owner`` is done with what it asked of them ("done" on their pad)."""
        return replace(self, confirmed=self.confirmed | {owner})

    def part_shown(self, index: int, count: int) -> Notice:
        """The notice once its part ``index`` of ``count`` has been up (composition.py)."""
        return replace(self, parts=count, parts_shown=self.parts_shown | {index})


def owners_of(colours: Sequence[str | None], computer_colours: Sequence[str]) -> tuple[str, ...]:
    """Who confirms a notice moving these colours' pieces: each human for themselves, anyone for a computer."""
    found: list[str] = []
    for colour in colours:
        owner = ANYONE if colour in computer_colours else colour
        if owner is not None and owner not in found:
            found.append(owner)
    return tuple(found)


def count_owners(notice: Notice, acting: tuple[str, ...]) -> Notice:
    """The count confirmed by nobody (it goes by itself), unless a turned card heads it: then by ``acting``."""
    card = any(kind == "card" for kind, _area in notice.reveals)
    return replace(notice, owners=acting, by_itself=False) if card else replace(notice, owners=(), by_itself=True)
