"""Scripted input (docs/scripted-input.md): a file of input events, one per line, for tests, demos and bug reports."""

from __future__ import annotations

from pathlib import Path

from hardware.events import InputEvent, parse_event

from ..i18n import _


class ScriptError(Exception):
    pass


def read_script(path: Path) -> list[InputEvent]:
    """Every event of the file, checked before anything runs: a bad line is reported with its number."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScriptError(_("cannot read the script {path}: {error}").format(path=path, error=error)) from None
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            events.append(parse_event(content))
        except ValueError as error:
            raise ScriptError(
                _("{path}: line {number}: {error}").format(path=path, number=number, error=error)
            ) from None
    return events
