"""Only for the compiled rules engine (build_support/backend.py); all metadata lives in pyproject.toml."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_support"))
from backend import COMPILED, compiling

# A wheel is built from a clean build/: setuptools copies into build/lib without removing what an earlier build left
# there, so a compiled module of the last build (or one no longer compiled) would otherwise ship in the next wheel
# and shadow its source.
if "bdist_wheel" in sys.argv:
    shutil.rmtree(Path(__file__).resolve().parent / "build", ignore_errors=True)

# setuptools also runs this file to learn the build's requirements, before mypy is installed: compile only for the
# wheel itself, and never for an editable install (its extensions would shadow the checkout's changing source).
if compiling() and "bdist_wheel" in sys.argv:
    if importlib.util.find_spec("mypyc") is None:
        sys.exit("DOGE_COMPILE_ENGINE=1 needs mypy (for mypyc) in the build environment")
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(list(COMPILED), opt_level="3"))
else:
    setup()
