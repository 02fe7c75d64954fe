"""A finished game's one-page summary (standings, chart, the board at the end) as a PNG: kept beside the record, so
a table has a picture of its evening. Drawn with the display's renderer, only once a game is over."""

from __future__ import annotations

import logging
from pathlib import Path

from ..engine import State
from ..flow.ending import summary_pages

log = logging.getLogger("companion.app")


def write_summary(path: Path, state: State, palaces_by_year: list[dict[str, int]]) -> bool:
    """The summary at ``path``; False, and one line in the log, if it cannot be written."""
    from display.summary import summary_image  # Pillow's drawing, needed once a game

    try:
        summary_image(summary_pages(state, palaces_by_year)).save(path)
    except OSError as error:
        log.warning("could not save the game summary %s: %s", path, error)
        return False
    log.info("game summary saved: %s", path)
    return True
