"""Persistence: the games in SQLite (games.py, its queries reading.py; which phone holds which seat: phones.py),
their files (files.py), the lock that keeps one companion per state directory (lock.py), and a stored game's public
record for export (export.py).

Below the App and the command line, beside the game flow: it may import the engine and the catalogs, nothing else of
the companion. Nothing here knows what a screen or a pad is.
"""

from .damage import DAMAGED
from .files import default_directory, private_directory, simulator_directory
from .games import FILENAME, Store, now
from .reading import DamagedGame, GameInfo, StoreError, StoreUnavailable
from .schema import APPLICATION_ID, SCHEMA_VERSION

__all__ = [
    "APPLICATION_ID",
    "DAMAGED",
    "FILENAME",
    "SCHEMA_VERSION",
    "DamagedGame",
    "GameInfo",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "default_directory",
    "now",
    "private_directory",
    "simulator_directory",
]
