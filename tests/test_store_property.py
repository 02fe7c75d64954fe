"""The store as a state machine (hypothesis): random presses, undos, changes of status, idle moments, clean stops,
kills (the files copied while a press is being written, SQLite's unsynced commits lost), windows where one copy
cannot be written, and damage to one copy or both at a random entry or byte (a flipped bit, a zeroed block, a stale
block written again, a cut at any byte, a lost file) before the next start.

The invariant, at every start: each acknowledged line and undo is in the state it resumes, unless that very entry
reads in neither copy; then, when a later entry shows it was there, the loss is said, naming the game. An entry lost
in both copies after every entry that still reads leaves no trace in either (nothing could say it), and the state
is then that of the entries before it.

Beside it, the previous rule ("while every journal entry reads, the journal; once one does not, the longer
history"), kept here as an oracle only, is run on the same files: which of the ways it lost acknowledged lines
(docs/architecture.md, "Which copy is the truth": 1 a window without the journal, 2 a journal that lost its tail,
3 an undo come undone, 4 both copies damaged) the sequences find, printed with how many sequences and steps ran.
Fixed examples in CI (conftest.py's profile); ``DOGE_STORE_EXAMPLES`` runs more.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.store import FILENAME, Store, StoreError
from companion.store import reconcile as reconcile_module
from companion.store.journal import NAME as JOURNAL
from companion.store.legacy import History, _good

FILES = (FILENAME, f"{FILENAME}-wal", JOURNAL)
HEADER = json.dumps({"doge": 1, "players": ["red", "blue", "green"]})
EXAMPLES = int(os.environ.get("DOGE_STORE_EXAMPLES", "400"))  # some 9,000 steps, under 20 s here
FOUND: Counter[str] = Counter()  # what the oracle found, and how much ran


def replay(events: dict[int, tuple[int, str, Any]], leave: set[int] = frozenset()) -> dict[int, list[str]]:  # type: ignore[assignment]
    """Each game's lines after EVENTS (order number -> (game, kind, what)) in order, those in LEAVE left out."""
    games: dict[int, list[str]] = {}
    for order in sorted(events):
        game, kind, what = events[order]
        lines = games.setdefault(game, [])
        if order in leave:
            continue
        if kind == "line":
            number, text = what
            del lines[number - 1 :]
            lines.append(text)
        elif kind == "undo":
            del lines[what:]
    return games


def copy_files(source: Path, target: Path) -> None:
    target.mkdir()
    for name in FILES:
        if (source / name).exists():
            shutil.copy(source / name, target / name)


def readable(folder: Path) -> tuple[set[int], set[int], bool]:
    """The order numbers that read in SQLite and in the journal, as the store's own readers see them, and whether
    SQLite's copy opens at all."""
    from companion.store import files
    from companion.store.journal import read
    from companion.store.reconcile import behind, sqlite_entries
    from companion.store.schema import check_ours

    copy = read(folder / JOURNAL)
    sqlite: set[int] = set()
    since = None
    opens = False
    if (folder / FILENAME).exists():
        with tempfile.TemporaryDirectory() as spare:
            for name in (FILENAME, f"{FILENAME}-wal"):
                if (folder / name).exists():
                    shutil.copy(folder / name, Path(spare) / name)
            try:
                if files.cut_to_nothing(Path(spare) / FILENAME):
                    raise sqlite3.DatabaseError("moved aside by the store")
                db = sqlite3.connect(Path(spare) / FILENAME)
                db.text_factory = files.text  # as the store reads it: a flipped bit in a text is one bad entry
                try:
                    check_ours(db)
                    sqlite = set(sqlite_entries(db))
                    since = behind(db)
                    opens = True
                finally:
                    db.close()
            except Exception:  # WrongStore, sqlite3.Error: moved aside by the store, nothing of it reads
                sqlite = set()
    journal = set() if copy is None else {o for o in copy.entries if since is None or o < since}
    return sqlite, journal, opens


def old_rule(folder: Path) -> dict[int, list[str]]:
    """What the previous version resumed from these files: SQLite's lines table, the journal read as it read it."""
    mine: dict[int, list[str]] = {}
    if (folder / FILENAME).exists():
        with tempfile.TemporaryDirectory() as spare:
            for name in (FILENAME, f"{FILENAME}-wal"):
                if (folder / name).exists():
                    shutil.copy(folder / name, Path(spare) / name)
            try:
                db = sqlite3.connect(Path(spare) / FILENAME)
                try:
                    if db.execute("PRAGMA integrity_check(1)").fetchone()[0] == "ok":
                        from companion.store.legacy import sqlite_lines

                        mine = sqlite_lines(db)
                finally:
                    db.close()
            except sqlite3.Error:
                mine = {}
    history = None
    if (folder / JOURNAL).exists():
        data = (folder / JOURNAL).read_bytes().rstrip(b"\0")
        history = History()
        for number, raw in enumerate(data.split(b"\n"), 1):
            if raw and not _good(raw, history):
                history.damage = history.damage or f"entry {number}"
        if data and not data.endswith(b"\n"):
            history.damage = history.damage or "cut short"
    found = {}
    for game in set(mine) | set(history.lines if history else {}):
        ours, theirs = mine.get(game, []), history.lines.get(game, []) if history else []
        wins = bool(theirs) and (len(theirs) > len(ours) if history and history.damage is not None else True)
        found[game] = theirs if wins else ours
    return found


