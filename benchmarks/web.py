"""Web pads (docs/web-pads.md "Figures"): ``python3 dev.py bench web``.

- phone press -> LCD frame, and -> the table view's frame (the other screens): four phones play a 4-player game over
  the real server on loopback; for each press, the time from sending it to the first LCD frame pushed after it and to
  the first frame the table view receives after it (presses that change neither, such as keying a secret ballot,
  count for neither). Measured here (wall clock), and at a Pi's speed by ``bench pi``'s model: the CPU time the
  process spent between the press and that frame (its own clock, so other programs on this machine do not count),
  times each model's stated per-core factor (``benchmarks.pi.factors``). Pessimistic: the simulated phones run in the
  same process and their work is counted too. Goal: p99 < 100 ms at Pi speed.
- idle CPU with four phones and a table view connected (the companion in a child process, the phones in this one):
  the child's CPU time over IDLE_S seconds. Goal: < 1% of a core at Pi speed (raw x each model's factor).
- extra memory: the child's resident memory with the web pads serving four phones and a table view, minus the same
  companion with ``web.enabled = false``. Goal: < 25 MB.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import figures
from .pi import factors

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 400
IDLE_S = 10.0


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time (/proc/PID/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _child_press(presses: int) -> dict[str, Any]:
    import aiohttp

    from tests.web.harness import Phone, base_url, running_companion, sit_down

    lcd: list[tuple[float, float]] = []  # (wall, process CPU) when a frame was seen
    table: list[tuple[float, float]] = []
    sent: list[tuple[float, float]] = []

    async def night(app: Any) -> None:
        show = app.display.show

        def timed(image: Any) -> bool:
            changed: bool = show(image)
            if changed:
                lcd.append((time.perf_counter(), time.process_time()))
            return changed

        app.display.show = timed
        phones = [Phone(app, random.Random(n)) for n in range(4)]
        session = aiohttp.ClientSession()
        viewer = await session.ws_connect(base_url(app) + "/ws?table=1")

        async def watch() -> None:
            async for _msg in viewer:
                table.append((time.perf_counter(), time.process_time()))

        watching = asyncio.ensure_future(watch())
        await sit_down(app, phones)
        press = Phone.press

        async def timed_press(phone: Phone, key: str) -> None:
            sent.append((time.perf_counter(), time.process_time()))
            await press(phone, key)
            if len(sent) >= presses:
                raise _Enough

        Phone.press = timed_press  # type: ignore[method-assign]
        from tests.web.harness import play

        try:
            await play(app, phones)
        except _Enough:
            pass
        finally:
            Phone.press = press  # type: ignore[method-assign]
            watching.cancel()
            await viewer.close()
            await session.close()
            for phone in phones:
                await phone.close()

    with tempfile.TemporaryDirectory() as folder, running_companion(Path(folder)) as app:
        asyncio.run(night(app))
    return {
        "lcd": _latencies(sent, lcd, 0),
        "table": _latencies(sent, table, 0),
        "lcd cpu": _latencies(sent, lcd, 1),
        "table cpu": _latencies(sent, table, 1),
    }


class _Enough(Exception):
    pass


def _latencies(sent: list[tuple[float, float]], seen: list[tuple[float, float]], clock: int) -> list[float]:
    """For each press, ms (on the wall clock, 0, or the process's CPU clock, 1) to the first frame seen after it and
    before the next press (if any)."""
    result = []
    for index, start in enumerate(sent):
        end = sent[index + 1][0] if index + 1 < len(sent) else float("inf")
        after = [t for t in seen if start[0] <= t[0] < end]
        if after:
            result.append((after[0][clock] - start[clock]) * 1000)
    return result


def _companion(folder: str, web: bool) -> tuple[subprocess.Popen[str], int]:
    """`doge-companion run` on simulated hardware, serving web pads on a free loopback port (or not)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = Path(folder) / "config.toml"
    config.write_text(
        f'[game]\nstate_dir = "{folder}"\n[pads]\nserial = "off"\n[display]\ndriver = "capture"\n'
        f'[web]\nenabled = {"true" if web else "false"}\nport = {port}\nbind = "127.0.0.1"\n'
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--hardware", "mock", "--config", str(config)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return child, port


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def idle_and_memory() -> tuple[float, float, float]:
    """(idle CPU % of a core with 4 phones and a table view, RSS with web MB, RSS without MB)."""
    with tempfile.TemporaryDirectory() as folder:
        plain, _port = _companion(folder, web=False)
        time.sleep(3)
        without = _rss_mb(plain.pid)
        plain.terminate()
        plain.wait()
    with tempfile.TemporaryDirectory() as folder:
        child, port = _companion(folder, web=True)

        async def hold() -> tuple[float, float]:
            import aiohttp

            url = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    async with aiohttp.ClientSession() as probe, probe.get(url + "/table") as answer:
                        if answer.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            # four phones: each its own session; the join secret is only on the device's screen, so the phones
            # here are table views, which the server keeps in the same way (a socket, pings, a frame per change)
            sessions = [aiohttp.ClientSession() for _ in range(5)]
            sockets = [await session.ws_connect(url + "/ws?table=1") for session in sessions]
            await asyncio.sleep(2)
            before = cpu_seconds(child.pid)
            started = time.monotonic()
            await asyncio.sleep(IDLE_S)
            used = (cpu_seconds(child.pid) - before) / (time.monotonic() - started) * 100
            rss = _rss_mb(child.pid)
            for ws in sockets:
                await ws.close()
            for session in sessions:
                await session.close()
            return used, rss

        try:
            idle, with_web = asyncio.run(hold())
        finally:
            child.terminate()
            child.wait()
    return idle, with_web, without


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(smoke: bool = False) -> None:
    """``smoke``: a few presses and a short idle spell (the test suite's run), no verdicts."""
    global IDLE_S
    if smoke:
        IDLE_S = 1.0
    found = _child_press(12 if smoke else PRESSES)
    for label, key in (("phone press -> LCD frame", "lcd"), ("phone press -> table view frame", "table")):
        wall, cpu = found[key], found[key + " cpu"]
        print(f"{label:<34} here median {_median(wall):6.2f} p99 {_p99(wall):6.2f} ms; CPU median "
              f"{_median(cpu):5.2f} p99 {_p99(cpu):5.2f} ms [{len(wall)} presses]")  # fmt: skip
        for model, factor in factors().items():
            p99 = _p99(cpu) * factor
            verdict = "" if smoke else (" PASS" if p99 < 100 else " FAIL")
            print(
                f"  {model:<9} x{factor:<3g} median {_median(cpu) * factor:6.1f} p99 {p99:6.1f} ms{verdict} (< 100 ms)"
            )
        figures.report(
            f"{label.replace('->', 'to')}, on a Pi (CPU here x factor): " + " / ".join(factors()),
            "p99 " + " / ".join(f"{_p99(cpu) * factor:.1f}" for factor in factors().values()) + " ms",
            "p99 < 100 ms",
        )
    idle, with_web, without = idle_and_memory()
    label = "idle CPU, 5 web clients connected"
    worst = idle * max(factors().values())
    verdict = "" if smoke else (" PASS" if worst < 1 else " FAIL")
    print(f"{label:<34} here {idle:.3f} % of a core; slowest model x{max(factors().values()):g} {worst:.2f} %{verdict} "
          f"(< 1%)")  # fmt: skip
    extra = with_web - without
    verdict = "" if smoke else (" PASS" if extra < 25 else " FAIL")
    print(f"{'extra memory of the web pads':<34} {extra:.1f} MB ({with_web:.1f} MB with, {without:.1f} MB without)"
          f"{verdict} (< 25 MB)")  # fmt: skip
    figures.report("web pads: idle CPU with 5 phones connected (slowest Pi) / extra memory",
                   f"{worst:.2f}% of a core / {extra:.1f} MB", "< 1% / < 25 MB")  # fmt: skip


if __name__ == "__main__":
    main("--smoke" in sys.argv)
