"""docs/engine.md's examples are run, so the page shows the engine as it is."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_page_examples_run() -> None:
    here = os.getcwd()
    os.chdir(ROOT)  # the examples open tests/records/ by relative path, as a reader at the checkout would
    try:
        result = doctest.testfile(str(ROOT / "docs" / "engine.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    finally:
        os.chdir(here)
    assert result.attempted >= 20
    assert result.failed == 0
