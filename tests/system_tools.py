"""The system tools some tests need beside Python and PyPI (requirements/system.txt), found or accounted for.

Without its tool a test is skipped, naming the tool and the command that installs it (`python3 dev.py test` says
the same in its first line), so the README's test command passes on a fresh machine; in CI, which installs them
(.ci/run), a missing tool fails the test instead: nothing CI is meant to run may be skipped there quietly.
"""

from __future__ import annotations

import os
import shutil

import pytest

import dev


def need_tool(command: str) -> str:
    """The path of COMMAND (a tool requirements/system.txt lists), else skip the test (in CI: fail it)."""
    ((_command, package, _file),) = [row for row in dev.system_tools() if row[0] == command]
    found = shutil.which(command)
    if found is None:
        problem = f"{command} is not installed (install with: {dev.install_line([package])})"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run this test: {problem}; .ci/run installs it")
        pytest.skip(problem)
    return found
