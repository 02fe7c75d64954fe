"""The web pads in a real browser: the distribution's Chromium driven by Playwright against the running companion
(simulated hardware, its game thread, the server on loopback).

Three phones join by the QR code's link and play a whole game to its end (keyed ballots, decisions); one reloads
and one loses its connection mid-round and both come back to exactly where they were; a fourth asks for a seat, is
refused by the host's ok, and gets it by left, then right, with the seat's keyed ballot cleared and no line left
over from asking. Where a phone's ok means done it says Done. The table view at 1920x1080 is read across a table:
its headline and labels are 40 px or more, its map has a key, and at the end it shows the winners, the tie-break,
the standings and the palace chart as the device does.
Without Debian's chromium on PATH it is skipped, saying how to install it (`python3 dev.py test` names it in its
first line); in CI, which installs it, it fails instead.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

from companion.app import App
from companion.flow.autoplay import NOTICE_TAGS, Table
from display.marks import SYMBOLS, mark_of
from tests.system_tools import need_tool
from tests.web.harness import host, running_companion

# As root on a closed network: no sandbox, and none of Chromium's own background connections (docs/web-pads.md).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DOCS = Path(__file__).resolve().parents[2] / "docs"
# The table view's headline and labels, with their font sizes in CSS pixels.
SIZES = """() => [...document.querySelectorAll("h1, h2, th, .area strong")]
  .map((e) => [e.tagName + " " + e.textContent.slice(0, 20), parseFloat(getComputedStyle(e).fontSize)])"""


def settle(page: Any) -> None:
    page.wait_for_function("() => view !== null && !pending")


def act(page: Any, rng: random.Random) -> bool:
    """One press of what this phone offers now (a menu option, or the next key of a ballot); False: nothing."""
    settle(page)
    options = page.locator("#menu button")
    if options.count():
        options.nth(rng.randrange(options.count())).click()
        return True
    if page.locator("#areas").count() and not page.locator("#locked").count():
        if not page.locator("#keyed").inner_text():
            choices = page.locator("#areas button:enabled")
        elif not page.locator("#markers button.on").count():
            choices = page.locator("#markers button:enabled")
        else:
            choices = page.locator("#lockin")
        choices.nth(rng.randrange(choices.count())).click()
        return True
    return False


def until(predicate: Any, what: str, page: Any) -> None:
    for _ in range(400):
        if predicate():
            return
        page.wait_for_timeout(50)  # waiting for the game thread, not a verdict on speed
    raise AssertionError(f"never happened: {what}")


def message(page: Any) -> str:
    """The pad's message line, or "" while it has none."""
    shown = page.locator("#message")
    return str(shown.inner_text()) if shown.count() else ""


def read_notice(app: App, page: Any) -> bool:
    """The host reads a notice on the device with ok (as at a real table); False: none is shown."""
    if app.screen is None or not set(app.screen.tags) & (NOTICE_TAGS | {"reminder"}) or app.controller.overlays:
        return False
    before = app.screen
    host(app, "ok")
    until(lambda: app.screen != before, "the notice was read", page)
    return True


DONES = 8  # the phones' Done pressed this often; then the host reads the notices, as before (the test's time)


def says_done(page: Any) -> bool:
    """Where the phone's ok means "done" (a notice waits for its player's pieces, or a computer's), the
    phone says Done, not "Your turn" and a bare ok; it presses it. False: its ok means something else now."""
    if not page.evaluate("() => Boolean(view && !pending && view.mine && view.mine.done && view.public.notice)"):
        return False
    assert page.locator("button[data-key=ok]").all_inner_texts() == ["Done"]  # the one ok, and it says what it does
    assert "Your turn" not in page.locator("#title").inner_text()
    page.locator("#done").click()
    return True


def play_round(app: App, pages: list[Any], rng: random.Random, steps: int, done: list[int] | None = None) -> None:
    for _ in range(steps):
        controller = app.controller
        if controller.stage == "over" and not controller.notices:
            return
        if done is not None and done[0] < DONES and any(says_done(page) for page in pages):
            done[0] += 1
            continue
        if read_notice(app, pages[0]):
            continue
        if not any(act(page, rng) for page in pages):
            pages[0].wait_for_timeout(50)


