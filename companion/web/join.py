"""The setup screen's join code: the QR code of the join link (segno) and the table view's address, added by the App
to whatever the setup screen shows (the game flow knows nothing of phones)."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from display.screen import Line, Screen

from ..i18n import _


@lru_cache(maxsize=4)
def qr_rows(text: str) -> tuple[str, ...]:
    import segno

    code = segno.make_qr(text, error="m")
    return tuple("".join("1" if bit else "0" for bit in row) for row in code.matrix)


def with_join_code(screen: Screen, url: str, table_url: str) -> Screen:
    lines = (
        *screen.lines,
        Line(_("Phones: scan the code to join"), "small"),
        Line(_("Table view: {url}").format(url=table_url.removeprefix("http://")), "small"),
    )
    return replace(screen, lines=lines, qr=qr_rows(url))
