"""The ``doge-companion`` command.

Sub-commands import what they need inside their own function: ``replay`` must start fast and load nothing beyond
the rules engine and the standard library (issue 2), while the device modes pull in pygame, luma or gpiozero.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

EXIT_INVALID_RECORD = 2  # RECORD.md 3: status 2 means exactly "the record is invalid"
EXIT_USAGE = 64  # sysexits' EX_USAGE; argparse's own 2 would be mistaken for an invalid record
EXIT_NO_INPUT = 66  # sysexits' EX_NOINPUT


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="doge-companion", description="The companion for the board game Doge.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    replay = commands.add_parser(
        "replay",
        help="replay a game record and print the public snapshot",
        description="Replay a game record (RECORD.md) and print the snapshot of the public state as one JSON line.",
    )
    replay.add_argument("record", help="the record file (JSON Lines), or - for standard input")
    replay.add_argument("--each", action="store_true", help="print a snapshot after every line, the header included")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    if args.command == "replay":
        from .replay_command import run_replay

        return run_replay(args.record, each=args.each)
    raise AssertionError(args.command)  # argparse only lets known commands through


def entry_point() -> NoReturn:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
