"""Computer players: they see nothing secret, play legal whole games, and sit at a table of humans."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bots import YEAR_WORK, HardBot, make_bot, make_view
from companion.bots.calibration import work_per_second
from companion.engine import State, replay_text, snapshot
from companion.engine.determinize import determinize
from companion.engine.state import FIELDS
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from hardware.events import InputEvent
from tests.engine.test_properties import check_invariants, scramble_secrets
from tests.helpers import RGB, random_step, without_stamps

ROOT = Path(__file__).resolve().parents[1]
SMALL_WORK = YEAR_WORK * 12  # a few imagined worlds: the search runs, the tests stay quick


def twin_for(state: State, viewer: int, seed: int) -> State:
    """Another state that differs from ``state`` only in what ``viewer`` cannot know."""
    twin = scramble_secrets(state, random.Random(seed))
    n = state.player_count
    twin._pending[viewer] = state._pending[viewer]
    twin._markers[4 * viewer : 4 * viewer + 4] = state._markers[4 * viewer : 4 * viewer + 4]
    for area in range(7):
        twin._stack_sum[area * n + viewer] = state._stack_sum[area * n + viewer]
    return twin


def fields(state: State) -> dict[str, object]:
    return {name: getattr(state, name) for name in FIELDS}


@pytest.mark.parametrize("seed", range(4))
def test_an_imagined_state_depends_only_on_what_its_viewer_may_know(seed: int) -> None:
    rng = random.Random(seed)
    state = State(("a", "b", "c", "d")[: 3 + seed % 2])
    checked = 0
    while not state.is_over and state.year <= 3:
        if not state.chance_awaited():
            for viewer in range(state.player_count):
                imagined = determinize(state, viewer, random.Random(7))
                assert fields(imagined) == fields(
                    determinize(twin_for(state, viewer, checked), viewer, random.Random(7))
                )
                check_invariants(imagined)
                checked += 1
        random_step(state, rng)
    assert checked > 100


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_bots_inputs_contain_nothing_secret_of_other_players(level: str) -> None:
    rng = random.Random(3)
    state = State(RGB)
    for _ in range(150):
        random_step(state, rng)
    samples = make_bot(level).samples
    for viewer in range(3):
        mine = make_view(state, viewer, random.Random(11), samples)
        theirs = make_view(twin_for(state, viewer, 5), viewer, random.Random(11), samples)
        assert (mine.snapshot, mine.private, mine.legal) == (theirs.snapshot, theirs.private, theirs.legal)
        assert [fields(s) for s in mine.samples] == [fields(s) for s in theirs.samples]


@pytest.mark.parametrize(
    "levels", [("easy", "normal", "easy"), ("normal", "normal", "normal", "easy"), ("hard", "normal", "easy")]
)
def test_bots_play_legal_whole_games(levels: tuple[str, ...]) -> None:
    rng = random.Random(len(levels))
    bots = [make_bot(level, seed) for seed, level in enumerate(levels)]
    for bot in bots:
        if isinstance(bot, HardBot):
            bot.work = SMALL_WORK  # enough to exercise the search; the benchmark measures it at full strength
    state = State(("a", "b", "c", "d")[: len(levels)])
    while not state.is_over:
        assert state.year < 100
        if state.chance_awaited():
            random_step(state, rng)
            continue
        seat = state.awaiting()[0].player
        decision = bots[seat].decide(make_view(state, seat, rng, bots[seat].samples))
        assert decision in state.legal(seat)
        state.apply(seat, decision)
    assert state.winners


def hard_game(seed: int, work: int) -> list[object]:
    """Every decision of a seeded game where a hard player with pinned ``work`` sits with two normal ones."""
    rng = random.Random(seed)
    bots = [make_bot("hard", seed, work=work), make_bot("normal", 1), make_bot("normal", 2)]
    state = State(RGB)
    decisions: list[object] = []
    while not state.is_over and state.year <= 2:
        if state.chance_awaited():
            random_step(state, rng)
            continue
        seat = state.awaiting()[0].player
        decision = bots[seat].decide(make_view(state, seat, rng, bots[seat].samples))
        decisions.append(decision)
        state.apply(seat, decision)
    return decisions


def test_the_hard_player_with_pinned_work_plays_the_same_moves_for_the_same_seed() -> None:
    first = hard_game(5, SMALL_WORK)
    assert hard_game(5, SMALL_WORK) == first, "the machine's speed must not change its moves"
    assert len(first) > 20


def test_the_hard_player_builds_its_imagined_worlds_inside_its_work() -> None:
    rng = random.Random(3)
    state = State(RGB)
    while state.chance_awaited() or state.awaiting()[0].player != 0:
        random_step(state, rng)
    bot = HardBot(1, work=SMALL_WORK)
    bot.decide(make_view(state, 0, rng, bot.samples))
    assert 0 < bot.spent <= SMALL_WORK
    assert HardBot.samples == 1, "the game thread imagines one world; the others are the decision's own work"
    tiny = HardBot(1, work=YEAR_WORK)  # not even one world fits: the rule of thumb answers
    assert tiny.decide(make_view(state, 0, rng, tiny.samples)) in state.legal(0) and tiny.spent == 0


def test_the_hard_players_decision_depends_only_on_what_it_may_know() -> None:
    rng = random.Random(8)
    state = State(RGB)
    for _ in range(60):
        random_step(state, rng)
    while state.chance_awaited():
        random_step(state, rng)
    viewer = state.awaiting()[0].player
    twin = twin_for(state, viewer, 2)
    mine = HardBot(4, work=SMALL_WORK).decide(make_view(state, viewer, random.Random(9), 1))
    theirs = HardBot(4, work=SMALL_WORK).decide(make_view(twin, viewer, random.Random(9), 1))
    assert mine == theirs


class TickingClock:
    """A fake clock: every reading is ``tick`` seconds after the last, as if each round of work took that long."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def test_the_calibration_gives_a_slower_machine_less_work() -> None:
    fast = work_per_second(TickingClock(0.001), probe=0.0105)
    slow = work_per_second(TickingClock(0.01), probe=0.105)
    assert fast == pytest.approx(10 * slow)
    assert work_per_second(TickingClock(0.001), probe=0.0105) == fast, "the probe's work is itself deterministic"
    assert HardBot(work=123).work_per_decision() == 123, "a pinned count is never measured"


