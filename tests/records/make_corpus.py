"""Make the known-answer corpus: whole games and the snapshot each must end in (record-format.md 2).

Run from the checkout: ``.venv/bin/python -m tests.records.make_corpus tests/records``. The committed files were made
by the engine before it was split into modules (main ed23b7f), so the corpus holds the split engine to the old
answers. Add new games; never regenerate an old one unless a rule change is meant to change its answer.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from pathlib import Path

from companion.bots import Bot, make_bot, make_view
from companion.engine import State, dump_header, snapshot
from companion.engine.determinize import draw_order
from companion.engine.record import DecisionLine, ShuffleLine, dump_line

RGB = ("red", "blue", "green")
RGBY = ("red", "blue", "green", "yellow")


def play(out: Path, name: str, players: tuple[str, ...], seed: int, bots: Mapping[int, Bot] | None) -> None:
    """A game to its end: uniform random choices (any awaited player) when ``bots`` is None, else the bots'."""
    rng = random.Random(seed)
    state = State(players)
    lines = [dump_header(players)]
    while not state.is_over:
        if state.chance_awaited():
            order = draw_order(rng)
            state.shuffle(order)
            lines.append(dump_line(ShuffleLine(order)))
            continue
        if bots is None:
            player = rng.choice(state.awaiting()).player
            decision = rng.choice(state.legal(player))
        else:
            player = state.awaiting()[0].player
            decision = bots[player].decide(make_view(state, player, rng, bots[player].samples))
        state.apply(player, decision)
        lines.append(dump_line(DecisionLine(players[player], decision)))
    (out / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    (out / f"{name}.final.json").write_text(json.dumps(snapshot(state), indent=1) + "\n")
    print(name, len(lines), "lines,", state.year, "years")


def main(out: Path) -> None:
    play(out, "uniform-3p-seed1", RGB, 1, None)
    play(out, "uniform-4p-seed2", RGBY, 2, None)
    play(out, "normal-bots-3p-seed3", RGB, 3, {i: make_bot("normal", 30 + i) for i in range(3)})
    play(out, "normal-bots-4p-seed4", RGBY, 4, {i: make_bot("normal", 40 + i) for i in range(4)})
    levels = ("easy", "normal", "easy", "normal")
    play(out, "mixed-bots-4p-seed5", RGBY, 5, {i: make_bot(levels[i], 50 + i) for i in range(4)})


if __name__ == "__main__":
    main(Path(sys.argv[1]))
