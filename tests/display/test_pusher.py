"""The display thread: the newest frame wins, stale ones are dropped, a failure does not stop it, close is clean.

No test here depends on timing: a push is held on an Event to make frames pile up, flush() waits for the thread,
and timeouts are only hang guards.
"""

from __future__ import annotations

import threading

import pytest
from luma.core.device import dummy
from PIL import Image

from display.backends import Display
from display.pusher import Pusher

GUARD = 30  # seconds; only ever reached if the code hangs


def frame(shade: int) -> Image.Image:
    return Image.new("RGB", (32, 16), (shade, shade, shade))


class Held:
    """A push that records frames and can be held on an Event, as a slow SPI transfer would hold it."""

    def __init__(self) -> None:
        self.pushed: list[int] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def __call__(self, image: Image.Image) -> None:
        self.started.set()
        assert self.release.wait(GUARD)
        pixel = image.getpixel((0, 0))
        assert isinstance(pixel, tuple)
        self.pushed.append(pixel[0])


def test_the_newest_frame_wins_and_stale_ones_are_dropped() -> None:
    push = Held()
    pusher = Pusher(push)
    push.release.clear()
    pusher.hand(frame(1))
    assert push.started.wait(GUARD)  # frame 1 is "on the wire"
    for shade in (2, 3, 4):
        pusher.hand(frame(shade))  # returns at once although the wire is busy
    push.release.set()
    assert pusher.flush(GUARD)
    assert push.pushed == [1, 4]
    assert (pusher.pushed, pusher.dropped) == (2, 2)
    pusher.close()


def test_a_failed_push_is_logged_and_the_next_frame_still_goes_out(caplog: pytest.LogCaptureFixture) -> None:
    sent: list[Image.Image] = []

    def flaky(image: Image.Image) -> None:
        if not sent and image.getpixel((0, 0)) == (1, 1, 1):
            sent.append(image)
            raise OSError("SPI transfer failed")
        sent.append(image)

    pusher = Pusher(flaky)
    pusher.hand(frame(1))
    assert pusher.flush(GUARD)
    pusher.hand(frame(2))
    assert pusher.flush(GUARD)
    assert pusher.failures == 1 and pusher.pushed == 1
    assert "pushing a frame to the display failed" in caplog.text
    pusher.close()


def test_close_sends_what_waits_then_refuses_more() -> None:
    push = Held()
    pusher = Pusher(push)
    push.release.clear()
    pusher.hand(frame(1))
    assert push.started.wait(GUARD)
    pusher.hand(frame(9))
    push.release.set()
    pusher.close()
    assert push.pushed == [1, 9], "the newest frame went out before the thread stopped"
    assert pusher.flush(GUARD)
    with pytest.raises(RuntimeError):
        pusher.hand(frame(2))
    pusher.close()


def test_a_threaded_display_shows_only_changes_and_blanks_on_exit() -> None:
    device = dummy(width=32, height=16, mode="RGB")
    display = Display(device, threaded=True)
    assert display.show(frame(200))
    assert not display.show(frame(200))
    assert display.last_image is not None and display.last_image.getpixel((0, 0)) == (200, 200, 200)
    display.blank()
    assert device.image.getbbox() is None, "blank() waits until the black frame is on the panel"
    display.close()
    display.close()
