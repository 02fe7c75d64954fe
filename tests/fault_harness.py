"""Fault harness (a full disk or a damaged store never loses a game): what the crash harness's kills do not reach, each
scenario with the companion as it runs.

- A full disk at start: the saved game is neither moved nor lost; the companion says so in one line naming the
  directory and stops, and once there is room it goes on where it stopped. A disk that fills during autoplay stops
  it with one line. The disk is a small tmpfs mounted in a private mount namespace (``unshare``: as root, or as any
  user where user namespaces are allowed), so SQLite meets the kernel's own ENOSPC, and its real "disk I/O error"
  when the -shm cannot grow: an injected error (``max_page_count``) would not reach that path.
- Torn copies of the store (a copy interrupted, a -wal from another moment): each either resumes a consistent
  earlier state, checked against the replay of what is stored, or is moved aside; none stops the companion.
- Repeated starts on damaged stores: every damaged file is kept, each under its own name.
- A keypad that never reads: the game thread's LED calls never wait for it; it is dropped as unplugged and comes
  back once it reads again.

Run: ``python -m benchmarks crash`` (after the kills), or ``python -m tests.fault_harness``; tests/test_crash.py runs
each at a small size.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

from companion.store import FILENAME
from tests.crash_harness import ROOT, companion, lost, play, read_acks, resume_matches, write_config

DISK = "16m"  # the small disk: a store with a few games, its -wal and -shm fit; a filler file takes the rest
EXIT_NO_STORE = 74  # companion.cli's status for "the saved games cannot be opened now"
HELLO = b"HELLO doge-pad 1 5a5a0001 keypad 9\n"


def _run(config: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        companion(config, *args), cwd=ROOT, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


def _fill(directory: Path) -> Path:
    """Writes a file until the disk has no room left (ENOSPC): the disk is full as a real one is."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass
    try:
        while True:
            os.write(fd, b"\0")
    except OSError:
        return filler
    finally:
        os.close(fd)


def _broken(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if ".broken-" in p.name and p.name.endswith(".sqlite3"))


# ---------------------------------------------------------------------------------------------- a full disk


