"""The phones on the device's screen: the QR code of the join link (segno), added by the App where phones join or
come back (setup, the start-up question after a restart); the board check's phones page,
with each seat's phone and the code, for a phone that joins during a game; and a line while a seat is open on two
devices. The game flow knows nothing of phones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from display.screen import Line, Screen

from ..flow.board_text import player_name
from ..i18n import _


@lru_cache(maxsize=4)
def qr_rows(text: str) -> tuple[str, ...]:
    import segno

    code = segno.make_qr(text, error="m")
    return tuple("".join("1" if bit else "0" for bit in row) for row in code.matrix)


@lru_cache(maxsize=8)
def fits(screen: Screen, size: tuple[int, int], text_size: str) -> bool:
    """Whether every part of ``screen`` shows whole on the display (nothing cut, nothing too wide)."""
    from display.pages import paginate
    from display.render import render

    problems: list[str] = []
    for part in paginate(screen, size, text_size):
        render(part, size, problems, text_size)
    return not problems


def with_join_code(screen: Screen, url: str) -> Screen:
    """The code beside the screen's lines (the table view's address is on every phone: beside a code it is cut)."""
    return replace(screen, lines=(*screen.lines, Line(_("Phones: scan the code to join"), "small")), qr=qr_rows(url))


def copied_banner(screen: Screen, colours: Sequence[str]) -> Screen:
    """A seat's page open in two browsers at once: its cookie was copied, or the player opened it twice."""
    if not colours:
        return screen
    banner = tuple(
        Line(_("{colour}'s seat is open on two devices").format(colour=player_name(colour)), "small", "red")
        for colour in colours
    )
    return replace(screen, lines=(*banner, *screen.lines))


def phones_view(status: Mapping[str, str], url: str) -> Screen:
    """Each human seat's phone ("phone": connected, "away": its phone is not connected now, "pad": no phone), and
    the code a phone joins by to ask for a seat."""
    words = {
        "phone": _("{colour}: phone connected"),
        "away": _("{colour}: phone away"),
        "pad": _("{colour}: no phone"),
    }
    lines = [Line(words[held].format(colour=player_name(colour)), "small", colour) for colour, held in status.items()]
    lines.append(Line(_("A new phone: scan the code, then ask for a seat; the host gives it here."), "small"))
    return Screen(
        _("Phones"), tuple(lines), footer=_("left/right: page   back: close"), qr=qr_rows(url), tags=("phones",)
    )
