"""The pad's side of the keypad protocol (docs/pad-protocol.md), shared by the firmware and the host's tests.

Runs unchanged on MicroPython (no typing, no dataclasses) and on CPython, where the tests put it at the far end of a
pseudo-terminal: the host is tested against the firmware's own logic, not a look-alike.
"""

PROTOCOL = 1
MAX_PENDING = 16
RESEND_MS = 500
MAX_LINE = 64


class PadCore:
    """Sends key events until acknowledged; obeys the host's LED and beep commands.

    ``write(bytes)`` sends to the host; ``now_ms()`` is a millisecond clock; ``set_led(target, state)`` and
    ``beep(ms)`` drive the hardware.
    """

    def __init__(self, pad_id, layout, boot, write, now_ms, set_led=None, beep=None):
        self.pad_id = pad_id
        self.layout = layout
        self.boot = boot
        self._write = write
        self._now = now_ms
        self._set_led = set_led
        self._beep = beep
        self.seq = 0
        self.pending = []  # [(seq, key)] not yet acknowledged, oldest first
        self.dropped = 0
        self.malformed = 0
        self.leds = {}
        self._buffer = b""
        self._last_send = 0

    def hello(self):
        line = "HELLO doge-pad %d %s %s %d\n" % (PROTOCOL, self.pad_id, self.layout, self.boot)
        self._write(line.encode())
        self.resend()

    def key(self, key):
        seq = self.seq % 256
        self.seq += 1
        self.pending.append((seq, key))
        if len(self.pending) > MAX_PENDING:
            self.pending.pop(0)
            self.dropped += 1
        self._send(seq, key)

    def resend(self):
        for seq, key in self.pending:
            self._send(seq, key)

    def _send(self, seq, key):
        self._write(("K %d %s\n" % (seq, key)).encode())
        self._last_send = self._now()

    def tick(self):
        """Call often (every few ms): re-sends what is still unacknowledged."""
        if self.pending and self._now() - self._last_send >= RESEND_MS:
            self.resend()

    def feed(self, data):
        """Bytes from the host."""
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            self._handle(line.rstrip(b"\r"))
        if len(self._buffer) > MAX_LINE:
            self._buffer = b""
            self.malformed += 1

    def _handle(self, raw):
        try:
            words = raw.decode().split()
        except UnicodeError:
            words = []
        if words == ["?"]:
            self.hello()
        elif len(words) == 2 and words[0] == "A" and words[1].isdigit():
            seq = int(words[1])
            self.pending = [item for item in self.pending if item[0] != seq]
        elif len(words) == 3 and words[0] == "L" and words[2] in ("on", "off", "blink"):
            target, state = words[1], words[2]
            if target == "all":
                for known in self.leds:
                    self.leds[known] = state
            else:
                self.leds[target] = state
            if self._set_led:
                self._set_led(target, state)
        elif len(words) == 2 and words[0] == "B" and words[1].isdigit() and 1 <= int(words[1]) <= 2000:
            if self._beep:
                self._beep(int(words[1]))
        else:
            self.malformed += 1
