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


def lead_in(line: Line) -> bool:
    """A line that leads into the next ("On the board:"): a part never ends with it while the next line follows."""
    return line.text.rstrip().endswith(":")


def _cut(screen: Screen, size: tuple[int, int], text_size: str, label: tuple[int, int]) -> tuple[Screen, ...]:
    """The screen's lines in parts, each as full as it can be with a part label as wide as ``label``'s. Lines marked
    ``key`` at the top (a table's key) head every part; a lead-in stays with the line it leads into."""
    keys = 0
    while keys < len(screen.lines) - 1 and screen.lines[keys].key:
        keys += 1
    head = list(screen.lines[:keys])
    queue: list[list[Line]] = []  # a line and those kept with it (``Line.with_previous``): cut apart only if too long
    for line in screen.lines[keys:]:
        if queue and (line.with_previous or lead_in(queue[-1][-1])):
            queue[-1].append(line)
        else:
            queue.append([line])
    parts: list[list[Line]] = [list(head)]
    while queue:
        block = queue.pop(0)
        if _fits(replace(screen, lines=(*parts[-1], *block), part=label), size, text_size):
            parts[-1].extend(block)
        elif len(parts[-1]) > len(head):
            parts.append(list(head))
            queue.insert(0, block)
        elif len(block) > 1 and not (len(block) == 2 and lead_in(block[0])):
            # a block too long for a whole part: its lines one by one, each lead-in still with the line it leads into
            pairs: list[list[Line]] = []
            for line in block:
                if pairs and lead_in(pairs[-1][-1]) and len(pairs[-1]) == 1:
                    pairs[-1].append(line)
                else:
                    pairs.append([line])
            queue[:0] = pairs if len(pairs) < len(block) and len(pairs) > 1 else [[line] for line in block]
        else:  # a line too long for a whole part (after its lead-in): as many of its words as fit, the rest after
            *before, long = block
            if before and (last := _last_sentence(before[0])) is not None:  # "… cannot be undone. It revealed:"
                queue[:0] = [[last[0]], [last[1], long]]  # the lead-in's own sentence stays with what it leads into
                continue
            first, rest = _split(screen, [*parts[-1], *before], long, size, text_size, label)
            if before and not _fits(replace(screen, lines=(*parts[-1], *before, first), part=label), size, text_size):
                queue[:0] = [[line] for line in block]  # not a word of it fits under its lead-in: apart, then
                continue
            parts[-1].extend([*before, first])
            if rest is not None:
                parts.append(list(head))
                queue.insert(0, [rest])
    count = len(parts)
    return tuple(replace(screen, lines=tuple(lines), part=(k, count)) for k, lines in enumerate(parts, 1))


def _last_sentence(line: Line) -> tuple[Line, Line] | None:
    """A line of several sentences as two: all but its last, and its last (a lead-in's own words)."""
    words = line.text.split(" ")
    ends = [n for n in range(1, len(words) - 1) if words[n - 1].endswith((".", "!", "?"))]
    if not ends:
        return None
    cut = ends[-1]
    return replace(line, text=" ".join(words[:cut])), replace(line, text=" ".join(words[cut:]), tick_room=False)


TAIL = 4  # the fewest words a line cut in two leaves for the next part: "outline (○)." alone reads as a riddle
JOINS = {"and", "or", "und", "oder", "e", "ed", "o"}  # a clause begins there: "… und / ihn in die Quarantia stellen"


def _split(
    screen: Screen, above: list[Line], line: Line, size: tuple[int, int], text_size: str, label: tuple[int, int]
) -> tuple[Line, Line | None]:
    """As many of the line's words as fit a part under ``above``, cut after the last sentence among them if there is
    one (a part that starts "card." reads as a riddle), else at the last clause (after a comma, before "and"), else
    after a colon, else after the last word that fits (a sentence longer than a whole part, in large type at
    160x128, has to be cut somewhere); never leaving the next part fewer than ``TAIL`` words of it."""
    words = line.text.split(" ")
    fit = 1
    while fit < len(words):
        head = replace(line, text=" ".join(words[: fit + 1]))
        if not _fits(replace(screen, lines=(*above, head), part=label), size, text_size):
            break
        fit += 1
    if fit < len(words):
        fit = max(1, min(fit, len(words) - TAIL))
        ends = [n for n in range(2, fit + 1) if words[n - 1].endswith((".", ";"))]
        clauses = [n for n in range(2, fit + 1) if words[n - 1].endswith(",") or words[n].lower() in JOINS]
        leads = [n for n in range(2, fit + 1) if words[n - 1].endswith(":")]  # a lead-in cut from its words: last
        if ends or clauses or leads:  # a head of one word says nothing
            fit = (ends or clauses or leads)[-1]
    rest = " ".join(words[fit:])
    return replace(line, text=" ".join(words[:fit])), replace(line, text=rest, tick_room=False) if rest else None