def test_phones_in_chromium_play_a_whole_game(tmp_path: Path) -> None:
    chromium = need_tool("chromium")
    from playwright.sync_api import sync_playwright

    rng = random.Random(5)
    with running_companion(tmp_path) as app, sync_playwright() as playwright:
        assert app.web is not None
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        contexts = [browser.new_context(**PHONE) for _ in range(3)]
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.goto(app.web.url)  # the link the QR code on the setup screen holds
            page.wait_for_selector("#title")
            assert "#j=" not in page.url  # the join secret leaves the address bar at once
        until(lambda: len(app.controller.seats.joined) == 3, "three phones seated", pages[0])
        assert "setup" in app.screen_tags and app.screen is not None and app.screen.qr
        pages[1].click("button[data-key=right]")  # another colour, like a keypad's right
        host(app, "right")
        while app.controller.stage == "setup":  # a setup in parts: the host's ok shows each, then starts the game
            shown = app.screen
            host(app, "ok")
            until(lambda shown=shown: app.screen != shown, "the host's ok was read", pages[0])
        table = browser.new_page(viewport={"width": 1920, "height": 1080})
        table.goto(app.web.table_url)
        table.wait_for_selector("#board")
        sizes = table.evaluate(SIZES)
        assert sizes and all(size >= 40 for _label, size in sizes), sizes  # read across a table
        assert table.evaluate("document.documentElement.scrollWidth") <= 1920  # nothing cut off at the side
        key = table.locator("#key").inner_text()
        marks = [SYMBOLS[mark_of(colour)] for _source, colour in app.controller.seats.joined]
        assert "⌂" in key and "♟" in key and all(mark in key for mark in marks), key  # each player's mark too
        # the first round: phone 0 keys an area, then reloads; phone 2 keys one and loses its connection
        while read_notice(app, pages[0]):
            pass
        until(lambda: pages[0].locator("#areas").count() > 0, "a ballot on the phones", pages[0])
        for page in (pages[0], pages[2]):
            settle(page)
            if not page.locator("#locked").count():
                page.locator("#areas button:enabled").first.click()
                settle(page)
        keyed = [page.locator("#keyed").inner_text() for page in pages]
        pages[0].reload()
        contexts[2].set_offline(True)
        pages[2].evaluate("() => socket && socket.close()")
        pages[2].wait_for_timeout(300)
        contexts[2].set_offline(False)
        for index in (0, 2):
            pages[index].wait_for_selector("#keyed")
            settle(pages[index])
            assert pages[index].locator("#keyed").inner_text() == keyed[index]  # exactly where it was
        pages[0].screenshot(path=str(tmp_path / "web-pad.png"))
        # a fourth phone asks for the first seat: refused, until the host confirms
        stranger_context = browser.new_context(**PHONE)
        stranger = stranger_context.new_page()
        stranger.goto(app.web.url)
        name = pages[0].locator("#title").inner_text().split(" ")[0]
        stranger.get_by_text(f"Ask for {name}'s seat").click()
        until(lambda: "takeover" in app.screen_tags, "the host was asked", stranger)
        host(app, "ok")  # the key the host presses all evening keeps the seat
        # its "Asked: ..." message is already there: wait for the answer's words, not for a #message
        until(lambda: "kept the seat" in message(stranger), "the stranger was told the seat is kept", stranger)
        assert not stranger.locator("#keyed").count()
        until(lambda: "takeover" not in app.screen_tags, "the first question answered", stranger)
        stranger.get_by_text(f"Ask for {name}'s seat").click()
        until(lambda: "takeover" in app.screen_tags, "the host was asked again", stranger)
        host(app, "left")
        host(app, "right")
        stranger.wait_for_selector("#keyed", state="attached")  # empty: it is hidden
        assert stranger.locator("#keyed").inner_text() == ""  # the seat's keyed ballot was cleared, not handed over
        assert message(stranger) == ""  # the answer came: "Asked: ..." is gone
        until(lambda: "Another phone" in message(pages[0]), "the first phone was told it lost its seat", pages[0])
        pages[0] = stranger
        # and on to the end of the game
        done = [0]
        play_round(app, pages, rng, 20_000, done)
        assert app.controller.stage == "over"
        assert done[0] == DONES, done  # the phones said Done, and their players pressed it
        # tests/web/test_table_ending.py: the table view ends the game as the device does: winners, tie-break,
        # standings, palace chart
        table.wait_for_selector("#ending")
        ending = app.controller.screen()  # the game-over screen
        headline = table.locator("#headline").inner_text()
        assert ending.title in headline and ending.lines[0].text in headline, headline
        assert ending.lines[1].text in table.locator("#result").inner_text()  # the tie-break
        players = len(app.controller.players)
        assert table.locator("#standings p").count() == 2 * players
        assert table.locator("#chart polyline").count() == players and table.locator("#chart .mark").count() > players
        assert table.locator("#board").count() and table.locator("#key").count()  # the board at the end, its key
        assert table.evaluate("document.documentElement.scrollWidth") <= 1920
        table.screenshot(path=str(tmp_path / "web-table.png"))
        browser.close()
    if os.environ.get("DOGE_DOCS_SCREENSHOTS"):  # regenerate docs/web-pad.png and docs/web-table.png
        for name in ("web-pad.png", "web-table.png"):
            shutil.copy(tmp_path / name, DOCS / name)


STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"
# Each kind of piece as the table view shows it: put on an empty board, and the element that draws it, all of it in
# the player's colour (a palace's owner's mark, not the "♜" before it).
TABLE_PIECES: dict[str, tuple[str, Any]] = {
    "houses": ('[data-area="san_polo"] div.{c}', lambda snap, c: snap["districts"]["san_polo"].update(houses={c: 2})),
    "palace": ('[data-area="san_polo"] span.{c}', lambda snap, c: snap["districts"]["san_polo"].update(palaces=[c])),
    "advisor": (
        '[data-area="castello"] div.{c}',
        lambda snap, c: snap["advisors"].update(castello={"controller": c, "area": "san_polo"}),
    ),
    "Quarantia advisor": (
        '[data-area="quarantia"] div.{c}',
        lambda snap, c: snap["advisors"].update(quarantia=[{"controller": c, "area": "san_polo"}]),
    ),
}


def test_the_table_views_marks_differ_in_shape_through_each_colour_deficiency() -> None:
    """docs/architecture.md, "Telling players apart": on the table view too, each player's pieces and chart marks
    differ from every other player's in their shape, through a simulation of protanopia, deuteranopia and
    tritanopia (tests/colour_vision.py; the LCD's: tests/display/test_marks_apart.py). The page is the real
    table.js and style.css, drawn in Chromium from a real game's public view with one piece of one player's on an
    empty board (or a chart of one player's), the card (or chart) as pixels."""
    chromium = need_tool("chromium")
    from io import BytesIO

    from PIL import Image
    from playwright.sync_api import sync_playwright

    from companion.flow.controller import Controller
    from companion.web.views import public_view
    from tests.colour_vision import MACHADO, alike, masks_through

    controller = Controller(random.Random(2), entry="keypads")
    game = Table(controller, random.Random(52), ["phone1", "phone2", "phone3", "phone4"], True)
    game.setup()
    game.play()
    public = public_view(controller)
    assert public["ending"] is not None and len(public["seats"]) == 4
    colours = [seat["colour"] for seat in public["seats"]]

    def bare() -> dict[str, Any]:
        view = json.loads(json.dumps(public))
        snap = view["snapshot"]
        for district in snap["districts"].values():
            district.update(houses={}, palaces=[])
        snap["advisors"] = dict.fromkeys(snap["advisors"]) | {"quarantia": []}
        snap["stacks"], snap["area"] = {}, None
        view["ending"]["chart"]["series"] = []
        return view

    def picture(page: Any, view: dict[str, Any], selector: str) -> Image.Image:
        """The element and 4 pixels round it: its corner is what it is drawn on (a card's background, the page's)."""
        page.evaluate("(view) => draw(view)", view)
        box = page.locator(selector).bounding_box()
        clip = {"x": box["x"] - 4, "y": box["y"] - 4, "width": box["width"] + 8, "height": box["height"] + 8}
        return Image.open(BytesIO(page.screenshot(clip=clip))).convert("RGB")

    css = (STATIC / "style.css").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.set_content(
            f'<html><head><style>{css}</style></head><body class="table"><p id="status" hidden></p>'
            '<main id="app"></main></body></html>'
        )
        page.add_script_tag(content=(STATIC / "common.js").read_text())
        page.add_script_tag(content="connect = () => {};")  # no server: the view is handed to draw() below
        page.add_script_tag(content=(STATIC / "table.js").read_text())
        shots: dict[str, dict[str, Image.Image]] = {}
        for piece, (selector, put) in TABLE_PIECES.items():
            shots[piece] = {}
            for colour in colours:
                view = bare()
                put(view["snapshot"], colour)
                shots[piece][colour] = picture(page, view, selector.format(c=colour))
        shots["chart"] = {}
        for colour in colours:
            view = bare()
            (series,) = [s for s in public["ending"]["chart"]["series"] if s["colour"] == colour]
            view["ending"]["chart"]["series"] = [series | {"name": "P", "palaces": [0, 1, 3]}]
            shots["chart"][colour] = picture(page, view, "#chart .mark >> nth=0")  # the legend's
        browser.close()
    found = []
    for piece, pictures in shots.items():
        for deficiency in sorted(MACHADO):
            marks = {}
            for colour, shot in pictures.items():
                ground = Image.new("RGB", shot.size, shot.getpixel((0, 0)))
                marks[colour] = masks_through([shot], [ground], deficiency)
            # Chromium draws a light colour's glyphs a shade bolder than a dark one's: a pixel's slack for that
            found += [f"{piece}, {deficiency}: {pair}" for pair in alike(marks, least=3, slack=1)]
    assert found == []
