"""Makes CPython look like MicroPython on a Pico where the firmware can tell: ``time.ticks_*``/``sleep_ms``, and an
unbuffered ``sys.stdin`` (the Pico's USB serial hands over each byte as it arrives; CPython's text buffer would hide
bytes from ``select.poll``)."""

import os
import sys
import time


class _Stdin:
    def read(self, count=1):
        return os.read(0, count).decode("latin-1")

    def fileno(self):
        return 0


time.ticks_ms = lambda: int(time.monotonic() * 1000) & 0x3FFFFFFF
time.ticks_add = lambda ticks, delta: (ticks + delta) & 0x3FFFFFFF
time.ticks_diff = lambda end, start: ((end - start + 0x20000000) & 0x3FFFFFFF) - 0x20000000
time.sleep_ms = lambda ms: time.sleep(ms / 1000)
sys.stdin = _Stdin()
