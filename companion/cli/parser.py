"""The ``doge-companion`` command's arguments: every command, its options and their help, in the table's language."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from .. import __version__
from ..i18n import LANGUAGES, _
from .common import EXIT_USAGE


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, _("{prog}: error: {message}\n").format(prog=self.prog, message=message))


MOST = 2**63 - 1  # SQLite's largest integer: a game's number, a seed


def _number(text: str) -> int:
    """A whole number from 0 to MOST, else argparse's one line (10**30 once gave an OverflowError's traceback)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("'{text}' is not a whole number").format(text=text[:40])) from None
    if not 0 <= value <= MOST:
        raise argparse.ArgumentTypeError(_("{text} is out of range (0 to {most})").format(text=text[:40], most=MOST))
    return value


def _game(text: str) -> int:
    value = _number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(_("games are numbered from 1 (see: doge-companion games)"))
    return value


def _with_config(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--config", metavar="FILE", help=_("your config file (default: the usual places)"))
    return parser


def _engine_build() -> str:
    """Says when the rules engine runs compiled (install.sh builds it so; build_support/backend.py)."""
    from ..engine import state

    return "" if state.__file__.endswith(".py") else " (rules engine compiled with mypyc)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="doge-companion", description=_("The companion for the board game Doge."))
    parser.add_argument("--version", action="version", version=f"doge-companion {__version__}{_engine_build()}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    replay = commands.add_parser(
        "replay",
        help=_("replay a game record and print the public snapshot"),
        description=_(
            "Replay a game record (docs/record-format.md) and print the snapshot of the public state as one JSON line."
        ),
    )
    replay.add_argument("record", help=_("the record file (JSON Lines), or - for standard input"))
    shown = replay.add_mutually_exclusive_group()
    shown.add_argument("--each", action="store_true", help=_("print a snapshot after every line, the header included"))
    shown.add_argument(
        "--changes",
        action="store_true",
        help=_("print every line's board changes (docs/record-format.md 4), the header included"),
    )
    replay.add_argument("--lang", choices=LANGUAGES, help=_("the language of the changes' sentences"))
    check = commands.add_parser(
        "check-config",
        help=_("check a configuration file and say what is wrong"),
        description=_("Check a config file (default: the one the companion would use): one line per problem."),
    )
    check.add_argument("file", nargs="?", help=_("the file to check (default: the one the companion would use)"))
    check.add_argument(
        "--card",
        action="store_true",
        help=_("check FILE as the card file (docs/card-file.md); a file named doge-companion.toml always is"),
    )
    run = _with_config(
        commands.add_parser(
            "run",
            help=_("run the companion on this machine's hardware (or simulated hardware)"),
            description=_("Run the companion. With --hardware mock it runs on any computer, on simulated hardware."),
        )
    )
    run.add_argument("--hardware", choices=("pi", "mock"), help=_("override the config's hardware setting"))
    run.add_argument("--screenshots", metavar="DIR", help=_("save every new frame as a PNG in DIR"))
    run.add_argument(
        "--audio", metavar="DIR", help=_("save everything the voice says as WAV files in DIR instead of playing it")
    )
    run.add_argument(
        "--script", metavar="FILE", help=_("play input events from FILE (docs/scripted-input.md), then stop")
    )
    run.add_argument("--seed", type=_number, metavar="N", help=_("reproducible shuffles (tests and demos only)"))
    run.add_argument(
        "--record", metavar="FILE", help=_("write the game's record (docs/record-format.md) to FILE at the end")
    )
    run.add_argument("--entry", choices=("private", "keypads"), help=_("how ballots are entered (default: config)"))
    run.add_argument(
        "--autoplay", type=_number, metavar="SEED", help=_("a simulated table plays the game (demos, tests)")
    )
    run.add_argument(
        "--keys",
        metavar="FILE",
        help=_("also take input events from FILE (a FIFO, made if missing) as they come (docs/scripted-input.md)"),
    )
    run.add_argument("--acks", action="store_true", help=_("print a line on standard output for every saved line"))
    run.add_argument(
        "--resume",
        action="store_true",
        help=_("with --script or --autoplay: go on with the saved unfinished game (else a new game, not saved)"),
    )
    sim = _with_config(
        commands.add_parser(
            "sim",
            help=_("the whole device in a window: LCD, buttons and pads (needs a desktop)"),
            description=_("The companion in a window, on simulated hardware. Close the window to stop; it resumes."),
        )
    )
    sim.add_argument("--scale", type=int, choices=(1, 2, 3, 4), help=_("LCD pixels per screen pixel"))
    sim.add_argument("--seed", type=_number, metavar="N", help=_("reproducible shuffles (tests and demos only)"))
    games = _with_config(commands.add_parser("games", help=_("list the stored games")))
    export = _with_config(
        commands.add_parser(
            "export",
            help=_("write a stored game's record"),
            description=_(
                "Write a game's record (docs/record-format.md). An unfinished game's secrets are left out "
                "(docs/rules.md 11)."
            ),
        )
    )
    export.add_argument("game", type=_game, help=_("the game's number (see: doge-companion games)"))
    export.add_argument("--out", metavar="FILE", help=_("write to FILE instead of standard output"))
    recover = _with_config(
        commands.add_parser(
            "recover",
            help=_("go on with a damaged game from its last readable line, as a new game"),
            description=_(
                "A game set aside as damaged (see: doge-companion games) goes on from its valid lines as a new game, "
                "resumed when the companion next starts; the damaged one is kept."
            ),
        )
    )
    recover.add_argument("game", type=_game, help=_("the game's number (see: doge-companion games)"))
    for stored in (games, export):
        stored.add_argument("--sim", action="store_true", help=_("the simulator's games (doge-companion sim)"))
    screens = commands.add_parser("screens", help=_("write PNGs of every screen at every display size"))
    screens.add_argument("--out", metavar="DIR", help=_("where to write them (docs/screens)"))
    network = commands.add_parser(
        "network",
        help=_("at boot: the card file's Wi-Fi, else the Pi's own network (run as root by its unit)"),
        description=_(
            "Write NetworkManager connections for the card file's [wifi] networks, wait for one, and with none in "
            "reach open the Pi's own Wi-Fi network for the LCD's QR code (docs/card-file.md)."
        ),
    )
    network.add_argument("--root", default="/", metavar="DIR", help=_("the system's root folder (tests: another)"))
    network.add_argument("--card", metavar="FILE", help=_("the card file (default: on the card)"))
    network.add_argument(
        "--wait", type=_number, metavar="SECONDS", help=_("how long to wait for a known network (default: the card's)")
    )
    network.add_argument("--group", default="doge", help=_("the companion's group, which may read the state file"))
    hardware = _with_config(
        commands.add_parser(
            "check-hardware",
            help=_("say what this Pi has: board, SPI, GPIO, sound, Wi-Fi firmware, clock"),
            description=_(
                "One line for each part the companion needs, read from /proc, /sys and /dev: ok, missing or note "
                "(docs/installing.md). Exits 1 when something is missing."
            ),
        )
    )
    hardware.add_argument("--root", default="/", metavar="DIR", help=_("the system's root folder (tests: another)"))
    _with_config(commands.add_parser("print-config", help=_("print the merged configuration (defaults + your file)")))
    return parser
