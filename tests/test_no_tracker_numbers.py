"""No file of the repository cites this project's tracker by number: a reader of the code, the docs or a test has
the repository, not the tracker, so a comment says the reason, the rule (docs/rules.md N.N), the doc section
(docs/x.md "Section") or the test that holds it instead.

The rule, as :func:`citations` applies it to every text file the repository holds:
- flagged: the word "issue" or "issues" (any case) followed by a number, with at most spaces, "#", "_" or "-"
  between them (so a test named after a tracker entry is flagged as well), and a bare "#" with a number after a
  space or an opening bracket (the other way of writing a tracker entry);
- allowed: either form right after another project's name as owner/name ("raspberrypi/linux" and then "#" with
  its number): that points at a tracker everyone can read, and names whose it is. A link to another project's
  tracker ("https://github.com/owner/name/issues/N") is allowed too: the slash before the number is not one of the
  separators above;
- not read: binary files (fonts, pictures, sounds), and for the bare "#" form stylesheets, pages and scripts of the
  web pads, where "#445" is a colour or a selector.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB_FILES = (".css", ".html", ".js")
SEPARATORS = r"[ \t_#-]*"
WORD = re.compile(rf"(?<![a-z])issues?{SEPARATORS}\d+", re.IGNORECASE)
HASH = re.compile(r"(?:(?<=\s)|(?<=[(\[]))#\d+\b(?![0-9a-fA-F])")
OTHER_PROJECT = re.compile(r"[\w.-]+/[\w.-]+(?:'s)?\s+$")


def repository_files() -> list[str]:
    """The files git tracks, or, where there is no git (an unpacked sdist), every file below the root outside hidden
    folders, caches and the virtual environment."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        return [name for name in listed.stdout.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if not name.startswith(".") and name != "__pycache__"]
        folders[:] = [name for name in folders if not name.endswith(".egg-info")]
        found += [Path(folder, name).relative_to(ROOT).as_posix() for name in files]
    return found


def citations(name: str, text: str) -> list[str]:
    """Each place of TEXT (the file NAME) that cites a tracker entry by number, as ``name:line: the line``."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        matches = list(WORD.finditer(line))
        if not name.endswith(WEB_FILES):
            matches += HASH.finditer(line)
        if any(not OTHER_PROJECT.search(line[: match.start()]) for match in matches):
            found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_file_cites_a_tracker_entry_by_number() -> None:
    found = []
    for name in repository_files():
        if not (ROOT / name).is_file():
            continue
        data = (ROOT / name).read_bytes()
        if b"\0" in data:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        found += citations(name, text)
    assert not found, "give the reason, rule, doc section or test instead:\n" + "\n".join(found)


def test_the_rule_flags_tracker_numbers_and_lets_other_projects_be_named() -> None:
    """Guard: the forms above are caught, and legitimate text is not."""
    entry = "iss" + "ue"  # spelled apart so this file passes its own test
    flagged = [
        f"a reason ({entry} 43)",
        f"{entry.title()} 27: it pressed ok for ever",
        f"({entry}s 15 and 25)",
        f"def test_the_footer_of_{entry}_17() -> None:",
        f"{entry} " + "#5",
        "fixed in (" + "#56)",
        "see #" + "12 for why",
    ]
    allowed = [
        "raspberrypi/linux #3381: a Pi 3's clock",
        f"aio-libs/aiohttp {entry} 1234",
        f"https://github.com/doge-companion/doge-companion/{entry}s/12",
        f"/etc/rpi-{entry} is there",
        "[Joining](#joining)",
        "# 1,000 pages of -wal",
    ]
    for line in flagged:
        assert citations("x.py", line), line
    for line in allowed:
        assert not citations("x.py", line), line
    assert not citations("style.css", "--bg: " + "#101418; border: 2px solid " + "#445;")
