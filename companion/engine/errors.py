"""One exception root for everything a record or a decision can get wrong.

Messages are written for players ("blue has no 3-marker left"), and carry the rule they enforce so that a screen, a
replay error or a bug report can point at rules.md.
"""

from __future__ import annotations

from ..i18n import _


class RecordError(ValueError):
    """A record line, or a decision, that cannot be accepted. The state it was offered to is unchanged."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        super().__init__(_("{message} (rule {rule})").format(message=message, rule=rule) if rule else message)


class MalformedLineError(RecordError):
    """The line is not a well-formed record line (record-format.md 1): bad JSON, a wrong key or type, an unknown id."""


class IllegalDecisionError(RecordError):
    """The line is well formed but the rules do not allow it now (rules.md)."""
