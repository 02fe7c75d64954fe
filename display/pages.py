"""A screen too long for the display, cut into parts that fit: whole lines per part, in order, each part marked
"k/n" (drawn at the bottom right). Pure, and measured with the renderer itself (its report of what had no room), so
a part is exactly what fits. Screens with a menu, a chart or a map are never cut: they are laid out to fit.

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
    parts: list[list[Line]] = [[]]
    for line in screen.lines:
        trial = (*parts[-1], line)
        if parts[-1] and not _fits(replace(screen, lines=trial, part=(1, 2)), size):
            parts.append([line])
        else:
            parts[-1].append(line)
    count = len(parts)
    return tuple(replace(screen, lines=tuple(lines), part=(k, count)) for k, lines in enumerate(parts, 1))
