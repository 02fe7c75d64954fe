"""``doge-companion replay`` (RECORD.md 3): a record in, snapshots of the public state out."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import BinaryIO

from .engine import LineError, Replay, snapshot, split_lines
from .i18n import _

EXIT_INVALID_RECORD = 2
EXIT_NO_INPUT = 66


def _snapshot_line(replay: Replay) -> str:
    assert replay.state is not None
    return json.dumps(snapshot(replay.state), separators=(",", ":")) + "\n"


def replay_stream(raw: Iterable[bytes], out: BinaryIO | None = None, *, each: bool = False) -> str:
    """Replay raw record lines; return the last snapshot line, writing every snapshot to ``out`` with ``each``.

    Raises :class:`LineError` at the first bad line (snapshots of earlier lines already written with ``each``).
    """
    replay = Replay()
    last = ""
    for text in split_lines(raw):
        replay.feed(text)
        if each:
            last = _snapshot_line(replay)
            if out is not None:
                out.write(last.encode())
    return last if each else _snapshot_line(replay)


def run_replay(path: str, *, each: bool) -> int:
    out = sys.stdout.buffer
    try:
        source: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as error:
        print(
            _("doge-companion replay: cannot read {path}: {strerror}").format(path=path, strerror=error.strerror),
            file=sys.stderr,
        )
        return EXIT_NO_INPUT
    try:
        with source:
            last = replay_stream(source, out, each=each)
            if not each:
                out.write(last.encode())
            out.flush()
    except LineError as error:
        out.flush()
        print(error, file=sys.stderr)
        return EXIT_INVALID_RECORD
    except OSError as error:
        print(
            _("doge-companion replay: cannot read {path}: {value}").format(path=path, value=error.strerror or error),
            file=sys.stderr,
        )
        return EXIT_NO_INPUT
    return 0
