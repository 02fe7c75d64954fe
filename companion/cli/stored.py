"""``games`` and ``export``: the stored games, read only (they never move, create or write anything in the store)."""

from __future__ import annotations

import argparse
import sys

from ..i18n import _
from .common import EXIT_CONFIG, load_settings, outputs_problem


def stored(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..store import FILENAME, Store, StoreError, default_directory, simulator_directory

    settings = load_settings(args.config)
    if settings is None:
        return EXIT_CONFIG
    if problem := outputs_problem(args):
        print(_("doge-companion: {problem}").format(problem=problem), file=sys.stderr)
        return 1
    configured = settings["game"]["state_dir"]
    directory = simulator_directory() if args.sim and not configured else default_directory(configured)
    if not (directory / FILENAME).exists():
        print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
        return 0 if args.command == "games" else 1
    try:
        store = Store(directory, read_only=True)  # a listing never moves, creates or writes anything
    except StoreError as error:
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return 1
    try:
        if args.command == "games":
            columns = (_("game"), _("started (UTC)"), _("players"), _("year"), _("status"), _("winner"))
            print(
                f"{columns[0]:>4}  {columns[1]:<20}  {columns[2]:<30}  {columns[3]:>4}  {columns[4]:<9}  {columns[5]}"
            )
            for game in store.games():
                print(
                    f"{game.id:>4}  {game.started:<20}  {', '.join(game.players):<30}  {game.year:>4}  "
                    f"{game.status:<9}  {', '.join(game.winners) or '-'}"
                )
            return 0
        lines = store.lines(args.game)
        if not lines:
            print(
                _("doge-companion: there is no game {game} (see: doge-companion games)").format(game=args.game),
                file=sys.stderr,
            )
            return 1
        from ..store.export import public_record

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
    finally:
        store.close()
