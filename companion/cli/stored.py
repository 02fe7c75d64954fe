"""``games`` and ``export``: the stored games, read only (they never move, create or write anything in the store).

Whatever the store holds, each says what it can in one line and never a traceback (issue 35): a store that cannot
be read at all, a game whose row or record is damaged (listed as such; its export refused, nothing written).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..i18n import _
from .common import EXIT_CONFIG, load_settings, outputs_problem

if TYPE_CHECKING:
    from ..store import Store


def stored(args: argparse.Namespace) -> int:
    import sqlite3

    from ..store import FILENAME, Store, StoreError, default_directory, simulator_directory

    settings = load_settings(args.config)
    if settings is None:
        return EXIT_CONFIG
    if problem := outputs_problem(args):
        print(_("doge-companion: {problem}").format(problem=problem), file=sys.stderr)
        return 1
    configured = settings["game"]["state_dir"]
    directory = simulator_directory() if args.sim and not configured else default_directory(configured)
    if not (directory / FILENAME).exists() and not (directory / FILENAME).is_symlink():
        print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
        return 0 if args.command == "games" else 1
    try:
        store = Store(directory, read_only=True)  # a listing never moves, creates or writes anything
    except StoreError as error:
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return 1
    try:
        return _list(store) if args.command == "games" else _export(store, args.game, args.out)
    except (StoreError, sqlite3.Error) as error:  # a game's record that cannot be read
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return 1
    finally:
        store.close()


def _list(store: Store) -> int:
    columns = (_("game"), _("started (UTC)"), _("players"), _("year"), _("status"), _("winner"))
    print(f"{columns[0]:>4}  {columns[1]:<20}  {columns[2]:<30}  {columns[3]:>4}  {columns[4]:<9}  {columns[5]}")
    for game in store.games():
        last = f"{', '.join(game.winners) or '-'}" + (f" ({game.problem})" if game.problem else "")
        print(
            f"{game.id:>4}  {game.started:<20}  {', '.join(game.players) or '-':<30}  {game.year:>4}  "
            f"{game.status:<9}  {last}"
        )
    return 0


def _export(store: Store, game: int, out: str | None) -> int:
    from pathlib import Path

    from ..engine import LineError
    from ..store.export import public_record

    lines = store.lines(game)
    if not lines:
        print(
            _("doge-companion: there is no game {game} (see: doge-companion games)").format(game=game), file=sys.stderr
        )
        return 1
    try:
        text = "\n".join(public_record(lines)) + "\n"
    except LineError as error:
        print(
            _("doge-companion: game {game}'s record is damaged ({error}); nothing was written").format(
                game=game, error=error
            ),
            file=sys.stderr,
        )
        return 1
    if out:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as error:
            print(_("doge-companion: cannot write {path}: {error}").format(path=out, error=error.strerror),
                  file=sys.stderr)  # fmt: skip
            return 1
    else:
        sys.stdout.write(text)
    return 0
