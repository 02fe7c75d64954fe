"""The notices still to read, kept with the game (store ``screen`` rows), so a resumed game shows them again: who has
confirmed them, whether what they reveal has been on a screen, and what the voice says of them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from display.screen import Line

from .narration import Notice
from .notice import NOTICE_KINDS

log = logging.getLogger(__name__)


def screen_state(notices: Sequence[Notice]) -> dict[str, Any]:
    """The notices still to read, as data the store keeps, so a resumed game shows them again (errors excepted),
    with who has confirmed them and whether what they reveal has been on the screen."""

    def lines(items: Sequence[Line]) -> list[list[Any]]:
        # a line kept with the one before (``with_previous``) says so in a fourth item, a result (``Line.result``) in
        # a fifth; older saves have three or four
        return [[line.text, line.size, line.colour, *_flags(line)] for line in items]

    kept = []
    for n in notices:
        if n.tag == "error":
            continue
        item: dict[str, Any] = {"title": n.title, "lines": lines(n.lines), "rule": n.rule, "tag": n.tag, "page": n.page}
        if n.owners:
            item["owners"], item["confirmed"] = list(n.owners), sorted(n.confirmed)
        if n.reveals:
            item["reveals"], item["seen"] = [list(r) for r in n.reveals], n.seen
        if n.line is not None:
            item["line"] = n.line
        if n.passive:
            item["passive"] = True
        if n.by_itself:
            item["by_itself"] = True
        if n.spoken:
            item["spoken"] = list(n.spoken)
        if n.lead is not None:
            item["lead"] = list(n.lead)
        kept.append(item)
    return {"notices": kept}


def _flags(line: Line) -> list[bool]:
    return [line.with_previous, True] if line.result else [True] if line.with_previous else []


_SIZES = ("large", "normal", "small")
_NOTICE_KEYS = {"title", "lines", "rule", "tag", "page", "owners", "confirmed", "reveals", "line", "seen", "passive",
                "spoken", "by_itself", "lead"}  # fmt: skip
_MOST = 500  # texts and lists longer than any screen's: a row no version wrote


def _text(value: Any) -> bool:
    return type(value) is str and len(value) <= 4 * _MOST


def _texts(value: Any) -> bool:
    return type(value) is list and len(value) <= _MOST and all(_text(item) for item in value)


def _number(value: Any, least: int) -> bool:
    return type(value) is int and least <= value < 1 << 31


def _line(item: Any) -> bool:
    return (
        type(item) is list
        and len(item) in (3, 4, 5)
        and _text(item[0])
        and item[1] in _SIZES
        and (item[2] is None or _text(item[2]))
        and item[3:] in ([], [True], [False, True], [True, True])
    )


def _notice(n: Any) -> bool:
    """Every field as :func:`screen_state` writes it, and nothing else."""
    return (
        type(n) is dict
        and set(n) <= _NOTICE_KEYS
        and {"title", "lines", "rule", "tag"} <= set(n)
        and _text(n["title"])
        and type(n["lines"]) is list
        and len(n["lines"]) <= _MOST
        and all(_line(item) for item in n["lines"])
        and (n["rule"] is None or _text(n["rule"]))
        and _text(n["tag"]) and n["tag"] in NOTICE_KINDS
        and (n.get("page") is None or (type(n["page"]) is list and len(n["page"]) == 2
                                       and all(_number(x, 1) for x in n["page"]) and n["page"][0] <= n["page"][1]))
        and _texts(n.get("owners", []))
        and _texts(n.get("confirmed", []))
        and type(n.get("reveals", [])) is list
        and all(type(r) is list and len(r) == 2 and _text(r[0]) and _number(r[1], 0) for r in n.get("reveals", []))
        and ("line" not in n or _number(n["line"], 1))
        and type(n.get("seen", False)) is bool
        and type(n.get("passive", False)) is bool
        and type(n.get("by_itself", False)) is bool
        and _texts(n.get("spoken", []))
        and ("lead" not in n or (type(n["lead"]) is list and len(n["lead"]) == 2 and _text(n["lead"][0])
                                 and _number(n["lead"][1], 1) and n["lead"][1] <= len(n["lines"])))
    )  # fmt: skip


def checked_screen(screen: Any) -> dict[str, Any]:
    """A saved screen (a store's screens row) as read from disk, or {} when any field of it is not what
    :func:`screen_state` writes (a size no renderer has, a record line 0): the game goes on at a fresh screen for
    the same step, never a crash at the next key (docs/architecture.md, "A restart")."""
    if type(screen) is not dict or not set(screen) <= {"notices", "last_reveal"}:
        ok = False
    else:
        notices = screen.get("notices", [])
        ok = type(notices) is list and len(notices) <= _MOST and all(_notice(n) for n in notices)
    if not ok:
        if screen:
            log.warning("the saved screen step holds what no version writes; the game goes on at its next screen")
        return {}
    checked: dict[str, Any] = screen
    return checked


def restore_screen(screen: dict[str, Any]) -> list[Notice]:
    """The notices saved by :func:`screen_state`. An older version's notices have no owners (the host confirms them)
    and no reveals (their lines count as shown); its "last_reveal", a keypad round's reveal shown beside the next
    round, is not shown again: its sentences were on the screen before the game stopped. A damaged row gives none."""

    def restore(items: list[list[Any]]) -> tuple[Line, ...]:
        return tuple(
            Line(text, size, colour, with_previous=kept[:1] == [True], result=kept[1:] == [True])
            for text, size, colour, *kept in items
        )

    screen = checked_screen(screen)
    try:
        notices = [
            Notice(
                n["title"],
                restore(n["lines"]),
                n["rule"],
                n["tag"],
                tuple(n["page"]) if n.get("page") else None,
                owners=tuple(n.get("owners", ())),
                confirmed=frozenset(n.get("confirmed", ())),
                reveals=tuple((what, which) for what, which in n.get("reveals", ())),
                line=n.get("line"),
                seen=n.get("seen", False),
                passive=n.get("passive", False),
                by_itself=n.get("by_itself", False),
                spoken=tuple(n.get("spoken", (n["title"],))),  # an older save's notice: its title is said
                lead=tuple(n["lead"]) if "lead" in n else None,
            )
            for n in screen.get("notices", [])
        ]
        texts = (text for n in notices for text in (n.title, *n.spoken, *(line.text for line in n.lines)))
        if not all(type(text) is str for text in texts):
            raise TypeError("a text that is not text")
    except (KeyError, TypeError, ValueError, AttributeError) as error:  # a damaged row: only the screen is lost
        log.warning("the saved screen step cannot be read (%s); the game goes on at its next screen", error)
        return []
    return notices
