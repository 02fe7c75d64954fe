"""The command line: ``doge-companion`` and its commands (replay, run, sim, games, export, screens, the config).

The top layer: it may import every other part of the companion (the App, the store, the engine, the system glue)
and nothing imports it. Each command imports what it needs inside its own function, so ``replay`` loads the rules
engine and the standard library only, while ``run`` and ``sim`` pull in the hardware's libraries.
"""

from .command import entry_point, main

__all__ = ["entry_point", "main"]
