"""The build backend: setuptools, plus mypy when ``DOGE_COMPILE_ENGINE=1`` asks for the compiled rules engine.

The rules engine is plain Python and stays so; mypyc can compile the same source into C extensions, which on a
Raspberry Pi makes replays, computer players and checks about twice as fast or more (``python3 dev.py bench
compare``). Compiling needs mypy (for mypyc) and a C compiler, so it is asked for, not assumed: ``install.sh`` sets
the variable, and everything else (the editable install of development, CI, a plain ``pip install``) builds the pure
package. Only wheels compile: an editable install would leave extension files in the checkout that go on shadowing
the source after it changes.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every other hook is setuptools' own

MYPY = "mypy>=1.10"
# The engine modules mypyc compiles: the hot paths, the rules (every line, every imagined move of a computer player)
# and reading record lines (benchmarks/engine_compare.py compiles the same ones). Not the modules of values
# (tasks.py, lines.py, decisions.py, changes.py): mypyc builds a class-based NamedTuple through typing's machinery,
# 0.34 ms a class at every start of the compiled install (tests/engine/test_compiled_modules.py).
COMPILED_ENGINE = (
    "state",
    "awaiting",
    "chance",
    "choices",
    "ballots",
    "elections",
    "building",
    "year_end",
    "record",
    "parse",
    "line_shapes",
)
# The hard player's search (its rollouts' rule of thumb, the worth of areas) compiled too: 1.6 times the work in the
# same time, so a Pi's hard player thinks as far as its budget allows (companion/bots/calibration.py).
COMPILED = (*(f"companion/engine/{name}.py" for name in COMPILED_ENGINE), "companion/bots/players.py")


def compiling() -> bool:
    return os.environ.get("DOGE_COMPILE_ENGINE") == "1"


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    extra = [MYPY] if compiling() else []
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]
