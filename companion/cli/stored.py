"""``games`` and ``export``: the stored games, read only (they never move, create or write anything in the store).

The simulator keeps its games apart from a real device's (``doge-companion sim``: its own store beside it), so that
trying it never lists or resumes a real game; ``games`` says so, and with no device games lists the simulator's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from .common import EXIT_INVALID_RECORD, load_settings, outputs_problem

if TYPE_CHECKING:
    from ..store import Store


def stored(args: argparse.Namespace) -> int:
    from ..store import FILENAME, default_directory, simulator_directory

    settings = load_settings(args.config)
    if settings is None:
        return EXIT_INVALID_RECORD
    if problem := outputs_problem(args):
        print(_("doge-companion: {problem}").format(problem=problem), file=sys.stderr)
        return 1
    configured = settings["game"]["state_dir"]
    directory = simulator_directory() if args.sim and not configured else default_directory(configured)
    simulator = simulator_directory() if not configured and not args.sim else None  # kept apart: said, or listed
    if args.command == "games" and simulator is not None and (simulator / FILENAME).exists():
        return list_with_simulator(directory, simulator)
    if not (directory / FILENAME).exists():
        print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
        return 0 if args.command == "games" else 1
    store = open_store(directory)
    if store is None:
        return 1
    try:
        if args.command == "games":
            print_games(store)
            return 0
        return export(store, args)
    finally:
        store.close()


def open_store(directory: Path) -> Store | None:
    from ..store import Store, StoreError

    try:
        return Store(directory, read_only=True)  # a listing never moves, creates or writes anything
    except StoreError as error:
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return None


def list_with_simulator(directory: Path, simulator: Path) -> int:
    """The device's games, and a line saying where the simulator's are; none on the device: the simulator's."""
    from ..store import FILENAME

    sim = open_store(simulator)
    if sim is None:
        return 1
    try:
        count = len(sim.games())
        device = open_store(directory) if (directory / FILENAME).exists() else None
        if device is not None:
            try:
                if device.games() or not count:
                    print_games(device)
                    if count:
                        print(_("the simulator keeps {n} more apart: doge-companion games --sim").format(n=count),
                              file=sys.stderr)  # fmt: skip
                    return 0
            finally:
                device.close()
        if not count:
            print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
            return 0
        print(_("no games on this device; the simulator's (doge-companion sim, {directory}):").format(
            directory=simulator), file=sys.stderr)  # fmt: skip
        print_games(sim)
        return 0
    finally:
        sim.close()


def print_games(store: Store) -> None:
    """One line a game; a computer player's colour is marked as one (the game's header names them)."""
    from ..engine import parse_header

    columns = (_("game"), _("started (UTC)"), _("players"), _("year"), _("status"), _("winner"))
    print(f"{columns[0]:>4}  {columns[1]:<20}  {columns[2]:<30}  {columns[3]:>4}  {columns[4]:<9}  {columns[5]}")
    for game in store.games():
        lines = store.lines(game.id)
        computers = (parse_header(lines[0]).extra.get("bots") or {}) if lines else {}
        players = ", ".join(_("{name} (computer)").format(name=p) if p in computers else p for p in game.players)
        print(
            f"{game.id:>4}  {game.started:<20}  {players:<30}  {game.year:>4}  "
            f"{game.status:<9}  {', '.join(game.winners) or '-'}"
        )


def export(store: Store, args: argparse.Namespace) -> int:
    lines = store.lines(args.game)
    if not lines:
        print(
            _("doge-companion: there is no game {game} (see: doge-companion games)").format(game=args.game),
            file=sys.stderr,
        )
        return 1
    from ..flow.shown import public_length
    from ..store.export import public_record

    # A line whose reveals no screen has shown yet stays on the device, with everything after it (rules.md 11.4).
    lines = lines[: public_length(store.screen(args.game), len(lines))]
    text = "\n".join(public_record(lines)) + "\n"
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as error:
            print(_("doge-companion: cannot write {path}: {error}").format(path=args.out, error=error.strerror),
                  file=sys.stderr)  # fmt: skip
            return 1
    else:
        sys.stdout.write(text)
    return 0
