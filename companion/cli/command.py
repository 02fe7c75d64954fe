"""The ``doge-companion`` command.

Sub-commands import what they need inside their own function: ``replay`` must start fast and load nothing beyond
the rules engine and the standard library (tests/test_startup.py), while the device modes pull in pygame, luma or
gpiozero.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

from ..i18n import _, locale_language, set_language
from .common import EXIT_CONFIG, EXIT_USAGE, load_settings

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def _build_parser() -> argparse.ArgumentParser:
    from .parser import build_parser

    return build_parser()


def _replay(record: str, each: bool, changes: bool, lang: str | None) -> int:
    from .replay import run_replay

    if lang:
        set_language(lang)
    return run_replay(record, each=each, changes=changes)


def main(argv: Sequence[str] | None = None) -> int:
    set_language(locale_language())  # command-line messages follow the locale; the screens, the config
    args = _build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command == "replay":
        return _replay(args.record, args.each, args.changes, args.lang)
    if args.command == "run":
        from .device import run

        return run(args)
    if args.command == "sim":
        from .device import sim

        return sim(args)
    if args.command in ("games", "export"):
        from .stored import stored

        return stored(args)
    if args.command == "recover":
        from .stored import recover

        return recover(args)
    if args.command == "screens":
        from pathlib import Path

        from ..system.extras import missing

        if problem := missing("sim", "screens"):  # it draws the simulator's window too
            print(problem, file=sys.stderr)
            return 1
        from .gallery import write

        # Without --out: the checkout's docs/screens, never a docs/ in whatever directory it is typed in.
        checkout = Path(__file__).resolve().parents[2]
        if args.out is None and not (checkout / "pyproject.toml").is_file():
            print(_("doge-companion screens: say where to write them: --out DIR"), file=sys.stderr)
            return EXIT_USAGE
        out = Path(args.out) if args.out is not None else checkout / "docs" / "screens"
        written = write(out)
        print(_("{count} screens written to {out}").format(count=len(written), out=out))
        return 0
    if args.command == "check-config" and args.file and (args.card or _card_name(args.file)):
        from .card import check_card

        return check_card(args.file)
    if args.command in ("check-config", "print-config"):
        return _config_command(args.command, args.file if args.command == "check-config" else args.config)
    if args.command == "network":
        from .card import network

        return network(args)
    if args.command == "check-hardware":
        return _check_hardware(args.config, args.root)
    raise AssertionError(args.command)  # argparse only lets known commands through


def _check_hardware(file: str | None, root: str) -> int:
    from pathlib import Path

    from ..app.hardware_check import check_hardware

    settings = load_settings(file)
    if settings is None:
        return EXIT_CONFIG
    findings = check_hardware(settings.data, Path(root), home=Path.home())
    for finding in findings:
        print(finding.line())
    return 1 if any(finding.state == "missing" for finding in findings) else 0


def _card_name(file: str) -> bool:
    from pathlib import Path

    from ..system.card import is_card_file

    return is_card_file(Path(file))


def _config_command(command: str, file: str | None) -> int:
    from ..system import config

    settings = load_settings(file)
    if settings is None:
        return EXIT_CONFIG
    if command == "print-config":
        print(_("# merged from the defaults and {source}").format(source=settings.source or _("no user file")))
        if settings.card is not None:
            print(_("# and the card file {card}").format(card=settings.card))
        print(config.to_toml(settings.data), end="")
        return 0
    print(_("{source}: OK").format(source=settings.source or _("defaults (no config file found)")))
    if file is None and settings.card_problems:  # the settings the companion would use: the card's too
        for problem in settings.card_problems:
            print(problem, file=sys.stderr)
        return EXIT_CONFIG
    if file is None and settings.card is not None:
        print(_("{source}: OK").format(source=settings.card))
    return 0


def entry_point() -> NoReturn:
    """The console script: :func:`main`, then the process ends with its status."""
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
