"""Logging for the long-running commands, with journald priorities when stderr is the journal.

systemd reads a ``<N>`` prefix on each line written to the journal as that line's syslog priority
(``SyslogLevelPrefix=yes``, the default): without it every warning and error is stored as "info" and
``journalctl -p warning`` shows nothing. The prefix is added only when ``$JOURNAL_STREAM`` names the very stream
stderr is (as systemd(1) documents), so a terminal or a pipe never sees it.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

FORMAT = "%(levelname)s %(name)s: %(message)s"
# Python's levels -> syslog priorities (sd-daemon(3)): 2 crit, 3 err, 4 warning, 6 info, 7 debug.
PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


def priority(level: int) -> int:
    return next((value for threshold, value in PRIORITIES if level >= threshold), 7)


def to_journal(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """True when ``stream`` is the journal stream systemd connected (``JOURNAL_STREAM=DEVICE:INODE``)."""
    wanted = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return wanted == f"{status.st_dev}:{status.st_ino}"


class JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def setup(stream: TextIO | None = None) -> None:
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JournalFormatter(FORMAT) if to_journal(stream) else logging.Formatter(FORMAT))
    logging.basicConfig(level=logging.INFO, handlers=[handler])


def error_line(text: str, stream: TextIO | None = None) -> str:
    """A message printed directly (not through logging) that is an error: ``<3>`` in the journal."""
    return f"<3>{text}" if to_journal(stream or sys.stderr) else text
