"""The notices still to read, kept with the game (store ``screen`` rows), so a resumed game shows them again: who has
confirmed them, whether what they reveal has been on a screen, and what the voice says of them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from display.screen import Line

from .narration import Notice

log = logging.getLogger(__name__)


def screen_state(notices: Sequence[Notice]) -> dict[str, Any]:
    """The notices still to read, as data the store keeps, so a resumed game shows them again (errors excepted),
    with who has confirmed them and whether what they reveal has been on the screen."""

    def lines(items: Sequence[Line]) -> list[list[Any]]:
        # a line kept with the one before (``with_previous``) says so in a fourth item; older saves have three
        return [[line.text, line.size, line.colour, *([True] if line.with_previous else [])] for line in items]

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
        if n.spoken:
            item["spoken"] = list(n.spoken)
        kept.append(item)
    return {"notices": kept}


def restore_screen(screen: dict[str, Any]) -> list[Notice]:
    """The notices saved by :func:`screen_state`. An older version's notices have no owners (the host confirms them)
    and no reveals (their lines count as shown); its "last_reveal", a keypad round's reveal shown beside the next
    round, is not shown again: its sentences were on the screen before the game stopped. A damaged row gives none."""

    def restore(items: list[list[Any]]) -> list[Line]:
        return [Line(text, size, colour, *kept) for text, size, colour, *kept in items]

    try:
        notices = [
            Notice(
                n["title"],
                restore(n["lines"]),
                n["rule"],
                n["tag"],
                tuple(n["page"]) if n.get("page") else None,
                owners=tuple(n.get("owners", ())),
                confirmed=set(n.get("confirmed", ())),
                reveals=tuple((what, which) for what, which in n.get("reveals", ())),
                line=n.get("line"),
                seen=n.get("seen", False),
                passive=n.get("passive", False),
                spoken=tuple(n.get("spoken", (n["title"],))),  # an older save's notice: its title is said
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
