"""``run`` and ``sim``: the companion for a table, on this machine's hardware, on simulated hardware, or in the
simulator's window; one companion per state directory, and a stop that always ends the process."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..i18n import _
from .common import (
    EXIT_CONFIG,
    EXIT_IN_USE,
    EXIT_INVALID_RECORD,
    EXIT_NO_STORE,
    EXIT_OUTPUT_FAILED,
    load_settings,
    outputs_problem,
)

STOP_GRACE_S = 0.8  # after SIGTERM or Ctrl-C the companion is gone within this (status 0), even if its loop is stuck
LAST_RESORT_S = 1.5  # code that never lets the interpreter run a handler: ended from faulthandler's own thread

if TYPE_CHECKING:
    from hardware.key_file import KeyFile

    from ..app import App
    from ..store.lock import StateLock


class Stop:
    """A stop asked for by SIGTERM or Ctrl-C, heard from the very start of ``run`` and ``sim``: one that comes while
    the hardware or the window is still being opened ends the process within STOP_GRACE_S with status 0 as well
    (before, it found Python's default handler there and the process died of the signal). ``wake``: what makes the
    loop look at the stop flag once there is a loop."""

    def __init__(self) -> None:
        import signal
        import threading

        self.event = threading.Event()
        self.wake: Any = None
        signal.signal(signal.SIGTERM, self._asked)
        signal.signal(signal.SIGINT, self._asked)

    def _asked(self, _signum: int, _frame: object) -> None:
        _stop_within_grace()
        self.event.set()
        if self.wake is not None:
            self.wake()


def run(args: argparse.Namespace) -> int:
    from display.backends import ScreenshotError

    from ..system import logs

    stop = Stop()
    logs.setup()
    loaded = load_settings(args.config, hint=True)
    if loaded is None:
        return EXIT_CONFIG
    settings = loaded.with_hardware(args.hardware)
    if problem := _run_problem(args, settings["hardware"]):
        print(logs.error_line(problem), file=sys.stderr)
        return 1
    script = None
    if args.script:
        from pathlib import Path

        from .script import ScriptError, read_script

        try:
            script = read_script(Path(args.script))
        except ScriptError as error:
            print(_("doge-companion: {error}").format(error=error), file=sys.stderr)
            return EXIT_INVALID_RECORD
    opened = _open_app(args, settings, throw_away=(script is not None or args.autoplay is not None) and not args.resume)
    if isinstance(opened, int):
        return opened
    app, lock = opened
    keys = _open_keys(args, app, lock)
    if isinstance(keys, int):
        return keys
    _say_how_to_play(args, app, script is None and keys is None)
    stop.wake = app.events.wake
    status = EXIT_OUTPUT_FAILED
    try:
        status = app.run(stop.event, script, args.autoplay)
    except ScreenshotError as error:  # a full disk mid-game: one line; the game is in the store (its own disk)
        problem = _("doge-companion: --screenshots: cannot write {path}: {error}; stopped there (the store is apart: "
                    "a saved game goes on at the next start)")  # fmt: skip
        print(logs.error_line(problem.format(path=error.path, error=error.why)), file=sys.stderr)
    finally:
        if keys is not None:
            keys.close()
        app.close()
        _stopped_in_time()
        if args.screenshots and status != EXIT_OUTPUT_FAILED:  # a run that ends by itself says where its frames went
            import logging

            logging.getLogger("doge-companion").info("%d frames saved in %s", app.display.frames, args.screenshots)
        if lock is not None:
            lock.release()
        if args.record and not _write_record(args.record, app.controller.public_record()):
            status = EXIT_OUTPUT_FAILED
    return status


def _run_problem(args: argparse.Namespace, hardware: str) -> str | None:
    """What makes these arguments unusable together or here, in one line (no output path, no extra installed)."""
    from ..system import extras

    if problem := outputs_problem(args):
        return _("doge-companion: {problem}").format(problem=problem)
    if problem := extras.missing(hardware, "run"):
        return problem
    if args.keys and (args.script or args.autoplay is not None):
        return _("doge-companion: --keys feeds a companion that waits for input: not with --script or --autoplay")
    return None


def _open_app(args: argparse.Namespace, settings: Any, throw_away: bool) -> tuple[App, StateLock | None] | int:
    """The App and the state directory's lock, or the exit status after saying in one line why not. ``throw_away``:
    a script's or a demo's game, in a store of its own that is thrown away (the paused game of a real table is never
    touched; a script plus --seed replays exactly)."""
    import logging
    from pathlib import Path

    from ..app import App
    from ..store import Store, StoreError, StoreUnavailable
    from ..system import logs

    store, summary_path, lock = None, None, None
    if throw_away:
        store = Store(None, memory=True)
        record_path = Path(args.record) if args.record else None
        # The store is thrown away: the game's summary picture goes beside its record, if that is a file; never
        # beside a device or a pipe (--record /dev/full would make /dev/full-summary.png).
        if record_path is not None and (record_path.is_file() or not record_path.exists()):
            summary_path = record_path.with_name(f"{record_path.stem}-summary.png")
        logging.getLogger("doge-companion").info(
            "a new game in a throw-away store: the saved games are not touched (--resume goes on with them)"
        )
    else:
        held = _lock_state_directory(settings)
        if isinstance(held, int):
            return held
        lock = held
    try:
        app = App(
            settings,
            screenshots=Path(args.screenshots) if args.screenshots else None,
            audio=Path(args.audio) if args.audio else None,
            seed=args.seed,
            entry=args.entry,
            acks=sys.stdout if args.acks else None,
            store=store,
            summary_path=summary_path,
            serve_web=args.script is None and args.autoplay is None,  # phones join a table, not a script or a demo
        )
    except StoreUnavailable as error:  # a full disk: its own line (the hardware is fine), and nothing was moved
        return _no_store(error, lock)
    except StoreError as error:  # the saved games, never called "the hardware" (damage is handled in the store)
        print(logs.error_line(_("doge-companion: {problem}").format(problem=error)), file=sys.stderr)
        return _released(lock, 1)
    except Exception as error:  # hardware that cannot be opened: say what and how to go on, no traceback
        message = _("doge-companion: cannot start the hardware: {error}").format(error=error)
        print(logs.error_line(message), file=sys.stderr)
        return _released(lock, 1)
    return app, lock


def _released(lock: StateLock | None, status: int) -> int:
    if lock is not None:
        lock.release()
    return status


def _open_keys(args: argparse.Namespace, app: App, lock: StateLock | None) -> KeyFile | int | None:
    """``--keys``' reader on the App's queue (None without it), or the exit status after saying why not."""
    if not args.keys:
        return None
    from pathlib import Path

    from hardware.key_file import KeyFile

    try:
        return KeyFile(Path(args.keys), app.events)
    except OSError as error:
        problem = _("doge-companion: cannot read keys from {path}: {error}")
        print(problem.format(path=args.keys, error=error.strerror), file=sys.stderr)
        app.close()
        return _released(lock, 1)


def _say_how_to_play(args: argparse.Namespace, app: App, waiting: bool) -> None:
    """The log says a game goes on; simulated hardware with no input at all says how to give it some."""
    import logging

    if app.resumed:
        logging.getLogger("doge-companion").info("going on with the unfinished game")
    if not (app.mock and waiting and args.autoplay is None):
        return
    where = (
        _("saved in {screenshots}").format(screenshots=args.screenshots)
        if args.screenshots
        else "not saved (use --screenshots DIR)"
    )
    logging.getLogger("doge-companion").info("simulated hardware, no window: frames are %s; Ctrl-C stops", where)
    print(
        _(
            "doge-companion: waiting for input: simulated hardware has no buttons to press. Give it input with "
            "--script FILE (one key press a line, docs/scripted-input.md) or, as they come, --keys FIFO; let a "
            "simulated table play with --autoplay SEED, plug in USB keypads (pads.serial in the config), join "
            "with phones (the join link is in the file the log names), or open a window with `doge-companion "
            "sim`. Ctrl-C stops."
        ),
        file=sys.stderr,
        flush=True,
    )


def _write_record(path: str, record: list[str]) -> bool:
    """``--record``: the same public history as `export`: no unrevealed ballot, no unturned card, no reveal not yet
    shown (rules.md 11). False once it said why it could not be written: the run then ends with EX_IOERR."""
    from pathlib import Path

    from ..store.export import public_record

    try:
        Path(path).write_text("".join(f"{line}\n" for line in public_record(record)) if record else "")
    except OSError as error:
        print(_("doge-companion: cannot write {path}: {error}").format(path=path, error=error.strerror),
              file=sys.stderr)  # fmt: skip
        return False
    return True


def _no_store(error: Exception, lock: StateLock | None) -> int:
    """The saved games cannot be opened (a full disk): one line naming the directory, and a status that tells
    systemd to try again later (Restart=on-failure), when there may be room."""
    from ..system.logs import error_line

    print(error_line(_("doge-companion: {problem}").format(problem=error)), file=sys.stderr)
    if lock is not None:
        lock.release()
    return EXIT_NO_STORE


def _stop_within_grace() -> None:
    """A stop was asked for: if the process has not ended within STOP_GRACE_S (a loop stuck in a long computation
    never gets back to look at its stop flag), it ends there, with status 0: a stop asked for is not a failure, and
    every acknowledged line is committed already, so this loses nothing (the crash harness kills with SIGKILL
    hundreds of times). Code that holds the interpreter so long that no handler runs is ended from faulthandler's
    thread, which needs no interpreter, at LAST_RESORT_S."""
    import faulthandler
    import signal

    signal.signal(signal.SIGALRM, lambda _signum, _frame: os._exit(0))
    if signal.getitimer(signal.ITIMER_REAL)[0] == 0:
        signal.setitimer(signal.ITIMER_REAL, STOP_GRACE_S)
        with open(os.devnull, "w") as nowhere:
            faulthandler.dump_traceback_later(LAST_RESORT_S, exit=True, file=os.dup(nowhere.fileno()))


def _stopped_in_time() -> None:
    """The loop has ended and everything is closed: what is left (the interpreter's own exit) needs no deadline."""
    import faulthandler
    import signal

    signal.setitimer(signal.ITIMER_REAL, 0)
    faulthandler.cancel_dump_traceback_later()


def _lock_state_directory(settings: Any) -> StateLock | int | None:
    """The state directory's lock (None when it cannot be locked, e.g. a read-only disk), or the exit status after
    saying, in one line, which process holds it."""
    from ..store import default_directory, private_directory
    from ..store.lock import Locked

    directory = default_directory(settings["game"]["state_dir"])
    try:
        private_directory(directory)
    except OSError:
        return None  # the store says why it cannot save
    from ..store.lock import StateLock

    lock = StateLock(directory)
    try:
        lock.acquire()
    except Locked as error:
        holder = str(error.pid) if error.pid is not None else "?"
        print(
            _("doge-companion: another companion (process {pid}) is using {directory}; stop it first").format(
                pid=holder, directory=directory
            ),
            file=sys.stderr,
        )
        return EXIT_IN_USE
    return lock


def _no_display(environ: Mapping[str, str] | None = None, platform: str = sys.platform) -> bool:
    """Linux with no X11 or Wayland display and no SDL video driver chosen: pygame would open its window nowhere and
    the simulator would run unseen until killed."""
    environ = os.environ if environ is None else environ
    if not platform.startswith("linux") or environ.get("SDL_VIDEODRIVER"):
        return False
    return not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def sim(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..app import App
    from ..store import StoreError, StoreUnavailable, simulator_directory
    from ..system import extras, logs

    stop = Stop()
    logs.setup()
    settings = load_settings(args.config, hint=True)
    if settings is None:
        return EXIT_CONFIG
    if problem := extras.missing("sim", "sim"):
        print(problem, file=sys.stderr)
        return 1
    if _no_display():
        print(
            _(
                "doge-companion sim: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set); "
                "without a desktop, run: doge-companion run --hardware mock"
            ),
            file=sys.stderr,
        )
        return 2
    data = {**settings.data, "hardware": "mock", "game": dict(settings["game"])}
    if not data["game"]["state_dir"]:  # the simulator keeps its games apart from a real device's
        data["game"]["state_dir"] = str(simulator_directory())
    settings = replace(settings, data=data)
    lock = _lock_state_directory(settings)
    if isinstance(lock, int):
        return lock
    try:
        app = App(settings, seed=args.seed, serve_web=True)
    except StoreUnavailable as error:
        return _no_store(error, lock)
    except StoreError as error:
        print(logs.error_line(_("doge-companion: {problem}").format(problem=error)), file=sys.stderr)
        return 1
    if app.web is not None:
        print(
            _("doge-companion sim: serving phones and the table view at {address} (port {port} of this machine; "
              "web.enabled = false in the config turns it off)").format(address=app.phones_served, port=app.web.port),
            file=sys.stderr,
            flush=True,
        )  # fmt: skip
    try:
        from display.simulator import Simulator

        simulator = Simulator(app, scale=args.scale)
    except Exception as error:  # no pygame, or no display to open a window on
        app.close()
        print(_("doge-companion sim: cannot open the window ({error}).").format(error=error), file=sys.stderr)
        print("Without a desktop, run it headless: doge-companion run --hardware mock", file=sys.stderr)
        return 1

    stop.wake = lambda: simulator.pygame.event.post(simulator.pygame.event.Event(simulator.pygame.QUIT))
    try:
        return 0 if stop.event.is_set() else simulator.run()
    except KeyboardInterrupt:
        return 0
    finally:
        simulator.close()
        app.close()
        _stopped_in_time()
        if lock is not None:
            lock.release()
