"""The display thread: frames go over SPI here, so the game thread never waits for the wire.

Only the newest frame matters: a frame handed over while another is still waiting replaces it (the waiting one is
dropped, never sent). Because the drivers diff against the last frame that really went out, dropping is safe: the
next push sends everything that differs from what the panel holds. ``flush`` lets callers (shutdown, tests) wait
until the panel shows the newest frame, without any sleeping or timing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from PIL import Image

log = logging.getLogger(__name__)


class Pusher:
    """Runs ``push(image)`` on its own thread for the newest frame handed over."""

    def __init__(self, push: Callable[[Image.Image], None], name: str = "display") -> None:
        self._push = push
        self._wake = threading.Condition()
        self._waiting: Image.Image | None = None
        self._handed = 0  # frames handed over
        self._settled = 0  # the newest frame number that went out (or was dropped for a newer one)
        self._closed = False
        self._stopped = False
        self.pushed = 0
        self.dropped = 0
        self.failures = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def hand(self, image: Image.Image) -> None:
        """Queue ``image`` to be pushed; returns at once."""
        with self._wake:
            if self._closed:
                raise RuntimeError("the display is closed")
            if self._waiting is not None:
                self.dropped += 1
            self._waiting = image
            self._handed += 1
            self._wake.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the newest frame handed over is on the panel; False if ``timeout`` (a hang guard) ran out."""
        with self._wake:
            return self._wake.wait_for(lambda: self._settled >= self._handed or self._stopped, timeout)

    def close(self, timeout: float | None = 5.0) -> None:
        """Push what is waiting, then stop the thread. Safe to call twice."""
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._waiting is not None or self._closed)
                image, number = self._waiting, self._handed
                self._waiting = None
                if image is None:  # closed with nothing waiting
                    self._stopped = True
                    self._wake.notify_all()
                    return
            try:
                self._push(image)
                self.pushed += 1
            except Exception:  # a flaky wire must not kill the display thread: the next frame tries again
                self.failures += 1
                log.exception("pushing a frame to the display failed")
            with self._wake:
                self._settled = number
                self._wake.notify_all()
