"""A seat belongs to a phone, not to a number, and that survives a power cut (docs/web-pads.md "Joining").

Two companions on one store on disk, the second a restart of the first: the game resumes. The phone that held a seat
comes back to exactly its seat (its own locked ballot included) with the cookie it had; a phone that never had a
seat in this game gets no seat's view, however early it joins, and nothing it presses reaches the game.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from companion.store import Store
from tests.web.harness import Phone, host, read_notices, running_companion, sit_down, until


def test_after_a_restart_each_phone_gets_its_own_seat_back_and_a_new_phone_none(tmp_path: Path) -> None:
    async def evening() -> None:
        phones: list[Phone] = []
        strangers: list[Phone] = []
        try:
            with running_companion(tmp_path, store=Store(tmp_path / "games")) as app:
                phones = [Phone(app, random.Random(n)) for n in range(3)]
                await sit_down(app, phones)
                await read_notices(app, phones[0])
                red, blue = phones[0], phones[1]
                for key in ("area:castello", "marker:3", "ok"):  # Red locks in Castello with a 3
                    await red.press(key)
                assert red.view is not None and red.view["mine"]["pending"] == {"area": "castello", "markers": [3]}
                for key in ("area:dorsoduro", "marker:2"):  # Blue keys a ballot and does not lock it in
                    await blue.press(key)
                for phone in phones:
                    await phone.drop()
            with running_companion(tmp_path, store=Store(tmp_path / "games")) as app:  # the power came back
                assert app.resumed
                record = list(app.controller.record)
                strangers = [Phone(app, random.Random(10 + n)) for n in range(2)]
                for stranger in strangers:  # phones that never had a seat in this game are first
                    assert await stranger.join() == 200
                    await stranger.connect()
                    view = await stranger.wait_view()
                    assert view["mine"] is None, "a phone with no token for a seat got a seat's view"
                for phone in phones:  # the phones of the first run reconnect with their cookies, as the page does
                    phone.app = app
                    await phone.connect()
                views = [await until(p, lambda v: v["mine"] is not None, "its seat back") for p in phones]
                assert [v["mine"]["colour"] for v in views] == ["red", "blue", "green"]
                assert views[0]["mine"]["locked"] and views[0]["mine"]["pending"] == {
                    "area": "castello",
                    "markers": [3],
                }
                assert views[1]["mine"]["keyed"] is None  # a keyed ballot lived in memory: Blue keys it again
                host(app, "ok")  # the host goes on with the game in progress
                stranger = strangers[0]
                assert stranger.ws is not None
                for key in ("area:cannaregio", "marker:3", "ok"):
                    await stranger.ws.send_str(f'{{"t": "press", "key": "{key}", "v": 1}}')
                await blue.press("area:cannaregio")  # after the stranger's presses (one queue): they were handled
                assert app.controller.record == record, "a seatless phone's press reached the game"
                assert stranger.view is not None and stranger.view["mine"] is None
        finally:
            for phone in phones + strangers:
                await phone.close()

    asyncio.run(evening())
