"""The web pads' settings, the server failing to start, and the join code on the setup screen."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
import threading
from pathlib import Path

import pytest

from companion.app import App
from companion.store import Store
from companion.system import config
from companion.web import routes, server
from companion.web.join import qr_rows, with_join_code
from display.render import render
from display.screen import Screen
from hardware.events import EventQueue, InputEvent
from tests.helpers import app_settings


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('enabled = "yes"', "web.enabled: must be true or false"),
        ("port = 80", "web.port: must be from 1024 to 65535, not 80"),
        ('bind = "every"', 'web.bind: must be an IP address such as "0.0.0.0"'),
        ("colour = 1", "web.colour: unknown key"),
    ],
)
def test_check_config_names_each_bad_web_setting(tmp_path: Path, text: str, problem: str) -> None:
    file = tmp_path / "config.toml"
    file.write_text(f"[web]\n{text}\n")
    with pytest.raises(config.ConfigError) as error:
        config.load(file)
    assert len(error.value.problems) == 1 and problem in error.value.problems[0]


def test_a_port_in_use_is_one_line_and_the_device_plays_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        settings = app_settings(tmp_path)
        settings.data["web"].update(bind="127.0.0.1", port=taken.getsockname()[1])
        caplog.set_level(logging.INFO)
        app = App(settings, store=Store(None, memory=True), serve_web=True)
        try:
            assert app.web is None and app.phones is None
            errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert len(errors) == 1 and "port" in errors[0].getMessage() and "web.port" in errors[0].getMessage()
            assert errors[0].exc_info is None  # one line, no traceback
            entry = app.controller.seats.entry
            app.step(InputEvent("host", "right"))  # the device goes on with its own buttons
            assert app.controller.seats.entry != entry
        finally:
            app.close()


def test_a_sandbox_without_the_network_is_one_line_and_the_device_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service's unit allows only AF_UNIX sockets (RestrictAddressFamilies): every other socket is refused with
    EAFNOSUPPORT, as systemd's seccomp filter does. The companion must start, say so once, and play on."""
    real = socket.socket

    def sandboxed(family: int = socket.AF_INET, *args: object, **kwargs: object) -> socket.socket:
        if family != socket.AF_UNIX:
            raise OSError(errno.EAFNOSUPPORT, os.strerror(errno.EAFNOSUPPORT))
        return real(family, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "socket", sandboxed)
    settings = app_settings(tmp_path)
    settings.data["web"].update(bind="0.0.0.0", port=8080)
    caplog.set_level(logging.INFO)
    app = App(settings, store=Store(None, memory=True), serve_web=True)
    try:
        assert app.web is None
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "web-pads.conf" in errors[0].getMessage() and errors[0].exc_info is None
        entry = app.controller.seats.entry
        app.step(InputEvent("host", "right"))
        assert app.controller.seats.entry != entry
    finally:
        app.close()


def test_no_server_for_a_script_or_a_tests_app(tmp_path: Path) -> None:
    app = App(app_settings(tmp_path), store=Store(None, memory=True), events=EventQueue())
    try:
        assert app.web is None
    finally:
        app.close()


def test_the_setup_screen_carries_the_join_links_qr_code_drawn_module_by_module() -> None:
    url = "http://192.168.1.20:8080/#j=abcdefghijklmnopqrstuv"
    screen = with_join_code(Screen("New game", tags=("setup",)), url)
    rows = qr_rows(url)
    assert screen.qr == rows and len(rows) == len(rows[0]) >= 21
    assert "abcdefghij" not in " ".join(line.text for line in screen.lines)  # the secret only in the code
    image = render(screen, (320, 240)).convert("L")
    # find the code's white quiet zone at the right, then read the modules back at their centres
    width, _height = image.size
    modules = len(rows) + 4
    top = next(y for y in range(240) if image.getpixel((width - 10, y)) == 255)
    right = max(x for x in range(width) if image.getpixel((x, top + 1)) == 255) + 1
    side = right - min(x for x in range(width) if image.getpixel((x, top + 1)) == 255)
    scale = side // modules
    left = right - side
    read = tuple(
        "".join(
            "1"
            if image.getpixel((left + (c + 2) * scale + scale // 2, top + (r + 2) * scale + scale // 2)) < 128
            else "0"
            for c in range(len(rows))
        )
        for r in range(len(rows))
    )
    assert read == rows


def test_whatever_fails_in_the_server_the_companion_starts_and_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: start() waited for "ready" with no timeout and the server's thread caught only OSError, so a
    missing static folder froze the companion before its first screen. Each failure is one line now."""
    caplog.set_level(logging.INFO)
    settings = app_settings(tmp_path)
    settings.data["web"].update(bind="127.0.0.1", port=0)
    started = threading.Event()

    async def hangs(self: server.WebPads, app: object) -> None:
        started.set()
        await asyncio.Event().wait()

    async def fails(self: server.WebPads, app: object) -> None:
        raise RuntimeError("something aiohttp did not expect")

    cases = [
        ("STATIC", tmp_path / "missing", "cannot start (FileNotFoundError"),
        ("WebPads._serve", fails, "cannot start (RuntimeError: something aiohttp did not expect)"),
        ("WebPads._serve", hangs, "did not start within 0.2 s"),
    ]
    monkeypatch.setattr(server, "START_TIMEOUT_S", 0.2)
    for name, replacement, said in cases:
        with monkeypatch.context() as patch:
            patch.setattr(routes if name == "STATIC" else server.WebPads, name.split(".")[-1], replacement)
            caplog.clear()
            app = App(settings, store=Store(None, memory=True), serve_web=True)
            try:
                assert app.web is None and app.phones is None
                errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
                assert len(errors) == 1 and said in errors[0].getMessage(), errors
                assert errors[0].exc_info is None and "goes on without phones" in errors[0].getMessage()
                entry = app.controller.seats.entry
                app.step(InputEvent("host", "right"))  # the device plays on
                assert app.controller.seats.entry != entry
            finally:
                app.close()
    assert started.is_set()
