"""``python -m companion.cli``: the ``doge-companion`` command, for a checkout without the console script."""

from .command import entry_point

entry_point()
