"""``games`` and ``export``: the stored games, read only (they never move, create or write anything in the store).

Whatever the store holds, each says what it can in one line and never a traceback (tests/test_store_damage.py): a store
that cannot be read at all, a game whose row or record is damaged (listed as such; its export refused, nothing written).

The simulator keeps its games apart from a real device's (``doge-companion sim``: its own store beside it), so that
trying it never lists or resumes a real game; ``games`` says so, and with no device games lists the simulator's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from ..store.damage import DAMAGED
from .common import (
    EXIT_CANT_CREATE,
    EXIT_CONFIG,
    EXIT_IN_USE,
    EXIT_NO_PERMISSION,
    EXIT_NO_STORE,
    inside,
    load_settings,
    outputs_problem,
    permission_line,
)

if TYPE_CHECKING:
    from ..store import Store


def stored(args: argparse.Namespace) -> int:
    from ..store import default_directory, simulator_directory

    settings = load_settings(args.config)
    if settings is None:
        return EXIT_CONFIG
    configured = settings["game"]["state_dir"]
    directory = simulator_directory() if args.sim and not configured else default_directory(configured)
    simulator = simulator_directory() if not configured and not args.sim else None  # kept apart: said, or listed
    try:
        return _stored(args, directory, simulator)
    except PermissionError as error:  # another user's state directory, or an --out this user may not reach
        print(permission_line(error, directory, *([simulator] if simulator else [])), file=sys.stderr)
        return EXIT_NO_PERMISSION


def _stored(args: argparse.Namespace, directory: Path, simulator: Path | None) -> int:
    import sqlite3

    from ..store import StoreError

    if problem := outputs_problem(args):
        print(_("doge-companion: {problem}").format(problem=problem), file=sys.stderr)
        return 1
    if getattr(args, "out", None) and (
        folder := next((d for d in (directory, simulator) if d and inside(args.out, d)), None)
    ):
        print(_("doge-companion: --out {path} is in the state directory {folder}, beside the saved games: write the "
                "export somewhere else").format(path=args.out, folder=folder), file=sys.stderr)  # fmt: skip
        return EXIT_CANT_CREATE
    if args.command == "games" and simulator is not None and _exists(simulator):
        return _list_with_simulator(directory, simulator)
    if not _exists(directory):
        print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
        return 0 if args.command == "games" else 1
    store = _open(directory)
    if store is None:
        return 1
    try:
        return _list(store, directory) if args.command == "games" else _export(store, args.game, args.out)
    except (StoreError, sqlite3.Error) as error:  # a game's record that cannot be read
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return 1
    finally:
        store.close()


def _exists(directory: Path) -> bool:
    from ..store import FILENAME

    return (directory / FILENAME).exists() or (directory / FILENAME).is_symlink()


def _open(directory: Path) -> Store | None:
    from ..store import Store, StoreError

    try:
        store = Store(directory, read_only=True)  # a listing never moves, creates or writes anything
    except StoreError as error:
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return None
    if store.problem:  # what the journal had that SQLite lacks: said, then shown
        print(_("doge-companion: {problem}").format(problem=store.problem), file=sys.stderr)
    return store


def _list_with_simulator(directory: Path, simulator: Path) -> int:
    """The device's games, and a line saying where the simulator's are; none on the device: the simulator's."""
    sim = _open(simulator)
    if sim is None:
        return 1
    try:
        count = len(sim.games())
        device = _open(directory) if _exists(directory) else None
        if device is not None:
            try:
                if device.games() or not count:
                    _list(device, directory)
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
        return _list(sim, simulator)
    finally:
        sim.close()


def _list(store: Store, directory: Path) -> int:
    """One line a game; a computer player's colour is marked as one (the game's header names them). A store with
    no game in it says so, as a missing one does, never the column names over nothing."""
    if not store.games():
        print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
        return 0
    from ..flow.modes.evening import known_time

    columns = (_("game"), _("started (UTC)"), _("players"), _("year"), _("status"), _("winner"))
    print(f"{columns[0]:>4}  {columns[1]:<20}  {columns[2]:<30}  {columns[3]:>4}  {columns[4]:<9}  {columns[5]}")
    for game in store.games():
        computers = {} if game.problem else _computers(store, game.id)
        players = ", ".join(_("{name} (computer)").format(name=p) if p in computers else p for p in game.players)
        problem = game.problem or store.record(game.id)[1]  # a finished game's damage too: it is told until recovered
        status = game.status if not problem or game.status in (DAMAGED, "recovered") else f"{game.status}, {DAMAGED}"
        last = f"{', '.join(game.winners) or '-'}" + (f" ({problem})" if problem else "")
        started = game.started if known_time(game.started) else _("date unknown")  # in id order whatever it says
        print(f"{game.id:>4}  {started:<20}  {players or '-':<30}  {game.year:>4}  {status:<9}  {last}")
    return 0


