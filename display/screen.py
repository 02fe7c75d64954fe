"""Screen models: what a screen says, with no pixels.

The game flow builds them from views only (never from the engine's state), the renderer draws them, and the secrecy
tests read their text: whatever is not in a screen model cannot reach the shared screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Size = Literal["large", "normal", "small"]
TEXT_SIZES = ("normal", "large")  # the ``[display] text_size`` setting: the renderer's type sizes (display/render.py)
TICK = "✓ "  # before a line its player has confirmed ("done")


@dataclass(frozen=True)
class Line:
    text: str
    size: Size = "normal"
    colour: str | None = None  # a player's colour name, or None for the theme's text colour
    with_previous: bool = False  # a screen in parts keeps it on the part of the line before (a setting and its key)
    tick_room: bool = False  # its player is still to confirm it: laid out as if ticked, so a tick moves no line
    key: bool = False  # the key to the lines under it (a table's columns): a screen in parts repeats it on every part
    result: bool = False  # in its player's colour but nothing to do (a count's votes): a player's "done" ticks it not

    def laid_out(self) -> str:
        """The text the line is wrapped as: with a tick's room before it while its tick may still come."""
        return TICK + self.text if self.tick_room else self.text


@dataclass(frozen=True)
class MenuView:
    """A menu as shown: its options, the highlighted one, those ticked (markers picked), and per option one short line
    of what it does (``hints``, empty or one per option): the highlighted option's is drawn under the menu."""

    options: tuple[str, ...]
    cursor: int = 0
    chosen: frozenset[int] = frozenset()
    hints: tuple[str, ...] = ()

    @property
    def hint(self) -> str:
        return self.hints[self.cursor] if self.cursor < len(self.hints) else ""


@dataclass(frozen=True)
class MapArea:
    """One area of the board as drawn on the map: its name, houses per player, palaces by owner in building order
    (on the spaces marked 3 to 7) and the ring colour of each advisor standing there: the district advisors first,
    then the last ``from_quarantia`` of them, the Quarantia's (drawn square: a district's advisor and a Quarantia
    advisor of one player in one place were two identical rings, found at 160x128)."""

    name: str
    houses: tuple[tuple[str, int], ...] = ()
    palaces: tuple[str, ...] = ()
    advisors: tuple[str, ...] = ()
    from_quarantia: int = 0


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple[Line, ...] = ()
    footer: str = ""
    rule: str | None = None  # the rule behind what the screen asks for, shown in a corner
    tags: tuple[str, ...] = field(default=())  # machine-readable marks for tests and logs ("welcome", ...)
    menu: MenuView | None = None
    colour: str | None = None  # whose screen it is: the title is drawn in that player's colour
    chart: tuple[tuple[str, tuple[int, ...]], ...] | None = None  # per player, palaces at the end of each year
    legend: tuple[str, ...] = ()  # the chart's players as people say them, in chart order; a map's key
    board: tuple[MapArea, ...] | None = None  # the six districts then the Quarantia, drawn as a map
    players: tuple[tuple[str, str], ...] = ()  # a map's players, colour and name: its key gives each one's mark
    # What the host's keys do on this screen, ("left", "language"), ...: keys "ok", "left", "right", "back",
    # "hold:back" and "any". Not drawn on the LCD (the footer and lines say it there); a window that draws the
    # device's buttons names them from it, so its hint follows the screen instead of going stale.
    keys: tuple[tuple[str, str], ...] = ()
    part: tuple[int, int] | None = None  # (k, n): part k of a screen too long for the display (display/pages.py)
    qr: tuple[str, ...] | None = None  # a QR code's rows ("1" dark), drawn at the right (the web pads' join link)
    footer_room: str = ""  # a longer footer the same screen may show next: its rows are kept, so nothing moves
    # A screen shown as the first part(s) before this one's own, with its own code (the Pi's Wi-Fi before the join
    # code, at setup on the first boot): display/pages.py puts it first wherever the screen is cut into parts.
    preface: Screen | None = None

    def text(self) -> str:
        """Every word the screen shows, for tests that check what must not be shown."""
        menu = (*self.menu.options, *self.menu.hints) if self.menu else ()
        return "\n".join(
            [
                self.title,
                *(line.text for line in self.lines),
                *menu,
                *self.legend,
                *(name for _colour, name in self.players),
                self.footer,
                self.rule or "",
                *(meaning for _key, meaning in self.keys),
                *([self.preface.text()] if self.preface else []),
            ]
        )
