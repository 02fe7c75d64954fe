"""Where every user-facing text goes through, so catalogs (de, it) can be added without touching call sites.

Today English only: ``_`` and ``ngettext`` return the English text.
"""

from __future__ import annotations


def _(text: str) -> str:
    return text


def ngettext(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural
