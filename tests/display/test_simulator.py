"""The simulator window under SDL's dummy video driver, driven by synthetic pygame keyboard and mouse events."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app import App
from companion.engine import AREAS, replay_text, snapshot
from companion.flow.autoplay import Table
from companion.flow.undo_chain import undo_blocker
from companion.system import config
from hardware.events import InputEvent, PageTick


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


def synthetic(sim: Any, event: InputEvent | PageTick) -> None:
    """What a person at the simulator does for ``event``: a key for navigation and areas (the keypad's focus key
    first), a click for markers; some seconds passing is the page timer's tick on the App's queue."""
    from display.simulator import AREA_KEYS, FOCUS_KEYS, HOST_KEYS, PAD_KEYS

    pygame = sim.pygame
    if isinstance(event, PageTick):
        sim.app.events.put(event)
    elif event.source == "host":
        type_key(sim, getattr(pygame, HOST_KEYS[event.key]))
    elif event.key in ("left", "ok", "right"):
        letter = PAD_KEYS[event.source][("left", "ok", "right").index(event.key)]
        type_key(sim, getattr(pygame, f"K_{letter}"))
    elif event.key == "back":
        type_key(sim, getattr(pygame, f"K_{PAD_KEYS[event.source][3]}"))
    elif event.key.startswith("area:"):
        type_key(sim, getattr(pygame, FOCUS_KEYS[event.source]))
        type_key(sim, getattr(pygame, f"K_{AREA_KEYS[AREAS.index(event.key[5:])]}"))
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
    while undo_blocker(app.controller) is not None:
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
    """A computer seat is shown as "Computer (Green)" on the first pad nobody took, not as "free"."""
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


def key_of(sim: Any, button: Any) -> int:
    """The pygame key a person reads off the window for ``button``: its hint (a pad's letter or digit) or, for the
    host, the key named beneath it."""
    from display.simulator import HOST_KEYS

    pygame = sim.pygame
    return getattr(pygame, HOST_KEYS[button.key]) if button.source == "host" else pygame.key.key_code(button.hint)


def drawn_texts(sim: Any) -> list[str]:
    texts: list[str] = []
    original = sim._text
    sim._text = lambda text, *args, **kwargs: texts.append(text) or original(text, *args, **kwargs)
    try:
        sim.draw()
    finally:
        del sim._text
    return texts


@pytest.mark.parametrize("three_button", [False, True])
def test_every_button_of_every_pad_has_its_key_drawn_on_it_and_that_key_presses_exactly_it(
    tmp_path: Path, three_button: bool
) -> None:
    """No button needs the mouse. Every button shows a key (a pad's in its corner, the host's beneath it);
    typing it (an area or marker key after the keypad's focus key) gives the App that button's event and no other."""
    from display.simulator import FOCUS_KEYS, PAD_KEYS, Simulator

    app = App(make_settings(tmp_path, three_button), seed=2)
    sim = Simulator(app, clock=FakeClock())
    try:
        pygame = sim.pygame
        assert len(sim.keypads) == (1 if three_button else 4)
        assert len([b for b in sim.buttons if b.source != "host"]) == 15 * len(sim.keypads) + 3 * sim.three_button
        texts = drawn_texts(sim)
        drawn = sim.surface.copy()
        hints = {id(b): b.hint for b in sim.buttons}
        for button in sim.buttons:
            button.hint = ""
        sim.draw()
        bare = sim.surface
        for button in sim.buttons:
            button.hint = hints[id(button)]
            assert button.hint and (button.hint in texts or button.source == "host"), button
            spot = button.rect if button.source != "host" else button.rect.move(0, button.rect.height)
            pixels = [pygame.image.tobytes(surface.subsurface(spot), "RGB") for surface in (drawn, bare)]
            assert pixels[0] != pixels[1], f"no key drawn on {button.source} {button.key}"

        received: list[InputEvent] = []
        app.step = received.append  # type: ignore[method-assign]
        for button in sim.buttons:
            if button.key.startswith(("area:", "marker:")):
                type_key(sim, getattr(pygame, FOCUS_KEYS[button.source]))
                assert sim.pump() and received == [] and sim.focus == button.source
            type_key(sim, key_of(sim, button))
            assert sim.pump()
            assert received == [button.press], (button.source, button.key, button.hint)
            received.clear()
        for pad in ("1", "2", "3", "4")[: sim.three_button]:  # a 3-button pad's back: its own key, or a held ok
            type_key(sim, pygame.key.key_code(PAD_KEYS[pad][3]))
            assert sim.pump() and received == [InputEvent(pad, "back")]
            received.clear()
        for pad in sim.keypads:  # the drawn hint names the focus key, and says which key is which
            lines = sim.pad_hints(pad)
            left, ok, right, back = (k.upper() for k in PAD_KEYS[pad])
            assert f"left {left}, ok {ok}, right {right}, back {back}" in lines[0]
            assert FOCUS_KEYS[pad][2:] in lines[1] and lines[1] in drawn_texts(sim)
    finally:
        sim.close()
        app.close()


def test_keys_never_mean_two_buttons_and_tab_and_clicks_move_the_focus(simulator: Any) -> None:
    from display.simulator import AREA_KEYS, FOCUS_KEYS, MARKER_KEYS

    pygame = simulator.pygame
    focused = {pygame.key.key_code(k) for k in (*AREA_KEYS, *MARKER_KEYS)}
    direct = [b for b in simulator.buttons if not b.key.startswith(("area:", "marker:"))]
    assert len(simulator.keymap) == len(direct), "a key bound to two buttons"
    focus = {getattr(pygame, FOCUS_KEYS[pad]) for pad in simulator.keypads}
    assert not (set(simulator.keymap) & focused) and not (focus & (set(simulator.keymap) | focused))
    assert pygame.K_TAB not in set(simulator.keymap) | focused | focus
    assert [simulator.focus] == simulator.keypads[:1]
    for expected in ("2", "3", "4", "1"):
        type_key(simulator, pygame.K_TAB)
        simulator.pump()
        assert simulator.focus == expected
    received: list[InputEvent] = []
    simulator.app.step = received.append
    click(simulator, "3", "marker:2")
    simulator.pump()
    assert simulator.focus == "3" and received == [InputEvent("3", "marker:2")]
    type_key(simulator, pygame.K_g)
    simulator.pump()
    assert received[-1] == InputEvent("3", "area:cannaregio"), "the keyboard goes on where the mouse was"


def test_the_hint_line_says_what_the_host_keys_do_on_the_screen_shown(simulator: Any) -> None:
    """At setup the host's left changes the language, so the window must not say "left: rule help"."""
    app = simulator.app
    app.show(app.controller.screen())
    line = simulator.hint_lines()[0]
    assert "left: language" in line and "right: ballot entry" in line and "rule help" not in line
    assert line in drawn_texts(simulator)
    table = Table(app.controller, random.Random(1), ["1", "2", "3"], False, handle=lambda e: synthetic(simulator, e))
    table.setup()
    while "decision" not in app.controller.screen().tags or undo_blocker(app.controller) is not None:
        table.turn()
    line = simulator.hint_lines()[0]
    assert line.startswith("Host: left: rule help; back: board check; hold back: undo.") and "language" not in line
    assert line in drawn_texts(simulator)
    synthetic(simulator, InputEvent("host", "back"))  # the board check: its own keys
    line = simulator.hint_lines()[0]
    assert "ok/back: close" in line and "left: previous page" in line and "right: next page" in line


def test_the_voice_plays_through_the_windows_own_mixer_and_a_cut_stops_it(simulator: Any) -> None:
    """SDL's dummy audio driver (the fixture's) plays in real time: a channel is busy while a sound plays."""
    from tests.hardware.test_serial_pads import wait_for
    from tests.hardware.test_speaker import LONG
    from tests.system_tools import need_tool

    need_tool("espeak-ng")

    mixer, voice = simulator.mixer, simulator.app.voice
    assert mixer is not None and voice.speaker is not None and voice.speaker.output is mixer
    assert simulator.pygame.mixer.get_init() == (22050, -16, 1), "the engine's own format: no pitch change"
    voice.say(LONG)  # half a minute of speech
    wait_for(lambda: simulator.pump() and mixer.played == 1)
    assert mixer.channel.get_busy()
    stops = mixer.stopped
    voice.speaker.set_volume(0)  # the host turns it off: what plays stops
    wait_for(lambda: simulator.pump() and mixer.stopped > stops)
    assert not mixer.channel.get_busy() and mixer.played == 1


def test_a_window_without_audio_says_so_in_one_line_and_stays_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from display.simulator import Simulator

    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    app = App(make_settings(tmp_path), seed=1)
    sim = Simulator(app, clock=FakeClock())
    try:
        assert sim.mixer is None and app.voice.speaker is None
        lines = [record.getMessage() for record in caplog.records if "sound:" in record.getMessage()]
        assert len(lines) == 1 and lines[0].startswith("sound: no audio output for the window ("), lines
    finally:
        sim.close()
        app.close()


def test_the_window_says_it_serves_phones_and_on_which_port(tmp_path: Path) -> None:
    """The simulator once opened port 8080 to the network without a word."""
    from display.simulator import Simulator

    settings = make_settings(tmp_path)
    settings.data["web"] = {**settings.data["web"], "enabled": True, "port": 0, "bind": "127.0.0.1"}
    app = App(settings, seed=6, serve_web=True)
    sim = Simulator(app, clock=FakeClock())
    try:
        assert app.web is not None
        line = next(line for line in sim.hint_lines() if line.startswith("Phones"))
        assert f":{app.web.port}" in line and "web.enabled = false" in line
        app.show(app.controller.screen())
        sim.draw()
        assert line in drawn_texts(sim)
    finally:
        sim.close()
        app.close()


def test_every_hint_line_is_in_the_window_and_a_held_left_says_the_moment_again(
    simulator: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's third hint line (the keypads' keyboard keys, under the phones' address) was cut off at
    its bottom edge; and the repeat key (a held left, docs/sound.md) had no way to be pressed in the simulator."""
    monkeypatch.setattr(type(simulator.app), "phones_served", property(lambda _app: "http://192.168.1.20:8080"))
    lines = simulator.hint_lines()
    assert len(lines) == 3
    font_height = simulator.small.get_linesize()
    assert simulator.hint_top + 4 + (len(lines) - 1) * 20 + font_height <= simulator.surface.get_height()
    said: list[str] = []
    simulator.app.voice.repeat = lambda controller: said.append("again")  # type: ignore[method-assign]
    pygame = simulator.pygame
    for key in (pygame.K_LEFT, pygame.key.key_code("q")):  # the host's left, pad 1's left
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        simulator.pump()
        simulator.clock.now += 2
        simulator.pump()
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
        simulator.pump()
    assert said == ["again", "again"]