DAMAGE = st.lists(
    st.tuples(
        st.sampled_from(FILES),
        st.sampled_from(["flip", "zero", "stale", "cut", "cut at an entry", "lose"]),
        st.floats(0, 1),
        st.integers(0, 7),
    ),
    max_size=2,
)


class StoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="doge-store-machine-"))
        self.folders = 0
        self.folder = self.next_folder()
        self.events: dict[int, tuple[int, str, Any]] = {}  # every acknowledged one
        self.maybe: dict[int, tuple[int, str, Any]] = {}  # written when a kill came: acknowledged or not
        self.game: int | None = None
        self.store: Store | None = None
        self.snapshots: list[dict[str, bytes]] = []  # SQLite's files after each commit since the last checkpoint
        self.alone = False  # this run's journal could not be written
        self.old_journal: bytes | None = None
        self.aside: set[int] = set()  # games the store set aside for an entry lost in both copies
        self.damage: list[str] = []
        self.undone = False
        self.steps = 0
        self.patch = pytest.MonkeyPatch()

    def next_folder(self) -> Path:
        self.folders += 1
        return self.root / f"state{self.folders}"

    @initialize()
    def start(self) -> None:
        FOUND["sequences"] += 1
        self.open()

    def open(self, journal_refused: bool = False) -> None:
        if journal_refused:
            self.patch.setattr(reconcile_module, "Journal", refused)
        try:
            self.store = Store(self.folder)
        finally:
            self.patch.undo()
        self.alone = journal_refused
        self.snapshots = [self.sqlite_files()]
        journal = self.folder / JOURNAL
        self.old_journal = journal.read_bytes() if journal.exists() else None  # for a stale block written again
        self.game = self.store.unfinished()

    def sqlite_files(self) -> dict[str, bytes]:
        return {n: (self.folder / n).read_bytes() for n in FILES[:2] if (self.folder / n).exists()}

    def teardown(self) -> None:
        if self.store is not None:
            self.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    # ------------------------------------------------------------------ what the table does

    def acknowledged(self, before: int, game: int, kinds: list[tuple[str, Any]]) -> None:
        assert self.store is not None
        assert self.store._next == before + len(kinds), "one order number an entry"
        for i, (kind, what) in enumerate(kinds):
            self.events[before + i] = (game, kind, what)
        self.snapshots.append(self.sqlite_files())
        self.steps += 1

    @rule(count=st.integers(1, 3))
    def press(self, count: int) -> None:
        assert self.store is not None
        before = self.store._next
        if self.game is None:
            self.game = self.store.new_game(HEADER)
            self.acknowledged(before, self.game, [("line", (1, HEADER))])
            return
        length = len(replay(self.events).get(self.game, []))
        lines = [json.dumps({"press": before + i}) for i in range(count)]
        try:
            self.store.append(self.game, length + 1, lines, {"year": 1})
        except StoreError:  # a store SQLite opens but cannot write (a flipped bit in its schema): never acknowledged
            FOUND["presses refused"] += 1
            return
        self.acknowledged(before, self.game, [("line", (length + 1 + i, t)) for i, t in enumerate(lines)])

    @precondition(lambda self: self.game is not None)
    @rule(keep=st.integers(1, 8))
    def undo(self, keep: int) -> None:
        assert self.store is not None and self.game is not None
        length = len(replay(self.events).get(self.game, []))
        keep = min(keep, length)
        before = self.store._next
        self.store.truncate(self.game, keep, {"year": 1})
        self.acknowledged(before, self.game, [("undo", keep)])
        self.undone = True

    @precondition(lambda self: self.game is not None)
    @rule(status=st.sampled_from(["over", "abandoned"]))
    def status(self, status: str) -> None:
        assert self.store is not None and self.game is not None
        before = self.store._next
        self.store.abandon(self.game, status)
        self.acknowledged(before, self.game, [("status", status)])
        self.game = None

    @precondition(lambda self: self.game is not None)
    @rule(where=st.sampled_from(["journal", "sqlite"]))
    def refused(self, where: str) -> None:
        """A press one copy could not take: refused, so never acknowledged, and never brought back."""
        assert self.store is not None and self.game is not None
        before = self.store._next
        length = len(replay(self.events).get(self.game, []))
        if where == "journal" and self.store._journal is not None:
            self.patch.setattr(self.store._journal, "write", failing)
        else:
            pages = self.store._db.execute("PRAGMA page_count").fetchone()[0]
            self.store._db.execute(f"PRAGMA max_page_count = {pages}")
        try:
            for _ in range(40):  # a press of the same lines until one needs a page SQLite may not add
                self.store.append(self.game, length + 1, [json.dumps({"refused": before, "pad": "x" * 900})])
                self.acknowledged(
                    before, self.game, [("line", (length + 1, json.dumps({"refused": before, "pad": "x" * 900})))]
                )
                before, length = self.store._next, length + 1
        except StoreError:
            pass
        finally:
            self.patch.undo()
            self.store._db.execute("PRAGMA max_page_count = 1073741823")
        assert self.store._next == before

    @rule()
    def idle(self) -> None:
        assert self.store is not None
        self.store.idle()
        self.snapshots = [self.sqlite_files()]

    # ------------------------------------------------------------------ stops, kills and damage, then a start

    @rule(refuse=st.booleans(), damage=DAMAGE)
    def clean_stop(self, refuse: bool, damage: list[tuple[str, str, float, int]]) -> None:
        """A stop, then DAMAGE to the files as they were left (a checkpointed SQLite, no -wal)."""
        assert self.store is not None
        self.store.close()
        self.damage = [self.damaged(*d, self.old_journal) for d in damage]
        FOUND["damaged copies"] += len(self.damage)
        self.restart(refuse)

    @precondition(lambda self: self.game is not None)
    @rule(
        lost=st.integers(0, 50),
        mid_write=st.booleans(),
        tear=st.integers(0, 200),
        damage=DAMAGE,
        refuse=st.booleans(),
    )
    def kill(
        self, lost: int, mid_write: bool, tear: int, damage: list[tuple[str, str, float, int]], refuse: bool
    ) -> None:
        """The power cut: the journal as it is (or mid-write: a press's entries written, SQLite not committed, the
        last entry torn at a byte), SQLite's files as of a commit since the last checkpoint; then DAMAGE."""
        assert self.store is not None and self.game is not None
        target = self.next_folder()
        if mid_write and self.store._journal is not None:
            length = len(replay(self.events).get(self.game, []))
            text = json.dumps({"in flight": self.store._next})
            real = self.store._journal.write

            whole: list[bool] = []

            def write_then_kill(data: bytes) -> int:
                start = real(data)
                whole.append(tear >= len(data) - 1)  # all but its newline: it reads
                copy_files(self.folder, target)
                with (target / JOURNAL).open("r+b") as journal:  # the write torn at a byte: zeros from there
                    cut = start + min(tear, len(data))
                    journal.seek(cut)
                    journal.write(bytes(len(data) - (cut - start)))
                raise OSError(errno.EIO, "killed")

            self.patch.setattr(self.store._journal, "write", write_then_kill)
            before = self.store._next
            try:
                self.store.append(self.game, length + 1, [text])
            except StoreError:
                pass
            finally:
                self.patch.undo()
            if whole and whole[0]:
                self.maybe[before] = (self.game, "line", (length + 1, text))
        else:
            copy_files(self.folder, target)
        # alone, SQLite commits with a sync of its own (synchronous=FULL): a power cut loses none of them
        chosen = -1 if self.alone else max(0, len(self.snapshots) - 1 - lost)
        sqlite = self.snapshots[chosen]
        FOUND["kills"] += 1
        for name in FILES[:2]:
            (target / name).unlink(missing_ok=True)
            if name in sqlite:
                (target / name).write_bytes(sqlite[name])
        self.store.close()
        self.folder = target
        self.damage = [self.damaged(*d, self.old_journal) for d in damage]
        if self.snapshots[chosen] is not self.snapshots[-1]:
            self.damage.append(f"lost commits {FILENAME}")
        FOUND["damaged copies"] += len(self.damage)
        self.restart(refuse)

    def damaged(self, name: str, kind: str, where: float, bit: int, old: bytes | None) -> str:
        path = self.folder / name
        if not path.exists():
            return f"{kind} {name} (none)"
        data = bytearray(path.read_bytes())
        end = len(data.rstrip(b"\0")) if name == JOURNAL else len(data)
        spot = min(int(where * end), max(end - 1, 0))
        if kind == "lose":
            path.unlink()
        elif kind == "cut":
            del data[spot:]
        elif kind == "cut at an entry" and name == JOURNAL:  # where an entry ends: the rest reads cleanly
            ends = [i + 1 for i, byte in enumerate(data[:end]) if byte == 0x0A]
            del data[ends[min(int(where * len(ends)), len(ends) - 1)] if ends else 0 :]
        elif kind == "flip" and data:
            data[spot] ^= 1 << bit
        elif kind == "zero":
            block = spot // 512 * 512
            data[block : block + 512] = bytes(len(data[block : block + 512]))
        elif kind == "stale" and (old is None or name != JOURNAL):
            return "none"  # a stale block is the journal's: its blocks are written in place
        elif kind == "stale" and old is not None:
            block = spot // 512 * 512
            data[block : block + 512] = old[block : block + 512].ljust(len(data[block : block + 512]), b"\0")
        if path.exists():
            path.write_bytes(bytes(data))
        return f"{kind} {name}"

    def restart(self, refuse: bool) -> None:
        """The next start: the invariant, and what the previous rule would have resumed from the same files."""
        sqlite, journal, _opens = readable(self.folder)
        union = sqlite | journal
        lost = {o for o in self.events if o not in union}
        last = max(union, default=0)
        seen = {o for o in lost if o < last}  # a later entry reads: the store knows this one was there
        unseen = lost - seen
        expected = replay(self.events, lost)
        maybe = replay({**self.events, **self.maybe}, lost)
        self.check_old_rule(expected, maybe)
        self.open(refuse)
        assert self.store is not None
        said = self.store.problem or ""
        owners = {self.events[o][0] for o in seen}
        full = replay(self.events)
        full_maybe = replay({**self.events, **self.maybe})
        short = set()
        for game, lines in expected.items():
            stored_raw = self.raw_lines(game)
            if stored_raw in (full.get(game), full_maybe.get(game)):
                continue  # every acknowledged line and undo of it (an entry lost in both that mattered no more)
            if game in owners or game in self.aside:
                assert stored_raw == lines[: len(stored_raw)], "what it kept of a game that lost an entry is its start"
                short.add(game)
                continue
            if not lines and game in {self.events[o][0] for o in lost}:
                continue
            assert stored_raw in (lines, maybe.get(game, lines)), (game, len(stored_raw), len(lines), self.damage, said)
        if short & owners:
            assert "lost" in said or all(g.status == "damaged" for g in self.store.games() if g.id in short), said
        FOUND["lost in both, said"] += bool(seen)
        FOUND["lost in both, after every entry (no trace)"] += bool(unseen and not seen)
        # the model goes on from what the store resumed: a trace-less loss is gone for good
        for o in lost:
            del self.events[o]
        for order, event in self.maybe.items():
            if event[1] == "line" and self.raw_lines(event[0])[event[2][0] - 1 : event[2][0]] == [event[2][1]]:
                self.events[order] = event
        self.maybe = {}
        self.aside |= short & owners
        self.game = self.store.unfinished()
        if self.game is not None:
            got = self.raw_lines(self.game)
            model = replay(self.events).get(self.game, [])
            if got != model:  # a trace-less loss, or a game set aside whose last entries went too: the store's
                assert unseen or self.game in self.aside, (got, model)
                self.aside.add(self.game)
                self.game = None  # the model goes on with a new game

    def raw_lines(self, game: int) -> list[str]:
        assert self.store is not None
        rows = self.store._db.execute("SELECT text FROM lines WHERE game = ? ORDER BY seq", (game,)).fetchall()
        return [row[0] for row in rows]

    def check_old_rule(self, expected: dict[int, list[str]], maybe: dict[int, list[str]]) -> None:
        """Which of the previous rule's ways to lose acknowledged lines these files show (docs/architecture.md)."""
        old = old_rule(self.folder)
        journal = any(d.endswith(JOURNAL) for d in self.damage)
        sqlite = any(d.endswith((FILENAME, "-wal")) for d in self.damage)
        for game, lines in expected.items():
            theirs = old.get(game, [])
            if theirs in (lines, maybe.get(game, lines)):
                continue
            if self.undone and len(theirs) > len(lines):
                FOUND["old rule: 3 an undo come undone"] += 1
            elif self.alone:
                FOUND["old rule: 1 lines of a window without the journal deleted"] += 1
            elif journal and sqlite:
                FOUND["old rule: 4 both damaged, lines whole in one copy lost"] += 1
            elif journal:
                FOUND["old rule: 2 a journal that lost its tail won"] += 1
            else:
                FOUND["old rule: another loss"] += 1

    @invariant()
    def counted(self) -> None:
        FOUND["steps"] += 1


def refused(*_args: Any, **_kwargs: Any) -> None:
    raise PermissionError(errno.EPERM, "Operation not permitted")


def failing(_data: bytes) -> int:
    raise OSError(errno.EIO, "Input/output error")


StoreMachine.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=25)
TestStore = pytest.mark.hypothesis(StoreMachine.TestCase)


def teardown_module() -> None:
    print(f"store state machine: {dict(FOUND)}")  # the figures for the change's note (pytest -s shows them)
