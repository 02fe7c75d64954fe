"""``bench pi`` counts every sync a press makes in SQLite's own VFS calls (it once assumed one per record line,
and strace showed 283 more, the screen state's own commits). Run in a child process: the counting VFS becomes the
default one of the process that installs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, os, sqlite3, sys, tempfile
from benchmarks import syncs

problem = syncs.install()
folder = tempfile.mkdtemp()
db = sqlite3.connect(os.path.join(folder, "games.db"))
db.execute("PRAGMA journal_mode = WAL")
db.execute(f"PRAGMA synchronous = {sys.argv[1]}")
db.execute("CREATE TABLE lines (text TEXT)")
db.commit()
found = {}
for name, commits in (("three commits", 3), ("one commit", 1)):
    syncs.COUNTER.reset()
    for _ in range(commits):
        db.execute("INSERT INTO lines VALUES (?)", ("x" * 5000,))
        db.commit()
    found[name] = syncs.COUNTER.syncs
syncs.COUNTER.reset()
with open(os.path.join(folder, "other"), "wb") as other:
    os.fsync(other.fileno())
found["os.fsync"] = syncs.COUNTER.syncs
syncs.COUNTER.reset()
with open(os.path.join(folder, "journal"), "ab") as journal:
    for size in (100, 5000):  # a press's entry, then one over a block
        journal.write(b"x" * size)
        journal.flush()
        os.fdatasync(journal.fileno())
found["os.fdatasync"] = syncs.COUNTER.syncs
syncs.COUNTER.reset()
fd = os.open(os.path.join(folder, "zeroed"), os.O_RDWR | os.O_CREAT)
os.pwrite(fd, bytes(65536), 0)
os.fsync(fd)
for offset, size in ((0, 100), (4000, 200)):  # over zeros synced ahead: an entry's block, then one across two
    os.pwrite(fd, b"x" * size, offset)
    os.fdatasync(fd)
os.close(fd)
found["over zeros"] = syncs.COUNTER.syncs
print(json.dumps({"problem": problem, "found": found}))
"""


def counted(synchronous: str) -> dict[str, list[list[object]]]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, synchronous], cwd=ROOT, capture_output=True, text=True, check=True
    )
    answer = json.loads(result.stdout)
    assert answer["problem"] is None
    found: dict[str, list[list[object]]] = answer["found"]
    return found


def test_every_commit_in_full_mode_is_a_sync_of_the_log_with_the_blocks_it_wrote() -> None:
    found = counted("FULL")
    assert [kind for kind, _blocks in found["three commits"]] == ["wal", "wal", "wal"]
    # a 5,000-byte row takes an overflow page: two WAL frames of 4,120 bytes, three blocks, and the log grew
    assert all(blocks >= 3 for _kind, blocks in found["three commits"])
    assert [kind for kind, _blocks in found["one commit"]] == ["wal"]
    assert found["os.fsync"] == [["file", 1]]
    # the journal's appends: the first sync of a descriptor is its last block; 5,000 more bytes touch two blocks, and
    # the file grew, so ext4's journal writes its three
    assert found["os.fdatasync"] == [["journal", 1], ["journal", 2 + 3]]
    # written over blocks already written and synced: the file's size is unchanged, ext4 has no metadata to commit
    assert found["over zeros"] == [["file", 1], ["journal", 1], ["journal", 2]]


def test_commits_that_do_not_sync_are_not_counted() -> None:
    assert counted("OFF")["three commits"] == []
