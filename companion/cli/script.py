"""Scripted input (docs/scripted-input.md): a file of input events, one per line, for tests, demos and bug reports."""

from __future__ import annotations

from pathlib import Path

from hardware.events import InputEvent, PageTick, parse_event

from ..i18n import _

MAX_SCRIPT = 4 * 1024 * 1024  # a million key presses: /dev/zero and /dev/urandom are refused, not read for ever
MAX_LINE = 1024


class ScriptError(Exception):
    pass


def read_script(path: Path) -> list[InputEvent | PageTick]:
    """Every event of the file, checked before anything runs: a bad line is reported with its number."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SCRIPT + 1)
        if len(data) > MAX_SCRIPT:
            raise ScriptError(
                _("the script {path} is longer than any script (more than {limit} bytes)").format(
                    path=path, limit=MAX_SCRIPT
                )
            )
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ScriptError(_("cannot read the script {path}: {error}").format(path=path, error=reason)) from None
    events: list[InputEvent | PageTick] = []
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_LINE:
            raise ScriptError(
                _("{path}: line {number}: longer than any event (more than {limit} characters)").format(
                    path=path, number=number, limit=MAX_LINE
                )
            )
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        if content == "wait":  # some seconds pass: the part of a long screen turns, as the device's page timer does
            events.append(PageTick())
            continue
        try:
            events.append(parse_event(content))
        except ValueError as error:
            raise ScriptError(
                _("{path}: line {number}: {error}").format(path=path, number=number, error=error)
            ) from None
    return events
