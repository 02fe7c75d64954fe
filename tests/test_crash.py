"""The crash harness (tests/crash_harness.py; 200 kills with `python3 dev.py bench crash`), a shorter run here."""

from __future__ import annotations

from pathlib import Path

from tests.crash_harness import harness
from tests.fault_harness import full_disk, repeated_starts, stuck_keypad, torn_copies


def test_killed_at_random_moments_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    counts = harness(12, tmp_path, seed=5)
    assert counts["kills"] == 12
    assert counts["acknowledged lines"] > 100
    assert counts["lost"] == 0
    assert counts["resumes"] >= 5 and counts["resume checks"] == counts["resumes"]


# The fault harness (tests/fault_harness.py), each scenario at a small size.


def test_a_full_disk_at_start_moves_nothing_says_so_in_one_line_and_the_game_goes_on_once_there_is_room(
    tmp_path: Path,
) -> None:
    """A real full disk (a small tmpfs in a private mount namespace): SQLite's "disk I/O error" from the -shm."""
    counts = full_disk(tmp_path)
    assert counts["refused in one line naming the directory"] == counts["starts on a full disk"] == 3
    assert counts["moved aside"] == 0 and counts["blamed the hardware"] == 0
    assert counts["acknowledged while full"] == 0
    assert counts["listed while full"] == 1, "`games` still lists the saved game"
    assert counts["resumed once there was room"] == 1, "the same game, at the same line, as its replay"
    assert counts["autoplay stopped on the full disk"] == 1 and counts["autoplay lines said"] == 1
    assert counts["stderr lines at the end"] < 10, "no line for every try"
    assert counts["acknowledged lines"] > 20 and counts["lost"] == 0


def test_torn_copies_of_the_store_resume_or_are_moved_aside_never_stopping_the_companion(tmp_path: Path) -> None:
    counts = torn_copies(tmp_path, copies=8)
    assert counts["refused to start"] == 0 and counts["tracebacks"] == 0
    assert counts["moved aside"] >= 2, "some copies are damaged beyond their header"
    assert counts["resumed"] >= 2 and counts["resume checks"] == counts["resumed"]
    assert counts["moved aside"] + counts["resumed"] == counts["copies"]
    assert counts["listed"] + counts["listing said what is wrong in one line"] == counts["copies"]


def test_repeated_starts_on_damaged_stores_keep_every_damaged_file(tmp_path: Path) -> None:
    counts = repeated_starts(tmp_path, starts=3)
    assert counts["damaged files kept"] == 3


def test_a_keypad_that_never_reads_is_dropped_and_never_blocks_the_game_thread() -> None:
    counts = stuck_keypad(calls=20000)
    assert counts["connected"] and not counts["game thread blocked"]
    assert counts["dropped as unplugged"] and counts["back once it reads"]
