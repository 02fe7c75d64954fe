"""When a game ends, a one-page summary (the winners, standings, the chart, the board at the end) is
saved beside the record as game-<id>-summary.png; the pages are pure and public; the chart once (not twice),
no blank or half-empty panel, readable at any game length."""

from __future__ import annotations

import itertools
import random
import threading
from pathlib import Path

from PIL import Image

from companion.app import App
from companion.engine import State
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.ending import ending_pages, standings, summary_pages
from companion.flow.views import map_legend
from companion.system import config
from display.render import BACKGROUND
from display.summary import summary_boxes, summary_image
from tests.helpers import RGB, RGBY, random_game


def test_a_finished_game_saves_its_summary_beside_the_record(tmp_path: Path) -> None:
    data = config.load(search=False).data
    data["game"]["state_dir"] = str(tmp_path)
    data["pads"]["serial"] = "off"
    app = App(config.Settings(data, None), seed=3)
    try:
        assert app.run(threading.Event(), autoplay=8) == 0  # a short game (ten years) of the simulated table
        game = app.saver.game
        assert app.controller.stage == "over" and game is not None
        path = tmp_path / f"game-{game}-summary.png"
        assert app.summary == path and path.exists()
        image = Image.open(path)
        assert image.size == (2 * 400 + 3 * 4, 2 * 300 + 3 * 4)
        assert len(image.getcolors(maxcolors=1 << 20) or []) > 10, "drawn pages, not blank ones"
    finally:
        app.close()


def test_standings_rank_the_winner_first_and_show_the_tie_break() -> None:
    controller = Controller(random.Random(5))
    table = Table(controller, random.Random(5), ["1", "2", "3", "4"], keypads=False)
    table.setup()
    table.play()
    state = controller.state
    assert state is not None and state.is_over
    rows = standings(state)
    assert [r.player for r in rows[: len(state.winners)]] == sorted(
        (state.players[s] for s in state.winners), key=[r.player for r in rows].index
    )
    assert rows[0].rank == 1 and rows[0].met and all(a.rank <= b.rank for a, b in itertools.pairwise(rows))
    pages = ending_pages(state, controller.palaces_by_year)
    assert [p.tags[0] for p in pages] == ["over", "over", "over"]
    assert pages[2].chart and len(pages[2].legend) == len(state.players)
    first = summary_image(summary_pages(state, controller.palaces_by_year))
    assert summary_image(summary_pages(state, controller.palaces_by_year)).tobytes() == first.tobytes()


def by_year(state: State, years: int) -> list[dict[str, int]]:
    """A game of ``years`` years that ends where ``state`` ended: each player's palaces rising to their last count."""
    final = {p: state.palaces_of(seat) for seat, p in enumerate(state.players)}
    return [{p: n * (year + 1) // years for p, n in final.items()} for year in range(years)]


def test_the_summary_shows_each_thing_once() -> None:
    """One chart, one board map, one result with every player's standing: the old picture drew the chart on the
    game-over page and again on its own page."""
    state = random_game(1, RGBY)[2]
    pages = summary_pages(state, by_year(state, 12))
    assert [bool(p.chart) for p in pages].count(True) == 1
    assert [p.board is not None for p in pages].count(True) == 1
    assert next(p for p in pages if p.board).legend == (map_legend(),), "the map with its key"
    result = next(p for p in pages if "result" in p.tags)
    assert all(any(line.text.startswith(f"{r.rank}. ") and line.colour == r.player for line in result.lines)
               for r in standings(state))  # fmt: skip
    assert not any(p.footer for p in pages), "no keys to press on paper"


def test_no_panel_of_the_summary_is_blank_or_half_empty() -> None:
    """Every panel's box drawn into, and down into its lower half: the old picture had a blank cell (an odd page
    count) and text pages whose lower half was empty (the advisors page, the standings)."""
    for seed, players, years in ((3, RGB, 3), (2, RGBY, 12), (1, RGB, 30), (4, RGBY, 60)):
        state = random_game(seed, players)[2]
        pages = summary_pages(state, by_year(state, years))
        image = summary_image(pages)
        boxes = summary_boxes(pages)
        assert len(boxes) == 3 and image.size == (max(b[2] for b in boxes) + 4, max(b[3] for b in boxes) + 4)
        for page, (x0, y0, x1, y1) in zip(pages, boxes, strict=True):
            middle = (y0 + y1) // 2
            for top, bottom in ((y0 + 40, middle), (middle, y1)):
                ink = sum(
                    1 for x in range(x0, x1, 2) for y in range(top, bottom, 2) if image.getpixel((x, y)) != BACKGROUND
                )
                assert ink > 300, (page.title, years, (top, bottom), ink)
        for a, b in itertools.combinations(boxes, 2):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], "panels do not overlap"
