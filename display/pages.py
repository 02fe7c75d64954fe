"""A screen too long for the display, cut into parts that fit: whole lines per part, in order, each part marked
"k/n" (drawn at the bottom right); a line marked ``with_previous`` stays with the line before it. Pure, and measured
with the renderer itself (its report of what had no room), so a part is exactly what fits. Screens with a menu, a
chart or a map are never cut: they are laid out to fit.

The game flow shows one part at a time (``companion/flow/paging.py``): a long notice at 160x128 takes two presses of
ok where it takes one at 320x240.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .render import render
from .screen import Line, Screen


def _fits(screen: Screen, size: tuple[int, int]) -> bool:
    problems: list[str] = []
    render(screen, size, problems)
    return not any(problem.startswith("no room for") for problem in problems)


@lru_cache(maxsize=256)
def paginate(screen: Screen, size: tuple[int, int]) -> tuple[Screen, ...]:
    """``(screen,)`` if it fits, else its parts (a single line too long for a whole part stays cut: the layout tests
    report it)."""
    if screen.menu is not None or screen.chart or screen.board or _fits(screen, size):
        return (screen,)
    blocks: list[list[Line]] = []  # a line and those kept with it (``Line.with_previous``): never cut apart
    for line in screen.lines:
        if line.with_previous and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    parts: list[list[Line]] = [[]]
    for block in blocks:
        trial = (*parts[-1], *block)
        if parts[-1] and not _fits(replace(screen, lines=trial, part=(1, 2)), size):
            parts.append(list(block))
        else:
            parts[-1].extend(block)
    count = len(parts)
    return tuple(replace(screen, lines=tuple(lines), part=(k, count)) for k, lines in enumerate(parts, 1))
