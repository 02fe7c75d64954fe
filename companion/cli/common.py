"""What every command shares: its exit statuses, the merged settings, and checking an output path before playing."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import _

EXIT_INVALID_RECORD = 2  # record-format.md 3: 2 means "the record is invalid" (and a script's bad line)
EXIT_USAGE = 64  # sysexits' EX_USAGE; argparse's own 2 would be mistaken for an invalid record
EXIT_NO_INPUT = 66  # sysexits' EX_NOINPUT
EXIT_NO_STORE = 74  # sysexits' EX_IOERR: the saved games cannot be opened now (a full disk); nothing was moved
EXIT_IN_USE = 75  # sysexits' EX_TEMPFAIL: another companion holds the state directory; try again when it has stopped
# sysexits' EX_CONFIG: the config file cannot be used. The unit does not restart on it (RestartPreventExitStatus=78):
# starting again changes nothing until the file is fixed.
EXIT_CONFIG = 78


def load_settings(file: str | None, hint: bool = False) -> Any:
    """The merged configuration, or None after printing one line per problem (the caller exits with EXIT_CONFIG).
    ``hint``: a command that runs the table (run, sim), which also says, one line a problem, why the card file
    was left out (it starts all the same: the LCD says it too)."""
    from pathlib import Path

    from ..system import config
    from ..system.logs import error_line

    try:
        settings = config.load(Path(file) if file else None)
        if hint and settings.card_problems:
            for problem in settings.card_problems:
                print(error_line(problem), file=sys.stderr)
            left_out = "doge-companion: the card file is left out: fix it (check it: doge-companion check-config {})"
            print(error_line(left_out.format(settings.card_file)), file=sys.stderr)
        return settings
    except config.ConfigError as error:
        for problem in error.problems:
            print(error_line(problem), file=sys.stderr)  # under systemd: at the journal's "error" priority
        if hint:
            hint_line = "doge-companion: fix the config (check it with: doge-companion check-config)"
            print(error_line(hint_line), file=sys.stderr)
        return None


def output_problem(option: str, value: str, folder: bool = False) -> str | None:
    """Why a path given for output cannot be written, said before anything is played (not after the game)."""
    import os
    from pathlib import Path

    path = Path(value)
    if folder:
        if path.exists() and not path.is_dir():
            return _("{option} {path}: that is a file, not a folder").format(option=option, path=value)
        parent = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    else:
        if path.is_dir():
            return _("{option} {path}: that is a folder; give a file name").format(option=option, path=value)
        parent = path.parent
        if not parent.is_dir():
            return _("{option} {path}: the folder {folder} does not exist").format(
                option=option, path=value, folder=parent
            )
    if not os.access(parent, os.W_OK | os.X_OK):
        return _("{option} {path}: cannot write in {folder}").format(option=option, path=value, folder=parent)
    return None


def outputs_problem(args: argparse.Namespace) -> str | None:
    if getattr(args, "record", None) and (problem := output_problem("--record", args.record)):
        return problem
    for option in ("screenshots", "audio"):
        if getattr(args, option, None) and (problem := output_problem(f"--{option}", getattr(args, option), True)):
            return problem
    if getattr(args, "out", None):
        return output_problem("--out", args.out)
    return None
