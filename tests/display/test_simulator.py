"""The simulator window under SDL's dummy video driver, driven by synthetic pygame keyboard and mouse events."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import config
from companion.app import App
from companion.engine import replay_text, snapshot
from companion.flow.autoplay import Table
from hardware.events import InputEvent


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def make_settings(state_dir: Path, three_button: bool = False) -> config.Settings:
    data = config.load(search=False).data
    data["pads"]["serial"] = "off"
    data["game"]["state_dir"] = str(state_dir)
    if three_button:
        data["pads"]["gpio"] = [
            {"left": 17, "right": 27, "ok": 22, "led": -1},
            {"left": 16, "right": 20, "ok": 21, "led": -1},
            {"left": 7, "right": 8, "ok": 9, "led": -1},
        ]
        data["display"]["driver"] = "st7735"
    return config.Settings(data, None)


@pytest.fixture
def simulator(tmp_path: Path) -> Iterator[Any]:
    from display.simulator import Simulator

    app = App(make_settings(tmp_path), seed=6)
    sim = Simulator(app, clock=FakeClock())
    yield sim
    sim.close()
    app.close()


def click(sim: Any, source: str, key: str) -> None:
    pygame = sim.pygame
    button = next(b for b in sim.buttons if b.source == source and b.key == key)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1))


def type_key(sim: Any, code: int) -> None:
    pygame = sim.pygame
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0))


def synthetic(sim: Any, event: InputEvent) -> None:
    """What a person at the simulator does for ``event``: a key for navigation, a click for everything else."""
    from display.simulator import HOST_KEYS, PAD_KEYS

    pygame = sim.pygame
    if event.source == "host":
        type_key(sim, getattr(pygame, HOST_KEYS[event.key]))
    elif event.key in ("left", "ok", "right"):
        letter = PAD_KEYS[event.source][("left", "ok", "right").index(event.key)]
        type_key(sim, getattr(pygame, f"K_{letter}"))
    elif event.key == "back" and int(event.source) <= sim.three_button:
        type_key(sim, getattr(pygame, f"K_{PAD_KEYS[event.source][3]}"))
    else:
        click(sim, event.source, event.key)
    if isinstance(sim.clock, FakeClock):
        sim.clock.now += 0.002  # a quick player: the window is redrawn every few presses (FRAME_S)
    assert sim.pump()


@pytest.mark.parametrize(("keypads", "players"), [(True, 4), (False, 3)])
def test_a_whole_game_through_synthetic_keyboard_and_mouse_events(simulator: Any, keypads: bool, players: int) -> None:
    app = simulator.app
    table = Table(
        app.controller, random.Random(7), [str(n) for n in range(1, players + 1)], keypads, handle=lambda e: None
    )
    table.handle = lambda event: synthetic(simulator, event)
    table.setup()
    table.play()
    state = app.controller.state
    assert state is not None and state.is_over
    assert snapshot(replay_text(app.store.lines(app.saver.game))) == snapshot(state)
    assert app.display.frames > 100
    assert simulator.drawn > 100, "the window was drawn all along the game"
    simulator.save(str(Path(app.settings["game"]["state_dir"]) / "window.png"))


def test_three_button_pads_and_a_held_ok_for_back(tmp_path: Path) -> None:
    from display.simulator import Simulator

    clock = FakeClock()
    app = App(make_settings(tmp_path, three_button=True), seed=2)
    sim = Simulator(app, clock=clock)
    try:
        assert sim.scale == 4 and sim.lcd_rect.size == (640, 512), "160x128 shown 4 times larger"
        for pad in ("1", "2", "3"):
            synthetic(sim, InputEvent(pad, "ok"))
        assert app.controller.players == ("red", "blue", "green")
        pygame = sim.pygame
        key = pygame.K_w  # pad 1's ok, held: back, which makes pad 1 leave the table
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        sim.pump()
        clock.now += 2
        sim.pump()
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
        sim.pump()
        assert app.controller.players == ("blue", "green")
    finally:
        sim.close()
        app.close()


def test_holding_host_back_asks_to_undo_before_it_is_let_go(simulator: Any) -> None:
    app = simulator.app
    table = Table(app.controller, random.Random(1), ["1", "2", "3"], False, handle=lambda e: synthetic(simulator, e))
    table.setup()
    while "decision" not in app.controller.screen().tags or not app.controller.history:
        table.turn()
    while not app.controller.history[-1][2]:
        table.turn()
    pygame = simulator.pygame
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0))
    simulator.pump()
    assert not app.controller.confirm_undo
    simulator.clock.now += 1
    simulator.pump()
    assert app.controller.confirm_undo and "undo" in app.controller.screen().tags


def test_closing_the_window_saves_and_reopening_resumes(tmp_path: Path) -> None:
    from display.simulator import Simulator

    app = App(make_settings(tmp_path), seed=3)
    sim = Simulator(app, clock=FakeClock())
    table = Table(app.controller, random.Random(2), ["1", "2", "3"], True, handle=lambda e: synthetic(sim, e))
    table.setup()
    for _ in range(300):
        table.turn()
    record = list(app.controller.record)
    sim.pygame.event.post(sim.pygame.event.Event(sim.pygame.QUIT))
    assert sim.pump() is False
    sim.close()
    app.close()
    again = App(make_settings(tmp_path), seed=4)
    try:
        assert again.resumed and again.controller.record == record
    finally:
        again.close()


def test_a_computer_player_is_named_on_the_pad_it_fills(simulator: Any) -> None:
    """Issue 17: a computer seat is shown as "Computer (Green)" on the first pad nobody took, not as "free"."""
    from hardware.events import InputEvent

    for event in (InputEvent("1", "ok"), InputEvent("2", "ok"), InputEvent("host", "back")):
        simulator.app.step(event)
    names = simulator.app.seat_names()
    assert names["cpu1"] == ("green", "Computer (Green)") and names["1"] == ("red", "Red")
    texts: list[str] = []
    original = simulator._text
    simulator._text = lambda text, *args, **kwargs: texts.append(text) or original(text, *args, **kwargs)
    simulator.draw()
    assert "Pad 3: Computer (Green)" in texts and "Pad 3: free" not in texts and "Pad 4: free" in texts
