"""``python -m benchmarks crash [KILLS]``: the crash harness (tests/crash_harness.py) at 200 SIGKILLs, then the
fault scenarios (tests/fault_harness.py), each figure printed and kept for the README's table."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from benchmarks import figures
from tests.crash_harness import harness
from tests.fault_harness import report


def main(argv: list[str] | None = None) -> None:
    kills = int(argv[0]) if argv else 200
    print(f"crash harness: {kills} SIGKILLs at random moments")
    with tempfile.TemporaryDirectory() as folder:
        started = time.monotonic()
        counts = harness(kills, Path(folder), verbose=True)
        elapsed = time.monotonic() - started
    for key, value in counts.items():
        print(f"{key:<44} {value:10d}")
    print(f"{'time':<44} {elapsed:10.1f} s")
    ok = counts["lost"] == 0 and counts["resume checks"] == counts["resumes"]
    print("nothing acknowledged was lost; every resume equals the replay" if ok else "FAILED")
    figures.report(
        "SIGKILLs at random moments (`bench crash`): acknowledged lines lost; resumes equal to the replay",
        f"{counts['lost']} of {counts['acknowledged lines']:,} lost in {kills} kills; {counts['resume checks']} of "
        f"{counts['resumes']} resumes",
        "0 lost",
    )
    ok = report() and ok
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
