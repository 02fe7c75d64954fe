"""The LCD at a card image's first boot (docs/card-file.md): with the Pi's own network open, setup shows its Wi-Fi QR
code first, then the join code, the parts turning by themselves; a card file left out is said in one red line. The
QR code drawn is read back from the pixels and compared with segno's own for the WIFI: text (no QR decoder is
installed here); the password is in no text the screen has."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.app import App
from companion.i18n import set_language
from companion.store import Store
from companion.system import config
from companion.system.hotspot import Hotspot, write_hotspot
from companion.web import server
from companion.web.join import qr_rows
from display.render import render
from hardware.events import PageTick
from tests.helpers import app_settings

HOTSPOT = Hotspot("Doge-4F2D", "k3;pw:x,y\\z")
WIFI_TEXT = "WIFI:T:WPA;S:Doge-4F2D;P:k3\\;pw\\:x\\,y\\\\z;;"
SIZES = ((320, 240), (160, 128))


def first_boot_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], card: str = "") -> App:
    """The App as the service starts it on the image: phones served on every network, no route out (lan_address
    finds only loopback), the network unit's state file in /run, maybe a card file."""
    state = tmp_path / "run" / "hotspot.json"
    write_hotspot(state, HOTSPOT, None)
    monkeypatch.setenv("DOGE_HOTSPOT_FILE", str(state))
    monkeypatch.setattr(server, "lan_address", lambda bind: "127.0.0.1")
    settings = app_settings(tmp_path)
    settings.data["display"].update(width=size[0], height=size[1])
    settings.data["web"].update(bind="0.0.0.0", port=0)
    if card:
        (tmp_path / "doge-companion.toml").write_text(card)
        loaded = config.load(search=False, card=tmp_path / "doge-companion.toml")
        settings = config.Settings(settings.data, None, None, loaded.card_problems, loaded.card_file)
    return App(settings, store=Store(None, memory=True), serve_web=True)


def drawn_qr(image: object, modules: int) -> list[str]:
    """The QR code's modules as drawn: the white square it sits on (with a quiet zone of 2 modules), sampled at the
    centre of each module."""
    pixels = image.convert("RGB")  # type: ignore[attr-defined]
    width, height = pixels.size
    white = [(x, y) for y in range(height) for x in range(width) if pixels.getpixel((x, y)) == (255, 255, 255)]
    left, top = min(x for x, _y in white), min(y for _x, y in white)
    side = max(x for x, _y in white) - left + 1
    step = side / (modules + 4)

    def dark(row: int, column: int) -> bool:
        return pixels.getpixel((int(left + (2.5 + column) * step), int(top + (2.5 + row) * step)))[0] < 128

    return ["".join("1" if dark(r, c) else "0" for c in range(modules)) for r in range(modules)]


@pytest.mark.parametrize("size", SIZES, ids=["320x240", "160x128"])
def test_the_wifi_code_comes_first_then_the_join_code(
    size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    app = first_boot_app(tmp_path, monkeypatch, size)
    try:
        assert app.web is not None and app.web.url.startswith("http://10.42.0.1:"), "the join link names the Pi there"
        wifi = app.controller.screen()
        assert "wifi" in wifi.tags and wifi.part is not None and wifi.part[0] == 1
        assert wifi.qr == qr_rows(WIFI_TEXT) and "Join the Wi-Fi Doge-4F2D" in wifi.text()
        assert drawn_qr(render(wifi, size), len(wifi.qr)) == list(qr_rows(WIFI_TEXT)), "the code drawn is segno's"
        app.step(PageTick())  # setup's parts turn by themselves (docs/architecture.md "Parts and the page timer")
        join = app.controller.screen()
        assert "wifi" not in join.tags and join.qr == qr_rows(app.web.url)
        shown = [wifi.text(), join.text(), *(record.getMessage() for record in caplog.records)]
        assert not any(HOTSPOT.password in text or "k3" in text for text in shown), "the password only in the code"
    finally:
        app.close()


def test_the_wifi_page_is_translated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = first_boot_app(tmp_path, monkeypatch, (160, 128))
    try:
        for language, words in (("de", "WLAN Doge-4F2D"), ("it", "Wi-Fi Doge-4F2D")):
            set_language(language)
            text = app.controller.screen().text()
            assert words in text and "Join the" not in text, text
    finally:
        set_language("en")
        app.close()


def test_a_card_file_left_out_is_one_red_line_on_setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = first_boot_app(tmp_path, monkeypatch, (320, 240), card='display = "st7736"\n')
    try:
        app.step(PageTick())
        setup = app.controller.screen()
        assert "setup" in setup.tags and "wifi" not in setup.tags
        first = setup.lines[0]
        assert first.colour == "red" and first.text.startswith(f"{tmp_path}/doge-companion.toml: display:")
        assert "fix it on the card" in first.text
        assert sum("doge-companion.toml" in line.text for line in setup.lines) == 1
    finally:
        app.close()


def test_without_the_state_file_setup_is_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOGE_HOTSPOT_FILE", str(tmp_path / "none.json"))
    settings = app_settings(tmp_path)
    settings.data["web"].update(bind="127.0.0.1", port=0)
    app = App(settings, store=Store(None, memory=True), serve_web=True)
    try:
        screen = app.controller.screen()
        assert screen.preface is None and "wifi" not in screen.tags and screen.qr is not None
    finally:
        app.close()
