"""Every stream's shape is public (issue 33, problem 3): a ballot's keying reaches nobody but its owner's phone.

Over the real server: a player keys and unkeys a ballot, sends a stale press and reconnects; the table view and the
other phones are sent nothing, and the device's buzzer and LEDs stay silent.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import aiohttp
import pytest

from tests.web.harness import Phone, base_url, read_notices, running_companion, sit_down, until


class Recorder:
    """The device's own LEDs and buzzer (GpioIndicators on a Pi), recorded."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def led(self, source: str, target: str, state: str) -> None:
        self.calls.append(("led", source, target, state))

    def beep(self, source: str, ms: int = 80) -> None:
        self.calls.append(("beep", source))

    def close(self) -> None:
        pass


@pytest.mark.xfail(strict=True, reason="issue 33, problem 3: the table view gets a frame for every key a phone presses")
def test_a_ballots_keys_send_the_table_the_other_phones_and_the_device_nothing(tmp_path: Path) -> None:
    async def night() -> None:
        with running_companion(tmp_path) as app:
            phones = [Phone(app, random.Random(n)) for n in range(3)]
            session = aiohttp.ClientSession()
            try:
                await sit_down(app, phones)
                await read_notices(app, phones[0])
                table = await session.ws_connect(base_url(app) + "/ws?table=1")
                first = await table.receive(timeout=20)  # what it shows now
                device = Recorder()
                app.indicators = device
                frames = [len(phone.frames) for phone in phones]
                red = phones[0]
                await red.press("ok")  # lock in with nothing keyed
                for key in ("area:castello", "marker:3", "marker:1", "back", "area:dorsoduro", "marker:2"):
                    await red.press(key)
                assert red.ws is not None and red.view is not None
                await red.ws.send_str(json.dumps({"t": "press", "key": "marker:0", "v": 0}))  # stale
                await red.drop()
                await red.connect()
                await red.wait_view()
                await red.press("back")
                assert red.view is not None and red.view["mine"]["keyed"] == {"area": "dorsoduro", "markers": [3]}
                green = phones[2]
                for key in ("area:castello", "marker:1", "ok"):  # Green locks in: one public change, after Red's keys
                    await green.press(key)
                shown = json.loads((await table.receive(timeout=20)).data)
                assert shown["public"]["locked"] == [False, False, True], "the table was sent a frame for Red's keys"
                blue = phones[1]
                await until(blue, lambda v: v["public"]["locked"][2], "Blue sees Green locked in")
                assert len(blue.frames) - frames[1] == 1, "Blue's phone was sent a frame for Red's keys"
                assert device.calls == [], "the device's buzzer or LEDs told the table about a phone's keys"
                assert json.loads(first.data)["t"] == "table"
            finally:
                await session.close()
                for phone in phones:
                    await phone.close()

    asyncio.run(night())
