"""What the voice is handed over one seeded game, step by step, as JSON lines: run as a script, so that
benchmarks/speech.py can run it against an older checkout (``PYTHONPATH=<old checkout>``) and compare its voice with
today's. It uses only what both have: the Controller, the autoplay Table and the Announcer's ``update``.

The table is the documented new group's: three keypads and a computer player, ballots on the keypads. One line per
utterance: the step it is handed over at (``press``: the table's presses so far; ``bot``: it comes with a computer
player's move after that press), the kind of moment (the tag of the notice on top, or what the screen asks),
``moment`` (a number: the same for the same moment) and ``joins`` where the announcer tells them (today's), the
year, and the text.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any


def timeline(seed: int, language: str = "en") -> list[dict[str, Any]]:
    from companion.flow.announcer import Announcer
    from companion.flow.autoplay import Table
    from companion.flow.controller import Controller
    from companion.i18n import set_language

    set_language(language)
    rows: list[dict[str, Any]] = []
    announcer = Announcer()
    bot_rng = random.Random(seed + 1)
    controller = Controller(random.Random(seed))
    presses = 0
    keys: list[object] = []  # each moment's key, held: a notice's key is its identity, never reused while held

    def moment() -> int | None:
        key = getattr(announcer, "said_key", None)
        if key is None:
            return None
        if key not in keys:
            keys.append(key)
        return keys.index(key)

    def kind() -> str:
        if controller.notices and controller.state is not None:
            return str(controller.notices[0].tag)
        tags = controller.screen().tags
        return next((tag.split(":")[0] for tag in tags), "other")

    def hear(bot: bool) -> None:
        sentences = announcer.update(controller)
        if sentences:
            state = controller.state
            rows.append({
                "press": presses, "bot": bot, "kind": kind(), "year": state.year if state else 0,
                "moment": moment(), "joins": bool(getattr(announcer, "joins", False)),
                "needed": bool(getattr(announcer, "needed", True)), "text": " ".join(sentences),
            })  # fmt: skip

    def watch(_controller: Controller, _event: object) -> None:
        nonlocal presses
        presses += 1
        hear(False)
        while (seat := controller.pending_bot()) is not None:
            decision = controller.bots[seat].decide(controller.bot_view(seat, bot_rng))
            if not controller.apply_bot(seat, decision, len(controller.record)):
                break
            hear(True)

    table = Table(controller, random.Random(seed + 2), ["1", "2", "3"], keypads=True, watch=watch, computers=1)
    table.setup()
    table.play()
    return rows


if __name__ == "__main__":
    for row in timeline(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "en"):
        print(json.dumps(row, ensure_ascii=False))
