import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings


def _temporary_files_in_memory() -> None:
    """Test games commit every line with fsync (synchronous=FULL, as on the device); on a RAM disk that costs
    nothing. No test measures the disk, so every verdict stays the same and the suite runs minutes faster.
    A TMPDIR of your own is respected."""
    shm = Path("/dev/shm")
    if "TMPDIR" not in os.environ and shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = str(shm)
        tempfile.tempdir = None


_temporary_files_in_memory()

# A developer's Pi may have a card file at /boot/firmware/doge-companion.toml (docs/card-file.md): it would be a layer
# over every config a test loads, and over every companion a test starts. Tests that want one name it themselves.
os.environ.setdefault("DOGE_CARD_FILE", "")
os.environ.setdefault("DOGE_HOTSPOT_FILE", "")  # nor the word of a Pi's own network, which changes setup's screen


def _catalogs_compiled() -> None:
    """The checkout's .mo files from its .po sources, as a build makes them (they are not committed)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "build_support"))
    from catalogs import compile_catalogs

    compile_catalogs(Path(__file__).resolve().parents[1] / "companion")


_catalogs_compiled()

# The same examples on every machine and every run, in CI and on a laptop alike: `python3 dev.py test` gives one
# verdict, whoever runs it (tests/test_dev_test_command.py). Random exploration is a run of its own, `python3 dev.py
# test --explore N` (DOGE_HYPOTHESIS=explore): new examples each round, and a failure it finds is kept in .hypothesis/
# and tried first by every later exploring round until it passes. No per-example deadline: shared machines are slow.
settings.register_profile(
    "fixed", derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("explore", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("DOGE_HYPOTHESIS", "fixed"))


@pytest.fixture(autouse=True)
def own_state_directory(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own game store (a stored unfinished game would otherwise be resumed by the next test)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests read English unless they choose otherwise: the language is process-wide, and the locale of whoever runs
    the tests must not change what command-line messages say."""
    from companion.i18n import set_language

    monkeypatch.setenv("LANGUAGE", "en")
    set_language("en")
    yield
    set_language("en")
