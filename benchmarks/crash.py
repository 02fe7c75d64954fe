"""Crash harness (issue 5): the companion as a real process, killed with SIGKILL at random moments.

Each round starts ``doge-companion run --hardware mock --autoplay SEED --acks --resume``: a simulated table plays,
and the companion prints ``ack GAME N HASH`` for every record line it has committed (before the screen shows it).
The harness kills the process at a random moment (after a random number of acknowledged lines, so that a slow
machine changes nothing but the time it takes; the kill lands while the companion goes on committing), then checks
the store: every acknowledged line is there, byte for byte, and every stored record replays. The next round restarts
it: the companion resumes the unfinished game and prints the hash of its state, which must equal the replay of the
stored record. Run: ``python -m benchmarks crash [KILLS]``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import select
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.engine import replay_text, snapshot

ROOT = Path(__file__).resolve().parents[1]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def stored_records(directory: Path) -> dict[int, list[str]]:
    path = directory / "games.sqlite3"
    if not path.exists():
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        records: dict[int, list[str]] = {}
        for game, text in db.execute("SELECT game, text FROM lines ORDER BY game, seq"):
            records.setdefault(game, []).append(text)
        return records
    finally:
        db.close()


def harness(kills: int, directory: Path, seed: int = 1, verbose: bool = False) -> dict[str, int]:
    rng = random.Random(seed)
    config = directory / "config.toml"
    config.write_text(
        f'[game]\nstate_dir = "{directory}"\ncues = false\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n'
    )
    acked: dict[tuple[int, int], str] = {}
    counts = {"kills": 0, "resumes": 0, "resume checks": 0, "acknowledged lines": 0, "finished games": 0, "lost": 0}
    for round_number in range(kills):
        process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock",
             "--autoplay", str(rng.randrange(1 << 30)), "--acks", "--resume"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert process.stdout is not None
        wanted = rng.randint(1, 60)  # acknowledged lines before the kill
        hang_guard = time.monotonic() + 300
        output = b""
        while output.count(b"\nack ") < wanted and time.monotonic() < hang_guard and process.poll() is None:
            ready, _, _ = select.select([process.stdout], [], [], 0.05)
            if ready:
                output += os.read(process.stdout.fileno(), 65536)
        process.kill()
        process.wait()
        output += process.stdout.read()
        counts["kills"] += 1
        resumed_claims = []
        for line in output.decode(errors="replace").splitlines():
            words = line.split()
            if len(words) == 4 and words[0] == "ack":
                acked[int(words[1]), int(words[2])] = words[3]
            elif len(words) == 3 and words[0] == "rewind":
                acked = {k: v for k, v in acked.items() if not (k[0] == int(words[1]) and k[1] > int(words[2]))}
            elif len(words) == 4 and words[0] == "resumed":
                resumed_claims.append((int(words[1]), int(words[2]), words[3]))
        records = stored_records(directory)
        for (game, number), expected in acked.items():
            record = records.get(game, [])
            if number > len(record) or digest(record[number - 1]) != expected:
                counts["lost"] += 1
        for game, number, state_digest in resumed_claims:
            counts["resumes"] += 1
            replayed = replay_text(records[game][:number])
            if digest(json.dumps(snapshot(replayed), sort_keys=True)) == state_digest:
                counts["resume checks"] += 1
        counts["finished games"] = sum(1 for lines in records.values() if replay_text(lines).is_over)
        if verbose and (round_number + 1) % 20 == 0:
            print(f"  {round_number + 1} kills, {len(acked)} lines acknowledged, {counts['lost']} lost", flush=True)
    counts["acknowledged lines"] = len(acked)
    return counts


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
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
