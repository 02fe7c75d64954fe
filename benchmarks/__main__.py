"""Run benchmark families: ``python -m benchmarks`` runs the quick ones, ``python -m benchmarks engine`` one family,
``python -m benchmarks --smoke`` every family at a tiny size with no verdicts (the test suite runs it, so no family
can hang or rot unseen; its figures mean nothing, but each must still report the figures docs/figures.json holds),
``python -m benchmarks --readme [FAMILY ...]`` the families named (every one when none is) at their full size, then
writes their figures into docs/figures.json and the README's table (benchmarks/figures.py); ``--families`` lists the
families, ``--check-readme`` says whether the README's table is the one docs/figures.json makes (exit 1 if not)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from . import (
    bots,
    crash,
    engine,
    engine_compare,
    figures,
    flow,
    glass,
    hardware,
    image,
    pi,
    press_trace,
    presses,
    speech,
    startup,
    store,
    twin,
    undo,
    web,
    wire,
)  # fmt: skip

FAMILIES: dict[str, Callable[[list[str], bool], None]] = {
    "engine": lambda _extra, smoke: engine.main(smoke),
    "hardware": lambda _extra, smoke: hardware.main(smoke),
    "flow": lambda _extra, smoke: flow.main(smoke),
    "store": lambda _extra, smoke: store.main(smoke),
    "crash": lambda extra, smoke: crash.main(["2"] if smoke else extra),
    "bots": lambda extra, smoke: bots.main(extra, smoke),
    "twin": lambda extra, smoke: twin.main(["2"] if smoke else extra),
    "undo": lambda extra, smoke: undo.main(["2"] if smoke else extra),
    "compare": lambda _extra, smoke: engine_compare.main(smoke=smoke),
    "wire": lambda _extra, smoke: wire.main(smoke),
    "startup": lambda _extra, smoke: startup.main(smoke),
    "pi": lambda _extra, smoke: pi.main(smoke),
    "glass": lambda _extra, smoke: glass.main(smoke),
    "web": lambda _extra, smoke: web.main(smoke),
    "speech": lambda _extra, smoke: speech.main(smoke),
    "presses": lambda extra, smoke: presses.main(["1"] if smoke else extra),
    "image": lambda _extra, smoke: image.main(smoke),
    "trace": lambda _extra, smoke: press_trace.main(smoke),
}
SLOW = ("crash", "bots", "twin", "undo", "pi", "glass", "compare", "web", "image")  # minutes each: run them by name
# Figures only a Pi's own hardware gives (its panel, its card): run there, never in the README's table. The smoke
# run still runs them, on the capture display, so they cannot rot unseen.
ON_A_PI = ("glass",)
# The path of a press through the code (calls between files, re-entries): a shape for docs/architecture.md's "A
# press", not a figure of speed or size for the README's table.
SHAPES = ("trace",)
TABLE = [name for name in FAMILIES if name not in ON_A_PI + SHAPES]  # the README's families


def main(argv: list[str]) -> int:
    """``python -m benchmarks [--smoke] [FAMILY ...] [NUMBER]``; ``crash`` also takes a number of kills (default
    200), ``twin`` a number of games (default 5,000), ``bots`` of games a match (default 200), ``undo`` of games
    (default 2,000), ``presses`` of games (default 10). ``pi`` gives the companion's figures on a Raspberry Pi: each
    step's CPU time measured here, converted by a stated factor, plus the bytes on the SPI wire at the configured
    clock."""
    if argv[:1] == ["--families"]:
        print("\n".join(FAMILIES))
        return 0
    if argv[:1] == ["--check-readme"]:
        return check_readme()
    smoke, readme = "--smoke" in argv, "--readme" in argv
    argv = [arg for arg in argv if arg not in ("--smoke", "--readme")]
    default = list(FAMILIES) if smoke else TABLE if readme else [name for name in FAMILIES if name not in SLOW]
    names = [arg for arg in argv if not arg.isdigit()] or default
    extra = [arg for arg in argv if arg.isdigit()]
    unknown = [name for name in names if name not in FAMILIES]
    if unknown:
        print(f"unknown benchmark family {unknown[0]!r}; families: {', '.join(FAMILIES)}", file=sys.stderr)
        return 64
    if readme and (elsewhere := [name for name in names if name in ON_A_PI]):
        print(f"{elsewhere[0]} measures a Pi's own panel and card: run it there (docs/installing.md's checklist); "
              "its figures are not the README's", file=sys.stderr)  # fmt: skip
        return 64
    for name in names:
        started = time.monotonic()
        figures.start(name)
        FAMILIES[name](extra, smoke)
        if smoke:
            print(f"smoke: {name} ran in {time.monotonic() - started:.1f} s", flush=True)
    if readme and not smoke:
        figures.keep(names, TABLE)
        print(f"docs/figures.json and the README's table now hold the figures of {', '.join(names)}")
    if smoke and (changed := figures.differences()):
        print("smoke: the figures reported differ from docs/figures.json (python3 dev.py bench --readme FAMILY):\n  "
              + "\n  ".join(changed), file=sys.stderr)  # fmt: skip
        return 1
    return 0


def check_readme() -> int:
    """Whether the README's table is what docs/figures.json makes, with every family in it."""
    stored = figures.load()
    missing = set(TABLE) - set(stored["families"])
    if missing:
        print(f"docs/figures.json has no figures of {', '.join(sorted(missing))}: python3 dev.py bench --readme FAMILY")
        return 1
    if not all(entry["rows"] for entry in stored["families"].values()):
        print("a family in docs/figures.json has no rows: python3 dev.py bench --readme FAMILY")
        return 1
    if figures.table(stored, TABLE) not in figures.README.read_text():
        print("the README's table was edited by hand: python3 dev.py bench --readme")
        return 1
    print("the README's table is docs/figures.json's")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
