"""Issue 17: when a game ends, a one-page summary (the winners, standings, the chart, the board at the end) is
saved beside the record as game-<id>-summary.png; the pages are pure and public."""

from __future__ import annotations

import itertools
import random
import threading
from pathlib import Path

from PIL import Image

from companion import config
from companion.app import App
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.ending import ending_pages, standings
from display.summary import summary_image


def test_a_finished_game_saves_its_summary_beside_the_record(tmp_path: Path) -> None:
    data = config.load(search=False).data
    data["game"]["state_dir"] = str(tmp_path)
    data["pads"]["serial"] = "off"
    app = App(config.Settings(data, None), seed=3)
    try:
        assert app.run(threading.Event(), autoplay=3) == 0
        game = app.saver.game
        assert app.controller.stage == "over" and game is not None
        path = tmp_path / f"game-{game}-summary.png"
        assert app.summary == path and path.exists()
        image = Image.open(path)
        assert image.size == (2 * 400 + 3 * 4, 3 * 300 + 4 * 4)
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
    pages = ending_pages(state, controller.palaces_by_year, board=True)
    assert [p.tags[0] for p in pages] == ["over", "over", "over", "board", "board", "board"]
    assert pages[2].chart and len(pages[2].legend) == len(state.players)
    first = summary_image(pages)
    assert summary_image(pages).tobytes() == first.tobytes()
