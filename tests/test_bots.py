"""Computer players (issue 8): they see nothing secret, play legal whole games, and sit at a table of humans."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bots import HardBot, make_bot, make_view
from companion.engine import State, replay_text, snapshot
from companion.engine.determinize import determinize
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from hardware.events import InputEvent
from tests.engine.test_properties import check_invariants, scramble_secrets
from tests.helpers import RGB, random_step, without_stamps

ROOT = Path(__file__).resolve().parents[1]


def twin_for(state: State, viewer: int, seed: int) -> State:
    """Another state that differs from ``state`` only in what ``viewer`` cannot know."""
    twin = scramble_secrets(state, random.Random(seed))
    n = state.n
    twin.pending[viewer] = state.pending[viewer]
    twin.markers[4 * viewer : 4 * viewer + 4] = state.markers[4 * viewer : 4 * viewer + 4]
    for area in range(7):
        twin.stack_sum[area * n + viewer] = state.stack_sum[area * n + viewer]
    return twin


def fields(state: State) -> dict[str, object]:
    return {name: getattr(state, name) for name in State.__slots__}


@pytest.mark.parametrize("seed", range(4))
def test_an_imagined_state_depends_only_on_what_its_viewer_may_know(seed: int) -> None:
    rng = random.Random(seed)
    state = State(("a", "b", "c", "d")[: 3 + seed % 2])
    checked = 0
    while not state.is_over and state.year <= 3:
        if not state.chance_awaited():
            for viewer in range(state.n):
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
            bot.budget = 0.002  # enough to exercise the search; the benchmark measures it at full strength
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


def test_two_humans_and_a_bot_through_scripted_input(tmp_path: Path) -> None:
    seed = 17
    controller = Controller(random.Random(seed))
    controller.sync_bots = True
    table = Table(controller, random.Random(4), ["1", "2"], keypads=False)
    table.press("1", "ok")
    table.press("2", "ok")
    table.press("host", "back")  # a computer player takes the third seat
    assert controller.seats.bot_levels and "Green: computer (normal)" in controller.screen().text()
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
    assert controller.state is not None and controller.state.pending[seat] is not None


def test_in_the_app_a_bot_thinks_off_the_game_thread_and_answers_through_the_queue(tmp_path: Path) -> None:
    import threading

    from companion import config
    from companion.app import App
    from tests.hardware.test_serial_pads import wait_for

    data = config.load(search=False).data
    data["game"].update(state_dir=str(tmp_path), bot_level="hard", bot_pause_ms=300)
    data["pads"]["serial"] = "off"
    app = App(config.Settings(data, None), seed=3)
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
        wait_for(lambda: app.controller.stage == "game")
        app.events.put(InputEvent("host", "back"))  # the board check opens at once while the bot is thinking
        wait_for(lambda: app.screen is not None and "board" in app.screen.tags, timeout=0.25)
        wait_for(lambda: app.controller.state is not None and app.controller.state.pending[2] is not None, timeout=10)
        ballots = [line for line in app.controller.record if '"ballot"' in line]  # whenever the start's lines landed
        assert len(ballots) == 1 and '"green"' in ballots[0], "the bot's ballot, locked in and still secret"
    finally:
        stop.set()
        app.events.wake()
        thread.join(timeout=10)
        app.close()
