"""What the table is told when the store refuses a line (a full disk, a failing card): that nothing changed, and
how to go on. The line is not in the game (game.py saves before it counts), so the same press works again."""

from __future__ import annotations

from display.screen import Line

from ..i18n import _
from .narration import Notice


def not_saved_notice(error: Exception) -> Notice:
    lines = [
        Line(_("Not saved: {why}.").format(why=error), "normal", "red"),
        Line(_("Nothing changed. Make room, then press ok and try again."), "small"),
    ]
    spoken = (_("Not saved") + ".", lines[1].text)  # the system's own words are not said
    return Notice(_("Not saved"), tuple(lines), tag="error", spoken=spoken)
