"""``doge-companion replay`` (record-format.md 3, 4): a record in, snapshots of the public state or board changes
out."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, BinaryIO

from ..engine import Count, LineError, MalformedLineError, Replay, change_record, snapshot, split_lines
from ..i18n import _

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ..engine import Event

EXIT_INVALID_RECORD = 2
EXIT_NO_INPUT = 66
MAX_LINE = 64 * 1024  # a record line is under a kilobyte: /dev/zero is refused, not read until memory runs out
MAX_RECORD = 64 * 1024 * 1024  # far beyond any game's record


def bounded(source: BinaryIO) -> Iterator[bytes]:
    """SOURCE's raw lines, each at most MAX_LINE bytes and all of them at most MAX_RECORD: beyond either, a
    LineError naming the line (``replay /dev/zero`` once grew without end)."""
    total = 0
    number = 0
    while chunk := source.readline(MAX_LINE + 1):
        number += 1
        total += len(chunk)
        if len(chunk) > MAX_LINE:
            why = _("the line is longer than any line of a record (more than {limit} bytes)")
            raise LineError(number, MalformedLineError(why.format(limit=MAX_LINE)))
        if total > MAX_RECORD:
            why = _("the record is longer than any game's (more than {limit} bytes)")
            raise LineError(number, MalformedLineError(why.format(limit=MAX_RECORD)))
        yield chunk


def _snapshot_line(replay: Replay) -> str:
    assert replay.state is not None
    return json.dumps(snapshot(replay.state), separators=(",", ":")) + "\n"


def changes_line(number: int, events: Iterable[Event], players: tuple[str, ...]) -> str:
    """record-format.md 4: one line's board changes, each with the sentence the companion shows for it (the
    sentences' module is loaded here: a plain replay has no use for it, and a replay starts faster without it)."""
    from ..flow.board_text import change_text

    changes = []
    for event in events:
        if isinstance(event, Count):
            continue
        change = change_record(event, players)
        change["text"] = change_text(event, players)
        changes.append(change)
    return json.dumps({"line": number, "changes": changes}, ensure_ascii=False, separators=(",", ":")) + "\n"


def replay_stream(
    raw: Iterable[bytes], out: BinaryIO | None = None, *, each: bool = False, changes: bool = False
) -> str:
    """Replay raw record lines; return the last snapshot line, writing every snapshot to ``out`` with ``each``, or
    every line's board changes with ``changes``.

    Raises :class:`LineError` at the first bad line (what earlier lines gave already written).
    """
    replay = Replay()
    last = ""
    for text in split_lines(raw):
        if changes:
            events = replay.feed_with_changes(text)
            assert replay.state is not None
            last = changes_line(replay.lines, events, replay.state.players)
        else:
            replay.feed(text)
            if each:
                last = _snapshot_line(replay)
        if (each or changes) and out is not None:
            out.write(last.encode())
    return last if each or changes else _snapshot_line(replay)


def run_replay(path: str, *, each: bool, changes: bool = False) -> int:
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
            last = replay_stream(bounded(source), out, each=each, changes=changes)
            if not each and not changes:
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
