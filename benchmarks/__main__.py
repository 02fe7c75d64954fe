"""Run benchmark families: ``python -m benchmarks`` runs all, ``python -m benchmarks engine`` one family."""

from __future__ import annotations

import sys

from . import engine, flow, hardware

FAMILIES = {"engine": engine.main, "hardware": hardware.main, "flow": flow.main}


def main(argv: list[str]) -> int:
    names = argv or list(FAMILIES)
    unknown = [name for name in names if name not in FAMILIES]
    if unknown:
        print(f"unknown benchmark family {unknown[0]!r}; families: {', '.join(FAMILIES)}", file=sys.stderr)
        return 64
    for name in names:
        FAMILIES[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
