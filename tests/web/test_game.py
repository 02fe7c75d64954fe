"""Whole games played by phones over the real server (aiohttp on loopback), and what each connection was sent."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from companion.engine import replay_text
from tests.web.harness import Phone, play, running_companion, sit_down


def test_three_phones_play_a_whole_game_and_each_is_sent_only_its_own_secrets(tmp_path: Path) -> None:
    async def game() -> tuple[list[Phone], list[str]]:
        with running_companion(tmp_path) as app:
            phones = [Phone(app, random.Random(n)) for n in range(3)]
            try:
                await sit_down(app, phones)
                await play(app, phones)
                return phones, list(app.controller.record)
            finally:
                for phone in phones:
                    await phone.close()

    phones, record = asyncio.run(game())
    final = replay_text(record)
    assert final.is_over
    for seat, phone in enumerate(phones):
        for frame in phone.frames:
            data = json.loads(frame)
            assert set(data) <= {"t", "v", "mine", "public"}, data.keys()
            mine = data.get("mine")
            if mine is not None:
                assert mine["seat"] == seat  # the only private part of any frame is this phone's own seat's
            public = json.dumps(data.get("public"))
            for word in ('"pending"', '"keyed"', '"markers": [', '"used"'):
                assert word not in public  # the public part names no ballot and no held value
    pressed = sum(phone.presses for phone in phones)
    assert pressed > 50
    menus = [
        json.loads(frame)["mine"]["menu"]
        for phone in phones
        for frame in phone.frames
        if (json.loads(frame).get("mine") or {}).get("menu")
    ]
    assert menus and all(len(m["hints"]) == len(m["options"]) and all(m["hints"]) for m in menus)  # the LCD's hints
