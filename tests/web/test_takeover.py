"""Taking over a seat cannot be stolen with a habit (issue 33, problem 2).

A phone that has a seat cannot ask for another. A new phone may ask: the device names who asks and the state of the
seat's ballot, and the host's plain ok (the key pressed all evening) refuses; only left, then right, gives the seat.
A half-keyed ballot is never handed over: it is cleared, and its owner keys it again.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from tests.web.harness import Phone, game_thread_shows, host, read_notices, running_companion, sit_down, until


@pytest.mark.xfail(strict=True, reason="issue 33, problem 2: a seated phone takes a second seat with one ok")
def test_a_seat_is_given_only_to_a_new_phone_by_left_then_right_and_never_with_its_keyed_ballot(
    tmp_path: Path,
) -> None:
    async def night() -> None:
        with running_companion(tmp_path) as app:
            phones = [Phone(app, random.Random(n)) for n in range(3)]
            new = Phone(app, random.Random(9))
            try:
                await sit_down(app, phones)
                await read_notices(app, phones[0])
                red, blue = phones[0], phones[1]
                await blue.press("area:castello")
                await blue.press("marker:2")  # Blue's ballot, half keyed
                assert red.ws is not None
                await red.ws.send_str(json.dumps({"t": "take", "colour": "blue"}))
                await until(red, lambda v: json.loads(red.frames[-1])["t"] == "refused", "red is told no")
                assert "takeover" not in app.screen_tags, "a seated phone asked the host for a second seat"
                assert await new.join() == 200
                await new.connect()
                assert (await new.wait_view())["mine"] is None
                assert new.ws is not None
                await new.ws.send_str(json.dumps({"t": "take", "colour": "blue"}))
                await game_thread_shows(app, lambda: "takeover" in app.screen_tags, "the host is asked")
                assert app.screen is not None
                asked = " ".join(line.text for line in app.screen.lines)
                assert "A new phone asks for Blue's seat" in asked and "keyed" in asked, asked
                host(app, "ok")  # the habit: refuses
                await until(new, lambda v: json.loads(new.frames[-1])["t"] == "refused", "the new phone is told no")
                assert new.view is not None and new.view["mine"] is None
                await new.ws.send_str(json.dumps({"t": "take", "colour": "blue"}))
                await game_thread_shows(app, lambda: "takeover" in app.screen_tags, "the host is asked again")
                host(app, "left")
                host(app, "right")
                view = await until(new, lambda v: v["mine"] is not None, "the new phone has Blue's seat")
                assert view["mine"]["colour"] == "blue" and view["mine"]["keyed"] is None
                await until(blue, lambda v: v is None or v["mine"] is None, "Blue's old phone lost the seat")
                await red.press("area:castello")
                assert red.view is not None and red.view["mine"]["colour"] == "red"  # Red's phone kept Red's seat
            finally:
                for phone in [*phones, new]:
                    await phone.close()

    asyncio.run(night())