def _computers(store: Store, game: int) -> dict[str, str]:
    """The computer players a game's header names (colour: level), none if it cannot be read."""
    import sqlite3

    from ..engine import RecordError, parse_header
    from ..store import StoreError

    try:
        lines = store.lines(game)
        bots = parse_header(lines[0]).extra.get("bots") if lines else None
    except (StoreError, sqlite3.Error, RecordError):
        return {}
    return bots if isinstance(bots, dict) else {}


def _export(store: Store, game: int, out: str | None) -> int:
    from ..engine import LineError
    from ..flow.notice_store import checked_screen
    from ..flow.shown import public_length
    from ..store.export import cut_short, public_record

    if not any(info.id == game for info in store.games()):
        print(
            _("doge-companion: there is no game {game} (see: doge-companion games)").format(game=game), file=sys.stderr
        )
        return 1
    lines, why = store.record(game)
    if not lines:
        print(_("doge-companion: game {game}'s record is damaged ({why}); nothing of it can be read, nothing was "
                "written").format(game=game, why=why), file=sys.stderr)  # fmt: skip
        return 1
    readable = len(lines)
    # A line whose reveals no screen has shown yet stays on the device, with everything after it (rules.md 11.4).
    lines = lines[: public_length(checked_screen(store.screen(game)), len(lines))]
    try:
        public = public_record(lines)
    except LineError as error:  # what readable() let through and the export cannot read: never a traceback
        print(_("doge-companion: game {game}'s record is damaged ({error}); nothing was written").format(
            game=game, error=error), file=sys.stderr)  # fmt: skip
        return 1
    if why is not None:
        public = cut_short(public, readable + 1, why)
        said = _("doge-companion: game {game}'s record is damaged ({why}): what of its first {count} lines is "
                 "public is written, marked cut short")  # fmt: skip
        print(said.format(game=game, why=why, count=readable), file=sys.stderr)
    text = "\n".join(public) + "\n"
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


def recover(args: argparse.Namespace) -> int:
    """``recover N``: a game set aside as damaged goes on from its valid lines, as a new game the next start
    resumes; the damaged one is kept, marked ``recovered``, and no longer told at every start
    (companion/app/resume.py)."""
    from ..store import default_directory

    settings = load_settings(args.config)
    if settings is None:
        return EXIT_CONFIG
    directory = default_directory(settings["game"]["state_dir"])
    try:
        return _recover_in(directory, args.game)
    except PermissionError as error:  # another user's state directory (the service's)
        print(permission_line(error, directory), file=sys.stderr)
        return EXIT_NO_PERMISSION


def _recover_in(directory: Path, game: int) -> int:
    from ..store import Store, StoreError, StoreUnavailable, private_directory
    from ..store.lock import Locked, StateLock

    if not _exists(directory):
        print(_("no games stored yet (looked in {directory})").format(directory=directory), file=sys.stderr)
        return 1
    private_directory(directory)
    lock = StateLock(directory)
    try:
        lock.acquire()
    except Locked as error:
        print(_("doge-companion: another companion (process {pid}) is using {directory}; stop it first").format(
            pid=error.pid if error.pid is not None else "?", directory=directory), file=sys.stderr)  # fmt: skip
        return EXIT_IN_USE
    try:
        store = Store(directory)
    except StoreUnavailable as error:
        lock.release()
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return EXIT_NO_STORE
    try:
        return _recover(store, game)
    except StoreError as error:
        print(_("doge-companion: {problem}").format(problem=error), file=sys.stderr)
        return 1
    finally:
        store.close()
        lock.release()


def _recover(store: Store, game: int) -> int:
    info = next((info for info in store.games() if info.id == game), None)
    if info is None:
        print(_("doge-companion: there is no game {game} (see: doge-companion games)").format(game=game),
              file=sys.stderr)  # fmt: skip
        return 1
    lines, why = store.record(game)
    if why is None and info.status != DAMAGED:
        print(_("doge-companion: game {game} is not damaged; nothing to recover").format(game=game), file=sys.stderr)
        return 1
    if not lines:
        print(_("doge-companion: nothing of game {game} can be read ({why}); it stays set aside").format(
            game=game, why=why), file=sys.stderr)  # fmt: skip
        return 1
    playing = store.unfinished()
    if playing is not None and playing != game:
        print(_("doge-companion: game {playing} is unfinished: finish it, or choose a new game when the companion "
                "offers to go on with it, then recover game {game}").format(playing=playing, game=game),
              file=sys.stderr)  # fmt: skip
        return 1
    from ..engine import Replay

    replay = Replay()
    for text in lines:
        replay.feed(text)
    state = replay.state
    new = store.new_game(lines[0])
    summary: dict[str, object] = {}
    if state is not None:  # as flow/game.py's summary says it
        summary = {"status": "over" if state.is_over else "playing", "year": state.year,
                   "winners": [state.players[s] for s in state.winners]}  # fmt: skip
    if len(lines) > 1:
        store.append(new, 2, lines[1:], summary)
    store.abandon(game, "recovered")
    print(_("game {game}'s first {count} lines go on as game {new}: start the companion to play on ({why})").format(
        game=game, count=len(lines), new=new, why=why or DAMAGED))  # fmt: skip
    return 0
