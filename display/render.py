"""Screen model -> PIL image, for each display size. Pure: no device, no state, the same model gives the same image."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .board_map import draw_board
from .chart import draw_chart
from .screen import TICK, Line, Screen, Size

BACKGROUND = (16, 20, 32)
TEXT = (235, 235, 225)
DIM = (150, 155, 170)
ACCENT = (212, 175, 55)  # the gold of the Doge's cap
# The edition's four, kept apart under protanopia, deuteranopia and tritanopia as well (docs/architecture.md,
# "Telling players apart": green lighter than red, blue darker than green), each 4.5:1 or more on BACKGROUND.
PLAYER_COLOURS = {
    "red": (255, 0, 34),
    "blue": (0, 130, 237),
    "green": (89, 255, 145),
    "yellow": (255, 237, 33),
    "purple": (150, 90, 200),
    "white": (235, 235, 235),
}
# Type sizes per text size setting ([display] text_size) and display height class: small (128 px), medium (240 px),
# large (>= 320 px). At 160x128 no text is smaller than LEGIBLE (x-height in pixels, measured: ``x_height``): a long
# screen comes in parts instead (display/pages.py).
_SIZES: dict[str, dict[str, dict[Size | str, int]]] = {
    "normal": {
        "small": {"title": 12, "large": 16, "normal": 12, "small": 12, "tight": 1},
        "medium": {"title": 18, "large": 24, "normal": 17, "small": 13},
        "large": {"title": 22, "large": 30, "normal": 20, "small": 15},
    },
    "large": {
        "small": {"title": 12, "large": 16, "normal": 14, "small": 14, "tight": 1, "large_type": 1},
        "medium": {"title": 18, "large": 26, "normal": 19, "small": 16, "large_type": 1},
        "large": {"title": 24, "large": 32, "normal": 24, "small": 19, "large_type": 1},
    },
}
# 7 px on a 1.8" 160x128 panel (0.22 mm pixels) is a 1.5 mm x-height with 2 mm capitals (14 arcmin at half a metre,
# near the 16 ISO 9241-303 asks; text_size "large" gives 2.2 mm): the least at which DejaVu's lower-case letters keep
# open counters (e, a, s apart); the 5 px of the old 9 px footer read as smudges across a table.
LEGIBLE = 7


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # wrap() and fit() take a draw; they measure with the font alone
FONT_DIR = Path(__file__).with_name("fonts")  # DejaVu subsets, shipped in the wheel (fonts/LICENSE-DejaVu)
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu has every letter German and Italian need; Pillow's own scalable font lacks the umlauts and accents
    (library-notes.md). The system's DejaVu first (Raspberry Pi OS and most desktops have it), else the subset shipped
    with the companion, so a machine without DejaVu still writes "Stimm-Marke für Dorsoduro" correctly.

    Pillow's basic layout, never raqm's: raqm drew "rn" touching, as an "m", at 12 px ("Sternen" read "Stemen" on a
    160x128 footer: tests/display/test_fonts.py), and a Pi's Pillow may lack raqm: the desktop draws as a Pi does."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for candidate in (name, *(str(folder / name) for folder in (*SYSTEM_FONT_DIRS, FONT_DIR))):
        try:
            return ImageFont.truetype(candidate, size, layout_engine=ImageFont.Layout.BASIC)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1 (Debian bookworm has 9.4) has only its small bitmap font
        return ImageFont.load_default()


@lru_cache(maxsize=4096)
def _length(text: str, face: Any) -> float:
    """Text widths, measured once: a game redraws the same labels thousands of times (Pillow's textlength).

    A width is the sum of its words' widths, each with the space after it: DejaVu kerns nothing against a space, so
    the sum is the width FreeType lays out, to the 1/64 pixel, in both of Pillow's layouts
    (tests/display/test_text_width.py). Pillow's own font, used only where DejaVu (shipped in the wheel) is missing,
    is not checked: there a kerned pair with a space could move a row break by a pixel's worth. A new line is
    broken into rows by the widths of its growing beginnings (:func:`wrap`); each of those was a FreeType layout
    of its own, and is now a sum of words mostly measured before (bench pi found it: in the slowest 2% of an ILI9341
    game's presses, 116 letters laid out for widths a press instead of 10, 0.31 ms of CPU here instead of 0.13)."""
    if " " not in text:
        return _word_length(text, face)
    words = text.split(" ")
    return sum(_word_length(word + " ", face) for word in words[:-1]) + _word_length(words[-1], face)


@lru_cache(maxsize=4096)
def _word_length(word: str, face: Any) -> float:
    return float(face.getlength(word, mode="L"))


@lru_cache(maxsize=512)  # a megabyte or two at most: masks are small, and a game uses far fewer
def _coverage(text: str, face: Any) -> tuple[Image.Image, tuple[int, int]] | None:
    """A text's coverage, rendered once, and where it goes from the text's origin.

    One FreeType layout and render, as ``draw.text`` makes them (``getmask2``), without the bounding box it measures
    first or an RGBA image to draw into: a new text costs a Pi a third of what it did, and a new screen's texts are
    new (bench pi's press -> glass)."""
    if hasattr(face, "getmask2"):
        mask, offset = face.getmask2(text, mode="L")
    else:  # Pillow's bitmap font, where FreeType is missing
        mask, offset = face.getmask(text, mode="L"), (0, 0)
    if min(mask.size) <= 0:
        return None
    return Image.Image()._new(mask), (int(offset[0]), int(offset[1]))  # the one way to an Image from Pillow's core


@lru_cache(maxsize=512)
def _stamp(text: str, face: Any, fill: tuple[int, int, int]) -> tuple[Image.Image, tuple[int, int]] | None:
    """The text in its colour with its coverage as alpha: pasting it is twice as fast as pasting the colour through
    the coverage (Pillow blends an RGBA image's pixels in one pass)."""
    found = _coverage(text, face)
    if found is None:
        return None
    mask, corner = found
    stamp = Image.new("RGBA", mask.size, fill)
    stamp.putalpha(mask)
    return stamp, corner


def _text(image: Image.Image, xy: tuple[int, int], text: str, face: Any, fill: tuple[int, int, int]) -> None:
    """``draw.text`` from a cache of stamps: the same pixels, without rendering the glyphs each time."""
    found = _stamp(text, face, fill)
    if found is not None:
        stamp, (left, top) = found
        image.paste(stamp, (int(xy[0]) + left, int(xy[1]) + top), stamp)


def size_class(height: int) -> str:
    return "small" if height < 200 else "medium" if height < 320 else "large"


def margin_of(size: tuple[int, int], sizes: dict[Size | str, int]) -> int:
    """The room around the screen's edges (and between title, body and footer)."""
    return 3 if sizes.get("tight") else max(3, size[0] // 40)


def type_sizes(size: tuple[int, int], text_size: str = "normal") -> dict[Size | str, int]:
    """The type sizes for a display of ``size`` pixels with the ``[display] text_size`` setting."""
    return _SIZES[text_size][size_class(min(size))]


@lru_cache(maxsize=64)
def x_height(face: Any) -> int:
    """How tall a face's lower-case letters are drawn, in pixels (the ink of "x"): what decides legibility."""
    box = face.getbbox("x")
    return int(box[3] - box[1])


# The last screen drawn: a long screen is drawn once to see whether it fits (display/pages.py) and then again to be
# shown, and the second time must not cost a Pi another whole drawing.
_last: tuple[Screen, tuple[int, int], str, Image.Image, tuple[str, ...], int | None] | None = None


def render(
    screen: Screen, size: tuple[int, int], problems: list[str] | None = None, text_size: str = "normal"
) -> Image.Image:
    """Draw ``screen``; anything that had to be shortened or left out is described in ``problems`` (if given)."""
    return _render(screen, size, text_size, problems)[0]


def smallest_text(screen: Screen, size: tuple[int, int], text_size: str = "normal") -> int | None:
    """The x-height in pixels of the smallest text ``screen`` is drawn with (None: no text), for the layout tests."""
    return _render(screen, size, text_size, None)[1]


def _render(
    screen: Screen, size: tuple[int, int], text_size: str, problems: list[str] | None
) -> tuple[Image.Image, int | None]:
    global _last
    last = _last
    if last is not None and last[1] == size and last[2] == text_size and last[0] == screen:
        if problems is not None:
            problems.extend(last[4])
        return last[3].copy(), last[5]
    found: list[str] = []
    faces: set[Any] = set()
    image = _draw(screen, size, found, type_sizes(size, text_size), faces)
    smallest = min((x_height(face) for face in faces), default=None)
    _last = (screen, size, text_size, image.copy(), tuple(found), smallest)
    if problems is not None:
        problems.extend(found)
    return image, smallest


def _draw(
    screen: Screen, size: tuple[int, int], problems: list[str], sizes: dict[Any, int], faces: set[Any]
) -> Image.Image:
    """``faces``: every face a text was drawn with is added to it."""
    width, height = size
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = margin_of(size, sizes)
    title_font = font(sizes["title"], bold=True)
    footer_font = font(sizes["small"])
    rule_width = int(_length(f"§{screen.rule}", footer_font)) + margin if screen.rule else 0
    title = fit(draw, screen.title, title_font, width - 2 * margin - rule_width, problems)
    _text(image, (margin, margin), title, title_font, PLAYER_COLOURS.get(screen.colour or "", ACCENT))
    if title:
        faces.add(title_font)
    y, bottom, room, footer, footer_top, footer_step, part_label = _body(screen, size, sizes, problems)
    draw.line((margin, y - margin // 2, width - margin, y - margin // 2), fill=DIM)
    if screen.qr:
        _draw_qr(image, screen.qr, width - margin, y, bottom)
    for line in screen.lines:
        line_font = font(sizes[line.size], bold=line.size == "large")
        colour = PLAYER_COLOURS.get(line.colour or "", TEXT)
        for row, part in enumerate(wrap(draw, line.laid_out(), line_font, room, problems)):
            if row == 0 and line.tick_room:
                part = part.removeprefix(TICK.strip()).lstrip()
            if y + sizes[line.size] > bottom:
                if problems is not None:
                    problems.append(f"no room for: {part}")
                break
            _text(image, (margin, y), part, line_font, colour)
            if part:
                faces.add(line_font)
            y += _line_step(line, sizes)
    if screen.menu is not None:
        faces.add(_draw_menu(image, draw, screen, sizes, margin, y + max(3, margin), bottom, width, problems))
        if any(screen.menu.hints):
            faces.add(font(sizes["small"]))  # the highlighted option's hint (_draw_hint)
    if screen.chart:
        box = (margin, y + margin, width - margin, bottom)
        draw_chart(draw, screen.chart, screen.legend, box, footer_font, PLAYER_COLOURS, DIM)
        faces.add(footer_font)
    if screen.board:
        board_faces = (font(sizes["normal"], bold=True), footer_font)
        draw_board(
            draw,
            screen.board,
            (margin, y, width - margin, bottom),
            board_faces,
            PLAYER_COLOURS,
            (TEXT, DIM, BACKGROUND),
            screen.part,
            problems,
            " ".join(screen.legend),  # a map's legend is its key
            screen.players,
        )
        faces.update(board_faces)
    if part_label:  # "1/2" at the bottom right: more of this screen follows (or came before)
        label_width = int(_length(part_label, footer_font))
        _text(image, (width - margin - label_width, height - margin - sizes["small"]), part_label, footer_font, ACCENT)
        faces.add(footer_font)
    for row, text in enumerate(footer):
        _text(image, (margin, footer_top + row * footer_step), text, footer_font, DIM)
        faces.add(footer_font)
    if screen.rule:
        label = f"§{screen.rule}"
        right = width - margin - int(_length(label, footer_font))
        _text(image, (right, margin), label, footer_font, DIM)
        faces.add(footer_font)
    return image


def _body(
    screen: Screen, size: tuple[int, int], sizes: dict[Any, int], problems: list[str] | None
) -> tuple[int, int, int, list[str], int, int, str]:
    """Where the lines go: their top and bottom, their width (less a QR code's), the footer's lines, its top and
    line step, and the part label ("2/3"). What :func:`_draw` paints by and :func:`fits` measures by, alike."""
    width, height = size
    tight = sizes.get("tight", 0)
    margin = margin_of(size, sizes)
    footer_font = font(sizes["small"])
    top = margin + sizes["title"] + margin
    part_label = "{}/{}".format(*screen.part) if screen.part is not None else ""
    part_width = int(_length(part_label, footer_font)) + margin if part_label else 0
    footer = _footer_lines(_MEASURE, screen.footer, footer_font, width - 2 * margin - part_width, problems)
    kept = _footer_lines(_MEASURE, screen.footer_room, footer_font, width - 2 * margin - part_width, None)
    rows = max(len(footer), len(kept), 1 if part_label else 0)
    footer_step = sizes["small"] + 2 - tight
    footer_top = height - margin - sizes["small"] - (max(len(footer), 1) - 1) * footer_step  # the bottom rows
    bottom = height - margin - sizes["small"] - (rows - 1) * footer_step - margin if rows else height - margin
    room = width - 2 * margin
    if screen.qr:
        room -= _qr_side(screen.qr, width - margin, top, bottom) + margin
    return top, bottom, room, footer, footer_top, footer_step, part_label


def _line_step(line: Line, sizes: dict[Any, int]) -> int:
    """From one row of a line to the next."""
    return sizes[line.size] + max(2, sizes[line.size] // 4 - sizes.get("tight", 0))


@lru_cache(maxsize=4096)
def _rows(text: str, face: Any, room: int) -> int:
    """How many rows ``text`` wraps to in ``room`` pixels, measured once (a notice is measured again for each tick
    and each part it might be cut into)."""
    return len(wrap(_MEASURE, text, face, room))


def fits(screen: Screen, size: tuple[int, int], text_size: str = "normal") -> bool:
    """Whether every line of ``screen`` has room, measured from text widths without drawing (display/pages.py cuts a
    notice into parts by it): the same layout :func:`_draw` draws by, so the answer is the drawing's. Its menu,
    chart or map are not weighed: ask :func:`render`'s problems for those."""
    sizes = type_sizes(size, text_size)
    y, bottom, room, *_ = _body(screen, size, sizes, None)
    for line in screen.lines:
        face = font(sizes[line.size], bold=line.size == "large")
        rows = _rows(line.laid_out(), face, room)
        step = _line_step(line, sizes)
        if y + (rows - 1) * step + sizes[line.size] > bottom:
            return False
        y += rows * step
    return True


def rows_of(screen: Screen, size: tuple[int, int], text_size: str = "normal") -> list[list[str]]:
    """The rows each of the screen's lines wraps to, as :func:`_draw` lays them out (for the tests that read a part
    as the table does: no number alone on a row, display/pages.py's cuts)."""
    sizes = type_sizes(size, text_size)
    room = _body(screen, size, sizes, None)[2]
    return [
        wrap(_MEASURE, line.laid_out(), font(sizes[line.size], bold=line.size == "large"), room)
        for line in screen.lines
    ]


def _footer_lines(
    draw: ImageDraw.ImageDraw, footer: str, face: Any, room: int, problems: list[str] | None
) -> list[str]:
    """The footer on one line if it fits, else broken between its key hints ("ok: undo   back: keep"), and within a
    hint only when a hint alone is too wide: the key line keeps the body's type size rather than shrink."""
    if not footer or _length(footer, face) <= room:
        return [footer] if footer else []
    lines: list[str] = []
    for hint in footer.split("   "):
        candidate = f"{lines[-1]}   {hint}" if lines else hint
        if lines and _length(candidate, face) <= room:
            lines[-1] = candidate
        else:
            lines.extend(wrap(draw, hint, face, room, problems))
    return lines


def _qr_side(rows: tuple[str, ...], right: int, top: int, bottom: int) -> int:
    """A QR code's width: as large as whole pixels allow, with a quiet zone of 2 modules."""
    modules = len(rows) + 4
    return modules * max(1, min((bottom - top) // modules, (right // 2) // modules))


def _draw_qr(image: Image.Image, rows: tuple[str, ...], right: int, top: int, bottom: int) -> None:
    """A QR code, dark on white with a quiet zone of 2 modules, as large as whole pixels allow."""
    modules = len(rows) + 4
    side = _qr_side(rows, right, top, bottom)
    scale = side // modules
    left = right - side
    ImageDraw.Draw(image).rectangle((left, top, right - 1, top + side - 1), fill=(255, 255, 255))
    for r, row in enumerate(rows):
        for c, bit in enumerate(row):
            if bit == "1":
                x, y = left + (c + 2) * scale, top + (r + 2) * scale
                ImageDraw.Draw(image).rectangle((x, y, x + scale - 1, y + scale - 1), fill=(0, 0, 0))


def fit(draw: ImageDraw.ImageDraw, text: str, face: Any, room: int, problems: list[str] | None = None) -> str:
    """The text, shortened with an ellipsis if it is wider than ``room`` pixels."""
    if _length(text, face) <= room:
        return text
    if problems is not None:
        problems.append(f"too wide: {text}")
    while text and _length(text + "…", face) > room:
        text = text[:-1]
    return text + "…"


def wrap(draw: ImageDraw.ImageDraw, text: str, face: Any, room: int, problems: list[str] | None = None) -> list[str]:
    """Break ``text`` at spaces (never at a no-break space) into lines no wider than ``room`` pixels (a single long
    word is shortened)."""
    lines: list[str] = []
    current = ""
    for word in text.replace("\n", " ").split(" "):
        if not word:
            continue
        candidate = f"{current} {word}" if current else word
        if _length(candidate, face) <= room:
            current = candidate
        else:
            if current:
                lines.append(current)
            current = fit(draw, word, face, room, problems)
    if current:
        lines.append(current)
    return _no_lone_numbers(lines, face, room) or [""]


# A row of numbers alone: "5", "+1", "4 · 3 · 5" (\u2013: a dash).
_NUMBERS = re.compile(r"[\d\s·+\-\u2013.,;:()/]*\d[\d\s·+\-\u2013.,;:()/]*")


def _no_lone_numbers(rows: list[str], face: Any, room: int) -> list[str]:
    """A row of only numbers is a riddle ("Green 3, Yellow" / "3"): the words before it come down with it, up to
    the first that is not a number (while the row it leaves keeps a word and the row fits), so a number stays with
    what it counts."""
    for index in range(1, len(rows)):
        if not _NUMBERS.fullmatch(rows[index]):
            continue
        before, row = rows[index - 1].split(" "), rows[index]
        while len(before) > 1 and _NUMBERS.fullmatch(row) and _length(f"{before[-1]} {row}", face) <= room:
            row = f"{before.pop()} {row}"
        if not _NUMBERS.fullmatch(row):  # a word came down with the numbers ("districts: 2 · 3 · 4")
            rows[index - 1], rows[index] = " ".join(before), row
    return rows


# A menu of this many options (build or not, yes or no) shows them all, in the normal type: "▶ Build" alone hid
# "Don't build". Larger type by choice may show one at a time (▲▼ say there is more).
FEW = 3


def _draw_menu(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    screen: Screen,
    sizes: dict[Any, int],
    margin: int,
    top: int,
    bottom: int,
    width: int,
    problems: list[str] | None,
) -> Any:
    """The options around the highlighted one, as many as fit; the highlighted one marked (bar, arrow, underline).

    The label itself looks the same highlighted or not, so moving the highlight changes only the marks: a few
    percent of the screen go over SPI instead of two whole inverted bars (bench wire). Short options a column does
    not hold go side by side (:func:`_grid`).
    """
    menu = screen.menu
    assert menu is not None
    below = _draw_hint(image, draw, menu, sizes, margin, bottom, width, None, paint=False)
    face = font(sizes["normal"])
    bold = font(sizes["normal"], bold=True)
    step = sizes["normal"] + max(4, sizes["normal"] // 2 - 2 * sizes.get("tight", 0))
    line_step = sizes["normal"] + 2  # between the lines of an option too long for one (it wraps, never shrinks)
    indent = margin + 2 + int(draw.textlength("▶ ", font=bold))  # room for the arrow before every label
    labels = [
        wrap(draw, ("✓ " if index in menu.chosen else "") + option, face, width - margin - 2 - indent, problems)
        for index, option in enumerate(menu.options)
    ]
    heights = [step + (len(label) - 1) * line_step for label in labels]
    first, last = _window(heights, menu.cursor, below - top)
    whole = _window(heights, menu.cursor, bottom - top) == (0, len(heights))
    grid: tuple[int, ...] = ()
    if last - first < len(heights):  # side by side with the hint under them, else in its room
        grid = _grid(labels, face, width - 2 * margin, step, (below - top) // step)
        if not grid:
            grid = _grid(labels, face, width - 2 * margin, step, (bottom - top) // step)
            below = bottom
    if grid:
        if below < bottom:
            _draw_hint(image, draw, menu, sizes, margin, bottom, width, problems)
        return _draw_grid(image, draw, screen, labels, grid, (margin, top), step, sizes, face)
    if last - first < len(menu.options) <= FEW and whole:
        first, last = 0, len(heights)  # all in sight without the hint (a computer's footer of two rows): it gives way
    else:
        bottom = _draw_hint(image, draw, menu, sizes, margin, bottom, width, problems)
        first, last = _window(heights, menu.cursor, bottom - top)
    least = 2 if sizes.get("tight") else 3  # at 160x128 two options under a long question, scrolled (▲▼), will do
    if any(menu.hints) and sizes.get("large_type"):
        least = 1  # larger type by choice: a menu with hints may show one option at a time (▲▼ say there is more)
    if last - first < min(least, len(menu.options)) and problems is not None:
        problems.append(f"room for only {last - first} options")
    elif last - first < len(menu.options) <= FEW and problems is not None and not sizes.get("large_type"):
        problems.append(f"options out of sight: {last - first} of {len(menu.options)}")
    highlight = PLAYER_COLOURS.get(screen.colour or "", ACCENT)
    y = top
    for index in range(first, last):
        colour = ACCENT if index in menu.chosen else TEXT
        for row, shown in enumerate(labels[index]):
            _text(image, (indent, y + row * line_step), shown, face, colour)
        if index == menu.cursor:  # marked around the label, which stays as it is: a move changes few pixels
            underline = y + (len(labels[index]) - 1) * line_step + sizes["normal"] + 3
            right = indent + int(_length(labels[index][-1], face))
            draw.rectangle((margin - 2, y - 2, margin, underline + 1), fill=highlight)
            _text(image, (margin + 2, y), "▶", bold, highlight)
            draw.line((margin + 2, underline, right, underline), fill=highlight, width=2)
        y += heights[index]
    if first > 0:
        _text(image, (width - margin - 8, top - step // 2), "▲", face, DIM)
    if last < len(menu.options):
        _text(image, (width - margin - 8, bottom - sizes["normal"]), "▼", face, DIM)
    return face


GRID_MARK = 3  # a side by side option's mark: a bar of 2 px and a pixel apart (an arrow left no room at 160x128)


def _grid(labels: list[list[str]], face: Any, room: int, step: int, rows: int) -> tuple[int, ...]:
    """Where each column of short options side by side starts: as few columns as put them all in ``rows`` rows
    ((): they do not go, one column it stays). A ballot's seven areas or eight markers at 160x128 were two at a time
    in a column, the rest out of sight; side by side they read as a line does, left to right, then down."""
    if rows < 1 or any(len(label) > 1 for label in labels):
        return ()
    widths = [GRID_MARK + int(_length(label[0], face)) for label in labels]
    gap = step // 3
    for columns in range(2, len(labels) + 1):
        needed = [max(widths[column::columns]) for column in range(columns)]
        spare = room - sum(needed) - gap * (columns - 1)
        if spare < 0:
            return ()
        if (len(labels) + columns - 1) // columns <= rows:
            return tuple(sum(needed[:k]) + k * (gap + spare // columns) for k in range(columns))
    return ()


def _draw_grid(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    screen: Screen,
    labels: list[list[str]],
    columns: tuple[int, ...],
    corner: tuple[int, int],
    step: int,
    sizes: dict[Any, int],
    face: Any,
) -> Any:
    """The options in rows from ``corner``, each column starting at its place in ``columns``, the highlighted one
    marked by a bar before it and a line under it, in the player's colour."""
    menu = screen.menu
    assert menu is not None
    left, top = corner
    highlight = PLAYER_COLOURS.get(screen.colour or "", ACCENT)
    for index, label in enumerate(labels):
        x, y = left + columns[index % len(columns)], top + (index // len(columns)) * step
        _text(image, (x + GRID_MARK, y), label[0], face, ACCENT if index in menu.chosen else TEXT)
        if index == menu.cursor:
            underline = y + sizes["normal"] + 3
            draw.rectangle((x, y - 2, x + GRID_MARK - 2, underline + 1), fill=highlight)
            right = x + GRID_MARK + int(_length(label[0], face))
            draw.line((x + GRID_MARK, underline, right, underline), fill=highlight, width=2)
    return face


def _window(heights: list[int], cursor: int, room: int) -> tuple[int, int]:
    """Which options are shown, ``first`` to ``last`` (excluded): as many as ``room`` holds with the cursor's near
    the middle (the window moves only when the cursor would leave it)."""
    count = len(heights)
    visible = max(1, room // max(1, min(heights, default=1)))
    first = min(max(0, cursor - visible // 2), max(0, count - visible))
    while True:
        last, used = first, 0
        while last < count and (last == first or used + heights[last] <= room):
            used += heights[last]
            last += 1
        if cursor < last or first >= cursor:
            return first, last
        first += 1


HINT_LINES = 2  # a hint longer than this is reported: hints are meant to be one short line


def _draw_hint(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    menu: Any,
    sizes: dict[Any, int],
    margin: int,
    bottom: int,
    width: int,
    problems: list[str] | None,
    paint: bool = True,
) -> int:
    """The highlighted option's hint at the bottom of the menu's room, in the room the longest hint needs (so the
    options stay put as the cursor moves); the bottom left for the options (``paint``: False, only that)."""
    if not any(menu.hints):
        return bottom
    face = font(sizes["small"])
    room = width - 2 * margin
    lines = max(len(wrap(draw, hint, face, room)) for hint in menu.hints)
    most = HINT_LINES + sizes.get("large_type", 0)  # larger type: a line more for the same words
    if lines > most and problems is not None:
        problems.append(f"hint too long: {max(menu.hints, key=len)}")
    lines = min(lines, most)
    step = sizes["small"] + 1  # tight: at 160x128 a menu under a two-line title keeps room for 3 options
    top = bottom - lines * step
    if not paint:
        return top - 2
    for index, part in enumerate(wrap(draw, menu.hint, face, room, problems)[:lines]):
        _text(image, (margin, top + index * step), part, face, ACCENT)
    return top - 2
