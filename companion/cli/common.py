"""What every command shares: its exit statuses, the merged settings, and checking an output path before playing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..i18n import _

EXIT_INVALID_RECORD = 2  # record-format.md 3: 2 means "the record is invalid" (and a script's bad line)
EXIT_USAGE = 64  # sysexits' EX_USAGE; argparse's own 2 would be mistaken for an invalid record
EXIT_NO_INPUT = 66  # sysexits' EX_NOINPUT
EXIT_CANT_CREATE = 73  # sysexits' EX_CANTCREAT: an output path that would overwrite the store's own files
EXIT_NO_STORE = 74  # sysexits' EX_IOERR: the saved games cannot be opened now (a full disk); nothing was moved
EXIT_OUTPUT_FAILED = 74  # EX_IOERR too: --record or --screenshots could not be written during the run
EXIT_IN_USE = 75  # sysexits' EX_TEMPFAIL: another companion holds the state directory; try again when it has stopped
EXIT_NO_PERMISSION = 77  # sysexits' EX_NOPERM: this user may not read the state directory (or reach an output)
# sysexits' EX_CONFIG: the config file cannot be used. The unit does not restart on it (RestartPreventExitStatus=78):
# starting again changes nothing until the file is fixed.
EXIT_CONFIG = 78


def load_settings(file: str | None, hint: bool = False) -> Any:
    """The merged configuration, or None after printing one line per problem (the caller exits with EXIT_CONFIG).
    ``hint``: a command that runs the table (run, sim), which also says, one line a problem, why the card file
    was left out (it starts all the same: the LCD says it too)."""
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


def inside(value: str, directory: Path) -> bool:
    """Whether a path is the state directory or in it, symlinks resolved: an export there would replace a copy of
    the store (games.journal, games.sqlite3) with the public record, and with it the games."""
    try:
        return Path(value).resolve().is_relative_to(directory.resolve())
    except (OSError, RuntimeError):  # a symlink loop: not the state directory's files either
        return False


def permission_line(error: PermissionError, directory: Path, *others: Path) -> str:
    """A path this user may not reach, as one line naming it and the user who can (its owner): under the service
    the state directory is the service user's alone (docs/installing.md), so a person's own shell is refused there."""
    import os

    path = Path(os.path.abspath(error.filename)) if error.filename else directory  # "state/../x" is not in state
    state = next((folder for folder in (directory, *others) if path.is_relative_to(folder)), None)
    folder = state or path
    user, owner = _user(os.geteuid()), _user(_owner(folder))
    if state is not None:
        line = _("doge-companion: the user {user} cannot read {path}: run it as {owner} or with sudo")
        return line.format(user=user, path=folder, owner=owner)
    line = _("doge-companion: the user {user} cannot write {path}: run it as {owner}, with sudo, or give another path")
    return line.format(user=user, path=folder, owner=owner)


def _owner(path: Path) -> int:
    """The owner of PATH or of its nearest folder this user may look at (root if none)."""
    import os

    for candidate in (path, *path.parents):
        try:
            return os.stat(candidate).st_uid
        except OSError:
            continue
    return 0


def _user(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a uid with no name (a container's): its number
        return str(uid)
