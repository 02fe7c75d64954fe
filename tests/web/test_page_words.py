"""The pages' own words (companion/web/static/common.js) exist in every language the companion speaks, and every
word a page asks for is one of them (a missing one would show its key, e.g. "lockedonly")."""

from __future__ import annotations

import re
from pathlib import Path

from companion.i18n import LANGUAGES

STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"


def test_every_word_in_every_language() -> None:
    common = (STATIC / "common.js").read_text(encoding="utf-8")
    table = common.split("const WORDS = {", 1)[1].split("\n};", 1)[0]
    blocks = dict(re.findall(r"^  (\w\w): \{(.*?)\},?$", table, flags=re.M | re.S))
    assert sorted(blocks) == sorted(LANGUAGES)
    keys = {language: set(re.findall(r"(?:^|[{,])\s*(\w+): ", block)) for language, block in blocks.items()}
    assert keys["de"] == keys["en"] and keys["it"] == keys["en"]
    asked = set()
    for page in ("common.js", "pad.js", "table.js"):
        asked |= set(re.findall(r"\bt\(\"(\w+)\"", (STATIC / page).read_text(encoding="utf-8")))
    pad = (STATIC / "pad.js").read_text(encoding="utf-8")
    asked |= set(re.findall(r'"[\w-]+": "(\w+)"', pad.split("const REFUSALS = ", 1)[1].split("\n", 1)[0]))
    assert asked and asked <= keys["en"], asked - keys["en"]


def test_a_phone_says_done_in_the_devices_word() -> None:
    """Where a player's ok means done, the phone's button says the device's own word for it (the LCD's
    "Done"), in every language, never a bare "ok"; the phone's title says whose pieces, not "Your turn" (the page
    itself: tests/web/test_browser.py)."""
    from companion.i18n import _, set_language

    common = (STATIC / "common.js").read_text(encoding="utf-8")
    table = common.split("const WORDS = {", 1)[1].split("\n};", 1)[0]
    blocks = dict(re.findall(r"^  (\w\w): \{(.*?)\},?$", table, flags=re.M | re.S))
    try:
        for language, block in blocks.items():
            words = dict(re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', block))
            set_language(language)
            assert words["done"] == _("Done"), language
            assert words["yourpieces"] != words["yourturn"], language
    finally:
        set_language("en")
