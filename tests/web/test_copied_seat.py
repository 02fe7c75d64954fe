"""A copied seat is visible (docs/web-pads.md "What the link and the cookie allow"): a seat's cookie opened in a second
browser is told to every page of that seat ("your seat is also open on another device"), shown on the device while both
are open, and logged once; a reload or a reconnect in the same browser is not a second device."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest
import yarl

from tests.web.harness import Phone, base_url, game_thread_shows, running_companion, until


def test_a_seat_opened_in_a_second_browser_is_told_shown_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def night() -> None:
        with running_companion(tmp_path) as app:
            owner, copy = Phone(app, random.Random(1)), Phone(app, random.Random(2))
            try:
                assert await owner.join() == 200
                await owner.connect()
                await until(owner, lambda v: v["mine"] is not None, "the owner sat down")
                await owner.drop()  # the Wi-Fi drops, the page reconnects: the same browser
                await owner.connect()
                view = await until(owner, lambda v: v["mine"] is not None, "the owner is back")
                assert "copied" not in view["mine"]
                assert not [r for r in caplog.records if "another device" in r.getMessage()]
                copy.session.cookie_jar.update_cookies(  # someone copied the cookie (plain HTTP on the Wi-Fi)
                    owner.session.cookie_jar.filter_cookies(yarl.URL(base_url(app)))  # type: ignore[arg-type]
                )
                await copy.connect()
                await until(owner, lambda v: v["mine"].get("copied"), "the owner is told")
                await until(copy, lambda v: v["mine"] is not None and v["mine"].get("copied"), "so is the copy")
                await game_thread_shows(app, lambda: "open on two devices" in banner(app), "the device shows it")
                assert "Red's seat is open on two devices" in banner(app)
                await copy.close()
                await game_thread_shows(app, lambda: "open on two devices" not in banner(app), "the copy closed")
                assert owner.view is not None and owner.view["mine"]["copied"]  # the owner is still told
                lines = [r.getMessage() for r in caplog.records if "another device" in r.getMessage()]
                assert len(lines) == 1 and "127.0.0.1" in lines[0]
            finally:
                await owner.close()
                await copy.close()

    asyncio.run(night())


def banner(app: object) -> str:
    screen = getattr(app, "screen", None)
    return " ".join(line.text for line in screen.lines) if screen is not None else ""
