"""Crash harness (nothing lost: docs/architecture.md "A restart"): the companion as a real process, killed with SIGKILL
at random moments.

Each round starts ``doge-companion run --hardware mock --autoplay SEED --acks --resume``: a simulated table plays,
and the companion prints ``ack GAME N HASH`` for every record line it has committed (before the screen shows it).
The harness kills the process at a random moment (after a random number of acknowledged lines, so that a slow
machine changes nothing but the time it takes; the kill lands while the companion goes on committing), then checks
the store: every acknowledged line is there, byte for byte, and every stored record replays. The next round restarts
it: the companion resumes the unfinished game and prints the hash of its state, which must equal the replay of the
stored record. Run 200 kills with ``python -m benchmarks crash [KILLS]`` (the fault scenarios of
tests/fault_harness.py follow); tests/test_crash.py runs a few.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
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


def write_config(directory: Path, state: Path | None = None, pads: str = '"off"') -> Path:
    """A config for the companion as a process: its state in ``state`` (default: ``directory``), no keypads."""
    config = directory / "config.toml"
    config.write_text(
        f'[game]\nstate_dir = "{state or directory}"\ncues = false\n[display]\ndriver = "capture"\n'
        f"[pads]\nserial = {pads}\n"
    )
    return config


def companion(config: Path, *args: str) -> list[str]:
    """The command line of the companion with this config (run --hardware mock for a run)."""
    return [sys.executable, "-m", "companion.cli", *args, "--config", str(config)]


def play(
    config: Path,
    seed: int,
    wanted: int,
    *,
    hang_guard: float = 300,
    errors: Path | None = None,
    stop: signal.Signals = signal.SIGKILL,
) -> tuple[str, int | None]:
    """``run --autoplay SEED --acks --resume`` until it has acknowledged ``wanted`` lines, then ``stop`` it (SIGKILL;
    SIGTERM for a clean stop), unless it ended by itself first: then its exit status is returned with its output.
    Its stderr goes to ``errors``."""
    with open(errors or os.devnull, "wb") as stderr:
        process = subprocess.Popen(
            [*companion(config, "run"), "--hardware", "mock", "--autoplay", str(seed), "--acks", "--resume"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    assert process.stdout is not None
    deadline = time.monotonic() + hang_guard
    output = b""
    while output.count(b"\nack ") < wanted and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 0.05)
        if ready:
            output += os.read(process.stdout.fileno(), 65536)
    ended = process.poll()
    if ended is None:
        process.send_signal(stop)
    process.wait()
    output += process.stdout.read()
    return output.decode(errors="replace"), ended


def read_acks(output: str, acked: dict[tuple[int, int], str]) -> list[tuple[int, int, str]]:
    """Adds the output's acknowledgements to ``acked`` (a rewind takes back what it undid); returns its resume
    claims (game, lines, state digest)."""
    resumed = []
    for line in output.splitlines():
        words = line.split()
        if len(words) == 4 and words[0] == "ack":
            acked[int(words[1]), int(words[2])] = words[3]
        elif len(words) == 3 and words[0] == "rewind":
            for key in [k for k in acked if k[0] == int(words[1]) and k[1] > int(words[2])]:
                del acked[key]
        elif len(words) == 4 and words[0] == "resumed":
            resumed.append((int(words[1]), int(words[2]), words[3]))
    return resumed


def lost(acked: dict[tuple[int, int], str], directory: Path) -> int:
    """Acknowledged lines that are not in the store, byte for byte."""
    records = stored_records(directory)
    return sum(
        1
        for (game, number), expected in acked.items()
        if number > len(records.get(game, [])) or digest(records[game][number - 1]) != expected
    )


def resume_matches(claim: tuple[int, int, str], directory: Path) -> bool:
    game, number, state_digest = claim
    replayed = replay_text(stored_records(directory)[game][:number])
    return digest(json.dumps(snapshot(replayed), sort_keys=True)) == state_digest


def harness(kills: int, directory: Path, seed: int = 1, verbose: bool = False) -> dict[str, int]:
    rng = random.Random(seed)
    config = write_config(directory)
    acked: dict[tuple[int, int], str] = {}
    counts = {"kills": 0, "resumes": 0, "resume checks": 0, "acknowledged lines": 0, "finished games": 0, "lost": 0}
    for round_number in range(kills):
        game_seed = rng.randrange(1 << 30)
        output, _ended = play(config, game_seed, rng.randint(1, 60))  # acknowledged lines before the kill
        counts["kills"] += 1
        resumed_claims = read_acks(output, acked)
        counts["lost"] = max(counts["lost"], lost(acked, directory))
        for claim in resumed_claims:
            counts["resumes"] += 1
            counts["resume checks"] += resume_matches(claim, directory)
        records = stored_records(directory)
        counts["finished games"] = sum(1 for lines in records.values() if replay_text(lines).is_over)
        if verbose and (round_number + 1) % 20 == 0:
            print(f"  {round_number + 1} kills, {len(acked)} lines acknowledged, {counts['lost']} lost", flush=True)
    counts["acknowledged lines"] = len(acked)
    return counts
