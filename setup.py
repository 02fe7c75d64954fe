"""Two build steps pyproject.toml cannot say: the catalogs compiled into the package, and the compiled rules engine
(build_support/backend.py). All metadata lives in pyproject.toml."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_support"))
from backend import COMPILED, compiling
from catalogs import compile_catalogs


class BuildWithCatalogs(build_py):
    """build_py, then the .mo files next to the copied package, where the standard gettext module finds them."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install reads the checkout's, which dev.py compiles
            compile_catalogs(Path(self.build_lib) / "companion")


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

    setup(ext_modules=mypycify(list(COMPILED), opt_level="3"), cmdclass={"build_py": BuildWithCatalogs})
else:
    setup(cmdclass={"build_py": BuildWithCatalogs})
