"""``python -m companion``: the ``doge-companion`` command, for a venv without the console script on PATH."""

from .cli.command import entry_point

entry_point()
