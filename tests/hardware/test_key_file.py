"""``run --keys FIFO`` (docs/scripted-input.md): input events read as they come from a FIFO (made if missing) or a
file that grows; a bad line is one warning naming its line, and the rest go on."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from hardware.events import EventQueue, InputEvent
from hardware.key_file import KeyFile


def events(queue: EventQueue, count: int) -> list[object]:
    got = [queue.get(timeout=10) for _ in range(count)]  # a hang guard: the reader puts them as they come
    assert None not in got
    return got


def test_a_fifo_is_made_and_read_line_by_line_across_writers(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "keys"
    queue = EventQueue()
    keys = KeyFile(path, queue)
    try:
        assert path.is_fifo() and oct(path.stat().st_mode & 0o777) == "0o600"
        for text in ("1 ok\n2 o", "k\n# a comment\nhost rite\n", "host hold:back\n"):  # writers come and go
            descriptor = os.open(path, os.O_WRONLY)
            os.write(descriptor, text.encode())
            os.close(descriptor)
        got = events(queue, 3)
        assert got == [InputEvent("1", "ok"), InputEvent("2", "ok"), InputEvent("host", "back", "hold")]
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert warnings == [f"{path}: line 4: unknown key 'rite'; keys are left, right, ok, back, area:<area>, "
                            "marker:<0-3> (skipped)"]  # fmt: skip
    finally:
        keys.close()
        keys.close()  # twice: nothing happens


def test_a_regular_file_is_read_as_it_grows(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_text("host right\n")
    queue = EventQueue()
    keys = KeyFile(path, queue)
    try:
        assert events(queue, 1) == [InputEvent("host", "right")]
        with path.open("a") as file:
            file.write("3 area:castello\n")
        assert events(queue, 1) == [InputEvent("3", "area:castello")]
    finally:
        keys.close()


def test_a_folder_or_a_device_is_refused_when_opened(tmp_path: Path) -> None:
    """Before, a folder opened fine and the reader thread died on its first read, with a traceback, and the companion
    waited for keys that never came: run --keys turns this OSError into its one line and exits."""
    with pytest.raises(IsADirectoryError) as folder:
        KeyFile(tmp_path, EventQueue())
    assert folder.value.strerror == "Is a directory"
    with pytest.raises(OSError) as device:
        KeyFile(Path("/dev/null"), EventQueue())
    assert device.value.strerror == "not a FIFO or a regular file"
