"""The README's figures, written by the benchmarks themselves (the table was once copied by hand and went stale).

Each family states its headline figures with :func:`report` as it prints them. ``python3 dev.py bench --readme
[FAMILY ...]`` runs the families named (every one when none is), keeps what they reported in docs/figures.json (a
family not run keeps its last figures, with the day, commit and machine they were measured on) and writes the
README's table, between its two markers, anew from that file. ``bench --smoke`` checks that every family still
reports the figures the file holds, so a renamed or dropped figure cannot leave the table behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "docs" / "figures.json"
README = ROOT / "README.md"
BEGIN = "<!-- figures: begin (python3 dev.py bench --readme writes this table) -->"
END = "<!-- figures: end -->"

_reported: dict[str, list[dict[str, str]]] = {}
_family = ""


def start(family: str) -> None:
    """What :func:`report` says from now on is FAMILY's (benchmarks/__main__.py calls it before each family)."""
    global _family
    _family = family
    _reported[family] = []


def report(what: str, figure: str, budget: str = "") -> None:
    """One row of the README's table: WHAT was measured (the same words at every size), the FIGURE with its unit,
    and the BUDGET it is held to, if any."""
    _reported.setdefault(_family, []).append({"what": what, "figure": figure, "budget": budget})


def reported() -> dict[str, list[dict[str, str]]]:
    return _reported


def machine() -> str:
    """This machine, in a few words: its processor, its cores and Python."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError, StopIteration):
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _commit() -> str:
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return result.stdout.strip() or "?"


def load() -> dict[str, Any]:
    return json.loads(STORE.read_text()) if STORE.exists() else {"families": {}}


def keep(families: list[str], order: list[str]) -> None:
    """FAMILIES' figures from this run into docs/figures.json, then the README's table from it (families in
    ORDER)."""
    stored = load()
    measured = {"day": time.strftime("%Y-%m-%d"), "commit": _commit(), "machine": machine()}
    for family in families:
        stored["families"][family] = {**measured, "rows": _reported.get(family, [])}
    STORE.write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n")
    README.write_text(with_table(README.read_text(), stored, order))


def table(stored: dict[str, Any], order: list[str]) -> str:
    """The markdown table: the families in ORDER, each row with the bench that measures it, and when and where."""
    lines = [BEGIN, "", "| what | figure | budget | measured |", "| --- | --- | --- | --- |"]
    machines: list[str] = []
    for family in (name for name in order if name in stored["families"]):
        entry = stored["families"][family]
        if entry["machine"] not in machines:
            machines.append(entry["machine"])
        where = f"`bench {family}`, {entry['day']}, {entry['commit']}, machine {machines.index(entry['machine']) + 1}"
        lines += [f"| {row['what']} | {row['figure']} | {row['budget']} | {where} |" for row in entry["rows"]]
    lines += [""] + [f"Machine {number}: {name}." for number, name in enumerate(machines, 1)] + ["", END]
    return "\n".join(lines)


def with_table(readme: str, stored: dict[str, Any], order: list[str]) -> str:
    head, rest = readme.split(BEGIN, 1)
    return head + table(stored, order) + rest.split(END, 1)[1]


def differences() -> list[str]:
    """Figures this run reported that docs/figures.json does not hold, or the other way round (by family and
    what), for the families run: `bench --readme FAMILY` brings the file and the README up to date."""
    stored = load()["families"]
    found = []
    for family, rows in _reported.items():
        wanted = [row["what"] for row in stored.get(family, {}).get("rows", [])]
        if [row["what"] for row in rows] != wanted:
            found.append(f"{family}: reports {[row['what'] for row in rows]}, docs/figures.json holds {wanted}")
    return found
