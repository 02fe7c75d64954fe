"""Each player's mark: a shape of its own beside its colour, the same on the LCD's map and chart, the summary
picture, the phones and the table view, so a player who cannot tell two colours apart still tells the players
apart (docs/architecture.md, "Telling players apart").

Drawn as polygons, not as glyphs: the DejaVu subset shipped with the companion need not have them, and a polygon
has the same pixels at every type size. The web pages use the glyphs in :data:`SYMBOLS`, the same shapes.
"""

from __future__ import annotations

from PIL import ImageDraw

Colour = tuple[int, int, int]
# Four shapes that differ in their outline at a radius of 3 pixels (7 across): a disc has no corners, a square four
# at its corners, a triangle three, a diamond four at its sides' middles.
MARKS = {"red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond"}
ORDER = ("circle", "square", "triangle", "diamond")  # for a colour outside the edition's four, by its place
SYMBOLS = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆"}


def mark_of(colour: str, index: int = 0) -> str:
    """The shape of ``colour``'s mark; a colour the edition has not (a test's) takes the ``index``-th shape."""
    return MARKS.get(colour, ORDER[index % len(ORDER)])


def draw_mark(
    draw: ImageDraw.ImageDraw,
    shape: str,
    at: tuple[int, int],
    radius: int,
    fill: Colour,
    hollow: bool = False,
) -> None:
    """``shape`` centred at ``at``, ``2 * radius + 1`` pixels across (a triangle and a diamond a pixel more, so their
    points read as points); ``hollow``: its outline only, one pixel wide below a radius of 4, else two."""
    x, y = at
    r = radius
    width = 1 if r < 4 else 2
    inside, edge = (None, fill) if hollow else (fill, None)
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=inside, outline=edge, width=width)
    elif shape == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=inside, outline=edge, width=width)
    elif shape == "triangle":
        draw.polygon(((x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)), fill=inside, outline=edge, width=width)
    else:
        points = ((x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y))
        draw.polygon(points, fill=inside, outline=edge, width=width)
