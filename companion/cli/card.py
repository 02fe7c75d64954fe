"""The card file's commands: ``check-config`` on a card file (by its name, doge-companion.toml, or ``--card``), and
``network``, which makes its Wi-Fi NetworkManager's at boot (docs/card-file.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..i18n import _
from .common import EXIT_CONFIG


def check_card(file: str) -> int:
    """The card file checked as the device reads it: over the defaults and the owner's config file if there is
    one; every problem one line; then what its Wi-Fi says (network names, never a password)."""
    from ..system import config

    path = Path(file)
    if not os.path.lexists(path):
        print(_("{label}: no such file").format(label=file), file=sys.stderr)
        return EXIT_CONFIG
    try:
        settings = config.load(card=path)
    except config.ConfigError as error:  # the owner's config file, which the card is read over
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return EXIT_CONFIG
    if settings.card_problems:
        for problem in settings.card_problems:
            print(problem, file=sys.stderr)
        return EXIT_CONFIG
    card = config.read_card(path)
    print(_("{source}: OK (a card file, read over {base})").format(
        source=file, base=settings.source or _("the defaults")))  # fmt: skip
    if card is not None:
        print(wifi_summary(card.wifi))
    return 0


def wifi_summary(wifi: object) -> str:
    from ..system.card import Wifi

    assert isinstance(wifi, Wifi)
    if wifi.networks:
        names = ", ".join(network.ssid for network in wifi.networks)
        line = _("Wi-Fi: joins {names}").format(names=names)
    else:
        line = _("Wi-Fi: no network named on the card")
    if wifi.country:
        line += "; " + _("country {country}").format(country=wifi.country)
    line += "; " + (
        _("with none in reach the Pi opens its own network")
        if wifi.hotspot
        else _("the Pi never opens its own network")
    )
    return line


def network(args: argparse.Namespace) -> int:
    """The card's Wi-Fi for NetworkManager, then a connection or the Pi's own network (system/network.py). A card
    file that cannot be used: one line, and the Pi's own network all the same (no network is on the card then)."""
    from dataclasses import replace

    from ..system import config
    from ..system.card import CARD_ENV, CARD_PATH, Wifi
    from ..system.network import configure

    root = Path(args.root)
    if args.card:
        card_file: Path | None = Path(args.card)
    elif CARD_ENV in os.environ:
        card_file = Path(os.environ[CARD_ENV]) if os.environ[CARD_ENV] else None
    else:
        card_file = root / CARD_PATH.relative_to("/")
    wifi, from_card = Wifi(), False
    if card_file is not None:
        try:
            card = config.read_card(card_file)
            if card is not None:
                wifi, from_card = card.wifi, True
        except config.ConfigError as error:
            print(error.problems[0], file=sys.stderr)
            print("doge-companion network: the card file is left out: the networks saved before are kept",
                  file=sys.stderr)  # fmt: skip
    if args.wait is not None:
        wifi = replace(wifi, wait_seconds=args.wait)
    return configure(root, wifi, lambda line: print(line, flush=True), group=args.group, from_card=from_card)
