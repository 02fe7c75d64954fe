"""Issue 17: the board check opens on a map of the board that says what the text pages say."""

from __future__ import annotations

import random

from companion.board_text import NAMES
from companion.engine import AREAS, snapshot
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.views import map_view
from display.render import render


def test_the_map_shows_every_area_with_its_houses_palaces_and_advisors() -> None:
    controller = Controller(random.Random(5))
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=False)
    table.setup()
    while controller.state is None or controller.state.year < 6:
        table.turn()
    snap = snapshot(controller.state)
    screen = map_view(snap)
    assert screen.board is not None and [a.name for a in screen.board] == [NAMES[a] for a in AREAS]
    for area, drawn in zip(AREAS[:6], screen.board, strict=False):
        assert dict(drawn.houses) == snap["districts"][area]["houses"]
        assert list(drawn.palaces) == snap["districts"][area]["palaces"]
    standing = sorted(
        a["controller"] for a in [*(snap["advisors"][d] for d in AREAS[:6]), *snap["advisors"]["quarantia"]] if a
    )
    assert sorted(ring for drawn in screen.board for ring in drawn.advisors) == standing
    for size in ((160, 128), (240, 240), (320, 240)):
        problems: list[str] = []
        render(screen, size, problems)
        assert problems == []
