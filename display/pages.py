"""A screen too long for the display, cut into parts that fit: whole lines per part, in order, each part marked
"k/n" (drawn at the bottom right); a line marked ``with_previous`` stays with the line before it. Pure, and measured
by the renderer's own layout (``render.fits``: the lines' rows from cached text widths, nothing painted; a map is
drawn, by the renderer's report of what had no room), so a part is exactly what fits (a chart is drawn where a
part has room for it). Screens with a menu are never cut: they are laid out to fit. A map that does not fit whole
(names cut, no room for the palace spaces' numbers) comes in as few parts as keep it whole (display/board_map.py
draws a part as rows).

The game flow shows one part at a time (``companion/flow/paging.py``): a long notice at 160x128 takes two presses of
ok where it takes one at 320x240.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .board_map import CUTS
from .render import fits, render
from .screen import Line, Screen


def _fits(screen: Screen, size: tuple[int, int], text_size: str) -> bool:
    """Lines are measured (text widths, cached per line: a tick re-measures only its line); a map is drawn, as only
    drawing it tells whether its names and numbers fit."""
    if not screen.board:
        return fits(screen, size, text_size)
    problems: list[str] = []
    render(screen, size, problems, text_size)
    return not any(problem.startswith(("no room for", "map:")) for problem in problems)


@lru_cache(maxsize=256)
def paginate(screen: Screen, size: tuple[int, int], text_size: str = "normal") -> tuple[Screen, ...]:
    """``(screen,)`` if it fits, else its parts (a single line too long for a whole part stays cut: the layout tests
    report it). ``text_size``: the ``[display] text_size`` setting. A ``preface`` comes first, in parts of its own
    that carry the screen's keys."""
    if screen.preface is not None:
        first = paginate(replace(screen.preface, keys=screen.keys), size, text_size)
        own = paginate(replace(screen, preface=None), size, text_size)
        count = len(first) + len(own)
        return tuple(replace(part, part=(k, count)) for k, part in enumerate((*first, *own), 1))
    if screen.menu is not None or _fits(screen, size, text_size):
        return (screen,)
    if screen.board:
        for count in CUTS:
            board = tuple(replace(screen, part=(k, count)) for k in range(1, count + 1))
            if all(_fits(part, size, text_size) for part in board):
                return board
        return board
    parts = _cut(screen, size, text_size, (1, 2))
    if len(parts) >= 10:  # a wider part label ("10/12") leaves less room beside it in the footer
        parts = _cut(screen, size, text_size, (10, 10))
    return parts


def _cut(screen: Screen, size: tuple[int, int], text_size: str, label: tuple[int, int]) -> tuple[Screen, ...]:
    """The screen's lines in parts, each as full as it can be with a part label as wide as ``label``'s."""
    queue: list[list[Line]] = []  # a line and those kept with it (``Line.with_previous``): cut apart only if too long
    for line in screen.lines:
        if line.with_previous and queue:
            queue[-1].append(line)
        else:
            queue.append([line])
    parts: list[list[Line]] = [[]]
    while queue:
        block = queue.pop(0)
        if _fits(replace(screen, lines=(*parts[-1], *block), part=label), size, text_size):
            parts[-1].extend(block)
        elif parts[-1]:
            parts.append([])
            queue.insert(0, block)
        elif len(block) > 1:  # a block too long for a whole part: its lines one by one
            queue[:0] = [[line] for line in block]
        else:  # a line too long for a whole part: as many of its words as fit, the rest in the next part
            head, rest = _split(screen, block[0], size, text_size, label)
            parts[-1].append(head)
            if rest is not None:
                parts.append([])
                queue.insert(0, [rest])
    count = len(parts)
    return tuple(replace(screen, lines=tuple(lines), part=(k, count)) for k, lines in enumerate(parts, 1))


def _split(
    screen: Screen, line: Line, size: tuple[int, int], text_size: str, label: tuple[int, int]
) -> tuple[Line, Line | None]:
    """As many of the line's words as fit a part, cut after the last sentence or clause among them if there is one
    (a part that starts "card." reads as a riddle), else after the last word that fits (a sentence longer
    than a whole part, in large type at 160x128, has to be cut somewhere)."""
    words = line.text.split(" ")
    fit = 1
    while fit < len(words):
        head = replace(line, text=" ".join(words[: fit + 1]))
        if not _fits(replace(screen, lines=(head,), part=label), size, text_size):
            break
        fit += 1
    ends = [n for n in range(2, fit) if words[n - 1].endswith((".", ";", ":"))]  # a head of one word says nothing
    if fit < len(words) and ends:
        fit = ends[-1]
    rest = " ".join(words[fit:])
    return replace(line, text=" ".join(words[:fit])), replace(line, text=rest, tick_room=False) if rest else None