def full_disk(directory: Path) -> dict[str, int]:
    """The full-disk scenario in a private mount namespace (its tmpfs is gone when it ends)."""
    prefix = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user", "--mount"]
    result = subprocess.run(
        [*prefix, sys.executable, "-m", "tests.fault_harness", "full-disk", str(directory)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    if result.returncode != 0 or not result.stdout.strip():
        raise RuntimeError(f"the full-disk scenario could not run: {result.stderr.strip()[-2000:]}")
    counts: dict[str, int] = json.loads(result.stdout.splitlines()[-1])
    return counts


def _full_disk_inside(directory: Path, starts: int = 3) -> dict[str, int]:
    state = directory / "state"
    state.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK},mode=0700", "tmpfs", str(state)], check=True)
    config = write_config(directory, state)
    acked: dict[tuple[int, int], str] = {}
    read_acks(play(config, 11, 20, stop=signal.SIGTERM)[0], acked)  # a clean stop: no -wal or -shm is left
    counts = {"starts on a full disk": starts, "refused in one line naming the directory": 0, "blamed the hardware": 0}
    counts |= {"acknowledged while full": 0, "moved aside": 0, "listed while full": 0}
    filler = _fill(state)
    for _ in range(starts):
        result = _run(config, "run", "--hardware", "mock", "--autoplay", "5", "--acks", "--resume")
        lines = result.stderr.strip().splitlines()
        one_line = len(lines) == 1 and str(state) in lines[0] and "full" in lines[0]
        counts["refused in one line naming the directory"] += result.returncode == EXIT_NO_STORE and one_line
        counts["blamed the hardware"] += "hardware" in result.stderr
        counts["acknowledged while full"] += result.stdout.count("ack ")
    counts["moved aside"] = len(_broken(state))
    listing = _run(config, "games")
    counts["listed while full"] = int(listing.returncode == 0 and "playing" in listing.stdout)
    filler.unlink()
    game = max(acked)[0]
    had = max(number for g, number in acked if g == game)
    output, _ended = play(config, 12, had + 10)
    claims = read_acks(output, acked)
    counts["resumed once there was room"] = int(
        len(claims) == 1 and claims[0][0] == game and claims[0][1] >= had and resume_matches(claims[0], state)
    )
    # Autoplay meets a disk that fills while it plays: it stops, with one line, instead of trying forever.
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [*companion(config, "run"), "--hardware", "mock", "--autoplay", "13", "--acks", "--resume"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert process.stdout is not None
        output = os.read(process.stdout.fileno(), 65536).decode()  # it plays (its first acknowledgements)
        filler = _fill(state)
        try:
            rest, _ = process.communicate(timeout=300)
        except subprocess.TimeoutExpired:  # still trying: a failure, counted below
            process.kill()
            rest, _ = process.communicate()
        read_acks(output + rest.decode(), acked)
        errors.seek(0)
        said = errors.read().decode(errors="replace").splitlines()
    counts["autoplay stopped on the full disk"] = int(process.returncode == 1)
    counts["autoplay lines said"] = sum(1 for line in said if "autoplay stopped" in line)
    counts["stderr lines at the end"] = len(said)
    counts["acknowledged lines"] = len(acked)
    counts["lost"] = lost(acked, state)
    filler.unlink()
    return counts


# ---------------------------------------------------------------------------------------------- torn copies


def torn_copies(directory: Path, copies: int = 10, seed: int = 3) -> dict[str, int]:
    """Copies of a real store torn in the ways a copy goes wrong, each started on and listed."""
    rng = random.Random(seed)
    source = directory / "source"
    source.mkdir(parents=True)
    config = write_config(source)
    play(config, rng.randrange(1 << 30), 30)
    wal_before = Path(f"{source / FILENAME}-wal").read_bytes()
    db = sqlite3.connect(source / FILENAME)  # SQLite's own checkpoint: the pages go to the main file
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    play(config, rng.randrange(1 << 30), 20)  # the next lines: in a fresh -wal again
    main, wal = (source / FILENAME).read_bytes(), Path(f"{source / FILENAME}-wal").read_bytes()
    page = 4096
    pages = len(main) // page
    counts = {"copies": copies, "resumed": 0, "resume checks": 0, "moved aside": 0, "refused to start": 0}
    counts |= {"listing said what is wrong in one line": 0, "listed": 0, "tracebacks": 0}
    for number in range(copies):
        kind = number % 4
        cut = rng.randrange(1, max(2, pages)) * page
        hole = rng.randrange(1, max(2, pages))
        files = {
            0: {"": main[:cut]},  # the main file cut short (no -wal)
            1: {"": main[: hole * page] + bytes(page) + main[(hole + 1) * page :]},  # a page never written
            2: {"": main, "-wal": wal[: rng.randrange(32, len(wal) + 1)]},  # the -wal cut short
            3: {"": main[:cut], "-wal": wal_before},  # a -wal from another moment over a cut main file
        }[kind]
        copy = directory / f"copy{number}"
        copy.mkdir()
        for suffix, content in files.items():
            Path(f"{copy / FILENAME}{suffix}").write_bytes(content)
        copy_config = write_config(copy)
        listing = _run(copy_config, "games")
        counts["tracebacks"] += "Traceback" in listing.stderr
        if listing.returncode == 0:
            counts["listed"] += 1
        elif len(listing.stderr.strip().splitlines()) == 1:
            counts["listing said what is wrong in one line"] += 1
        errors = copy / "stderr.txt"
        output, ended = play(copy_config, rng.randrange(1 << 30), 3, hang_guard=120, errors=errors)
        counts["tracebacks"] += "Traceback" in errors.read_text(errors="replace")
        counts["refused to start"] += ended is not None and ended != 0
        counts["moved aside"] += bool(_broken(copy))
        for claim in read_acks(output, {}):
            counts["resumed"] += 1
            counts["resume checks"] += resume_matches(claim, copy)
    return counts


# ---------------------------------------------------------------------------------------------- repeated starts


def repeated_starts(directory: Path, starts: int = 3) -> dict[str, int]:
    """Damaged stores, one after another, started on as quickly as the companion starts."""
    directory.mkdir(parents=True, exist_ok=True)
    config = write_config(directory)
    contents = []
    for number in range(starts):
        for suffix in ("-wal", "-shm"):
            Path(f"{directory / FILENAME}{suffix}").unlink(missing_ok=True)
        content = f"a damaged store, number {number}. ".encode() * 100
        (directory / FILENAME).write_bytes(content)
        contents.append(content)
        play(config, number, 1, hang_guard=120)
    kept = [path.read_bytes() for path in _broken(directory)]
    seconds = {path.name.split(".broken-")[1][:15] for path in _broken(directory)}
    return {"starts": starts, "damaged files kept": sum(c in kept for c in contents), "seconds they took": len(seconds)}


# ------------------------------------------------------------------------------------- a keypad that never reads


def stuck_keypad(calls: int = 20000, hang_guard: float = 120) -> dict[str, Any]:
    """A keypad on a pseudo-terminal that says HELLO and then never reads: the game thread sets its LEDs until the
    host drops it; then the pad reads again (and answers "?" with HELLO) and must come back."""
    from hardware.events import EventQueue, PadStatus
    from hardware.serial_pads import SerialPads

    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    events = EventQueue()
    pads = SerialPads([os.ttyname(slave)], events, ["1"], retry=0.05)
    reading = threading.Event()
    stop = threading.Event()

    def pad() -> None:  # it talks (HELLO, again and again: the host flushes its input when it opens the port)
        while not stop.is_set():
            if not reading.is_set():
                os.write(master, HELLO)
                stop.wait(0.05)
                continue
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready and b"?" in os.read(master, 65536):
                os.write(master, HELLO)

    def statuses(wanted: PadStatus) -> bool:
        deadline = time.monotonic() + hang_guard
        while time.monotonic() < deadline:
            if events.get(timeout=0.05) == wanted:
                return True
        return False

    longest = 0.0
    made = 0

    def game_thread() -> None:
        nonlocal longest, made
        for number in range(calls):
            started = time.perf_counter()
            pads.led("1", "ok", "on" if number % 2 else "off")
            longest = max(longest, time.perf_counter() - started)
            made += 1
            if pads.by_source("1") is None:
                return

    threading.Thread(target=pad, daemon=True).start()
    counts: dict[str, Any] = {"connected": statuses(PadStatus("1", True))}
    game = threading.Thread(target=game_thread, daemon=True)
    game.start()
    game.join(hang_guard)
    counts["game thread blocked"] = game.is_alive()
    counts["led calls"] = made
    counts["longest led call ms"] = round(longest * 1000, 2)
    counts["dropped as unplugged"] = statuses(PadStatus("1", False))
    reading.set()
    counts["back once it reads"] = statuses(PadStatus("1", True))
    stop.set()
    if not counts["game thread blocked"]:
        pads.close()
        os.close(master)
        os.close(slave)
    return counts


# ---------------------------------------------------------------------------------------------- the report


def report() -> bool:
    """Every scenario, each figure printed; False when something was lost or stuck."""
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, scenario in (
            ("full disk", lambda: full_disk(root / "full")),
            ("torn copies", lambda: torn_copies(root / "torn")),
            ("repeated starts", lambda: repeated_starts(root / "starts")),
            ("keypad that never reads", stuck_keypad),
        ):
            started = time.monotonic()
            counts = scenario()
            print(f"{name} ({time.monotonic() - started:.1f} s)")
            for key, value in counts.items():
                print(f"  {key:<44} {value}")
            ok &= _sound(name, counts)
    print("faults: nothing lost, nothing moved but damage, nothing stuck" if ok else "faults: FAILED")
    return ok


def _sound(name: str, counts: dict[str, Any]) -> bool:
    if name == "full disk":
        starts = counts["starts on a full disk"]
        return bool(
            counts["refused in one line naming the directory"] == starts
            and counts["moved aside"] == counts["blamed the hardware"] == counts["lost"] == 0
            and counts["resumed once there was room"] == 1
            and counts["autoplay stopped on the full disk"] == 1
        )
    if name == "torn copies":
        listings = counts["listed"] + counts["listing said what is wrong in one line"]
        return bool(counts["refused to start"] == counts["tracebacks"] == 0 and listings == counts["copies"])
    if name == "repeated starts":
        return bool(counts["damaged files kept"] == counts["starts"])
    return bool(not counts["game thread blocked"] and counts["dropped as unplugged"] and counts["back once it reads"])


def main(argv: list[str]) -> int:
    if argv[:1] == ["full-disk"]:  # inside the mount namespace (see full_disk)
        print(json.dumps(_full_disk_inside(Path(argv[1]))))
        return 0
    return 0 if report() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