def test_two_humans_and_a_bot_through_scripted_input(tmp_path: Path) -> None:
    seed = 17
    controller = Controller(random.Random(seed))
    controller.parts.size = (320, 240)  # the run's display: a notice in parts takes an ok more a part
    controller.sync_bots = True
    table = Table(controller, random.Random(4), ["1", "2"], keypads=False)
    table.press("1", "ok")
    table.press("2", "ok")
    table.press("host", "back")  # a computer player takes the third seat
    assert controller.seats.bot_levels and "Green: normal computer" in controller.screen().text()
    table.press("host", "ok")
    table.play()
    state = controller.state
    assert state is not None and state.is_over
    assert snapshot(replay_text(controller.record))["winners"]
    assert '"bots": {"green": "normal"}' in controller.record[0]
    script = tmp_path / "two-and-a-bot.txt"
    script.write_text("\n".join(str(e) for e in table.events) + "\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nstate_dir = "{tmp_path}"\n[display]\ndriver = "capture"\n[pads]\nserial = "off"\n')
    record = tmp_path / "record.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--hardware", "mock",
         "--seed", str(seed), "--script", str(script), "--record", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert without_stamps(record.read_text().splitlines()) == without_stamps(controller.record)


def test_a_bot_answer_that_arrives_too_late_is_dropped() -> None:
    controller = Controller(random.Random(2))
    for pad in ("1", "2"):
        controller.handle(InputEvent(pad, "ok"))
    controller.handle(InputEvent("host", "back"))
    controller.handle(InputEvent("host", "ok"))
    seat = controller.pending_bot()
    assert seat == 2
    decision = controller.bots[seat].decide(controller.bot_view(seat, random.Random(1)))
    assert not controller.apply_bot(seat, decision, token=len(controller.record) - 1), "asked about another moment"
    assert controller.apply_bot(seat, decision, token=len(controller.record))
    assert controller.state is not None and controller.state._pending[seat] is not None


def test_in_the_app_a_bot_thinks_off_the_game_thread_and_answers_through_the_queue(tmp_path: Path) -> None:
    """No verdict here depends on speed: the bot's pause is held by an event the test releases, and every wait is
    only a hang guard."""
    import threading

    from companion.app import App
    from companion.system import config
    from tests.hardware.test_serial_pads import wait_for

    data = config.load(search=False).data
    data["game"].update(state_dir=str(tmp_path), bot_level="hard", bot_pause_ms=300)
    data["pads"]["serial"] = "off"
    app = App(config.Settings(data, None), seed=3)
    released = threading.Event()
    pauses: list[float] = []

    def held_pause(seconds: float) -> None:
        pauses.append(seconds)
        assert released.wait(600), "hang guard"

    app.bot_sleep = held_pause
    stop = threading.Event()
    thread = threading.Thread(target=app.run, args=(stop,))
    thread.start()
    try:
        for event in (
            InputEvent("1", "ok"),
            InputEvent("2", "ok"),
            InputEvent("host", "back"),
            InputEvent("host", "ok"),
        ):
            app.events.put(event)
        app.events.put(InputEvent("host", "back"))  # the board check opens at once while the bot is thinking
        wait_for(lambda: app.screen is not None and "board" in app.screen.tags, timeout=600)
        state = app.controller.state
        assert state is not None and app.controller.stage == "game"
        started = len(app.controller.record)
        assert started == 3, "header and two shuffles: the game thread did not wait for the bot"
        assert state._pending[2] is None
        released.set()
        wait_for(lambda: app.controller.state is not None and app.controller.state._pending[2] is not None, timeout=600)
        assert len(app.controller.record) == started + 1, "the bot's ballot, locked in and still secret"
        assert len(pauses) == 1 and 0 <= pauses[0] <= 0.3, "the pause is what is left of bot_pause_ms"
    finally:
        released.set()
        stop.set()
        app.events.wake()
        thread.join(timeout=600)
        app.close()


def test_a_press_that_hands_a_computer_its_turn_is_on_the_screen_before_the_computer_is_asked(tmp_path: Path) -> None:
    """Building a computer's view samples a world for it: the press's own frame goes out first (press -> glass)."""
    import threading

    from companion.app import App
    from companion.system import config

    data = config.load(search=False).data
    data["game"].update(state_dir=str(tmp_path), bot_level="normal", bot_pause_ms=300)
    data["pads"]["serial"] = "off"
    app = App(config.Settings(data, None), seed=3)
    released = threading.Event()
    app.bot_sleep = lambda _seconds: released.wait(600)  # the answer waits: only the asking is looked at
    asked_at: list[int] = []
    ask = app.controller.bot_view

    def bot_view(seat: int, rng: random.Random) -> object:
        asked_at.append(app.display.frames)
        return ask(seat, rng)

    app.controller.bot_view = bot_view  # type: ignore[method-assign]
    try:
        for event in (InputEvent("1", "ok"), InputEvent("2", "ok"), InputEvent("host", "back")):
            app.step(event)
        assert asked_at == [], "no computer decides during setup"
        shown = app.display.frames
        app.step(InputEvent("host", "ok"))  # the game starts: the computer seat has a ballot to cast
        assert app.display.frames == shown + 1, "the press showed a new screen"
        assert asked_at == [shown + 1], "the computer was asked once, after that screen was shown"
    finally:
        released.set()
        app.close()


def test_a_work_pinned_in_the_config_reaches_the_hard_player(tmp_path: Path) -> None:
    from companion.app import App
    from companion.system import config

    file = tmp_path / "config.toml"
    file.write_text(f'[game]\nstate_dir = "{tmp_path}"\nbot_level = "hard"\nbot_work = 5000\n[pads]\nserial = "off"\n')
    app = App(config.load(file), seed=3)
    try:
        for pad in ("1", "2"):
            app.controller.handle(InputEvent(pad, "ok"))
        app.controller.handle(InputEvent("host", "back"))
        app.controller.handle(InputEvent("host", "ok"))
        bot = app.controller.bots[2]
        assert isinstance(bot, HardBot) and bot.pinned and bot.work_per_decision() == 5000
    finally:
        app.close()
