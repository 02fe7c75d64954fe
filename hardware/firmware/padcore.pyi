# Types for the CPython side; padcore.py itself stays plain MicroPython.
from collections.abc import Callable

PROTOCOL: int
MAX_PENDING: int
RESEND_MS: int
MAX_LINE: int

class PadCore:
    pad_id: str
    layout: str
    boot: int
    seq: int
    pending: list[tuple[int, str]]
    dropped: int
    malformed: int
    leds: dict[str, str]
    _write: Callable[[bytes], None]
    _now: Callable[[], int]
    def __init__(
        self,
        pad_id: str,
        layout: str,
        boot: int,
        write: Callable[[bytes], None],
        now_ms: Callable[[], int],
        set_led: Callable[[str, str], None] | None = ...,
        beep: Callable[[int], None] | None = ...,
    ) -> None: ...
    def hello(self) -> None: ...
    def key(self, key: str) -> None: ...
    def resend(self) -> None: ...
    def tick(self) -> None: ...
    def feed(self, data: bytes) -> None: ...
