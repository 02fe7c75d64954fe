"""Run benchmark families: ``python -m benchmarks`` runs all, ``python -m benchmarks engine`` one family."""

from __future__ import annotations

import sys

from . import bots, crash, engine, engine_compare, flow, hardware, pi, startup, store, twin, undo, wire

FAMILIES = {
    "engine": engine.main,
    "hardware": hardware.main,
    "flow": flow.main,
    "store": store.main,
    "crash": crash.main,
    "bots": bots.main,
    "twin": twin.main,
    "undo": undo.main,
    "compare": engine_compare.main,
    "wire": wire.main,
    "startup": startup.main,
    "pi": pi.main,
}


def main(argv: list[str]) -> int:
    """``python -m benchmarks [FAMILY ...] [-- ARGS]``; ``crash`` also takes a number of kills (default 200), ``twin``
    a number of games (default 5,000), ``undo`` too (default 2,000). ``pi`` measures press -> frame, start-up and the
    hard player at a Raspberry Pi's speed (a throttled child process) next to this machine's."""
    slow = ("crash", "bots", "twin", "undo", "pi", "compare")  # minutes each: run them by name
    names = [arg for arg in argv if not arg.isdigit()] or [name for name in FAMILIES if name not in slow]
    extra = [arg for arg in argv if arg.isdigit()]
    unknown = [name for name in names if name not in FAMILIES]
    if unknown:
        print(f"unknown benchmark family {unknown[0]!r}; families: {', '.join(FAMILIES)}", file=sys.stderr)
        return 64
    for name in names:
        if name == "crash":
            crash.main(extra)
        elif name == "bots":
            bots.main(extra)
        elif name == "twin":
            twin.main(extra)
        elif name == "undo":
            undo.main(extra)
        elif name == "compare":
            engine_compare.main()
        else:
            FAMILIES[name]()  # type: ignore[operator]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
