"""Anyone can reproduce a phone bug (docs/scripted-input.md): ``doge-companion run --hardware mock --keys FIFO`` takes
the host's and the pads' keys from a FIFO as they come, with the web pads on and the join link in a file (simulated
hardware has no LCD to scan), as docs/scripted-input.md says."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


def test_keys_from_a_fifo_and_a_phone_by_the_join_link_play_together(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "config.toml"
    config.write_text(
        f'[game]\nstate_dir = "{tmp_path}"\n[pads]\nserial = "off"\n[display]\ndriver = "capture"\n'
        f'[web]\nport = {port}\nbind = "127.0.0.1"\n'
    )
    fifo = tmp_path / "keys"
    env = {key: value for key, value in os.environ.items() if key != "RUNTIME_DIRECTORY"}
    command = ["run", "--hardware", "mock", "--config", str(config), "--keys", str(fifo)]
    child = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *command],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        link = tmp_path / "join-link"
        for _ in range(600):  # a hang guard: the companion starting
            if (link.exists() and fifo.is_fifo()) or child.poll() is not None:
                break
            time.sleep(0.05)
        assert child.poll() is None and oct(link.stat().st_mode & 0o777) == "0o600"
        url = link.read_text().strip()
        base, secret = url.split("/#j=")

        async def view(ws: aiohttp.ClientWebSocketResponse, ready: Any) -> dict[str, Any]:
            # a hang guard for the whole wait: the server's pings would restart a timeout of each receive
            async with asyncio.timeout(60):
                while not ready(shown := await ws.receive_json()):
                    pass
            return shown  # type: ignore[no-any-return]

        async def phone() -> dict[str, Any]:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
                async with session.post(base + "/api/join", json={"secret": secret}) as answer:
                    assert answer.status == 200
                async with session.ws_connect(base + "/ws") as ws:
                    await view(ws, lambda shown: shown.get("mine"))  # the phone sat down first
                    with fifo.open("w") as keys:  # then the pads and the host, as they come
                        keys.write("2 ok\n3 ok\nhost rihgt\nhost right\n")
                        keys.flush()
                        keys.write("host ok\nhost ok\nhost ok\n")
                    return await view(ws, lambda shown: shown.get("public", {}).get("stage") == "game")

        shown = asyncio.run(phone())
        assert shown["mine"]["colour"] == "red" and shown["public"]["entry"] == "keypads"
        assert [seat["kind"] for seat in shown["public"]["seats"]] == ["phone", "pad", "pad"]
    finally:
        child.send_signal(signal.SIGTERM)
        _out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    assert "line 3: unknown key 'rihgt'" in err and "Traceback" not in err
    assert f"the join link is in {link}" in err
