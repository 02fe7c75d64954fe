"""What the table hears is a function of public facts only (rules.md 11): the announcer's moment is the same for a
twin of the game with every secret changed, at every press; it does not change while a player's private menu is on
the shared screen (their own presses there say nothing); and each moment is said once.

Today the announcer says one moment (the end, rules.md 9.4); the notices' spoken forms extend ``public_moment``
(docs/sound.md), and these checks then cover them as they are.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from companion.flow.announcer import Announcer, Moment, public_moment
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.views import winners_text
from hardware.events import InputEvent
from tests.flow.test_secrecy import twin_with_other_secrets

MomentOf = Callable[[Controller], Moment | None]


class Listener:
    """At every press: the moment against a twin's, and unchanged while a private menu is shown (the twin shares the
    open menu, so only the second check can see a moment read from it)."""

    def __init__(self, moment_of: MomentOf, stop_at_first: bool = False) -> None:
        self.moment_of = moment_of
        self.stop_at_first = stop_at_first
        self.rng = random.Random(7)
        self.last: Moment | None = None
        self.checked = 0
        self.private = 0
        self.problems: list[str] = []
        self.announcer = Announcer()
        self.said: list[tuple[int, str]] = []

    def __call__(self, controller: Controller, event: InputEvent) -> None:
        if self.stop_at_first and self.problems:
            return
        moment = self.moment_of(controller)
        if controller.state is not None and controller.stage != "setup":
            if self.moment_of(twin_with_other_secrets(controller, self.rng)) != moment:
                self.problems.append(f"a twin hears otherwise after {event}")
            if any(tag.startswith("private:") for tag in controller.screen().tags):
                self.private += 1
                if moment != self.last:
                    self.problems.append(f"a new moment on a private menu after {event}")
            self.checked += 1
        self.last = moment
        self.said += [(len(controller.record), sentence) for sentence in self.announcer.update(controller)]


def play(
    listener: Listener,
    keypads: bool,
    seeds: tuple[int, int] = (3, 4),
    until: Callable[[Controller], bool] | None = None,
) -> Table:
    controller = Controller(random.Random(seeds[0]), entry="private")
    table = Table(controller, random.Random(seeds[1]), ["1", "2", "3"], keypads, listener)
    table.setup()
    if until is None:
        table.play()
    else:
        while not until(controller):
            table.turn()
    return table


@pytest.mark.parametrize(("keypads", "seeds"), [(False, (2, 3)), (True, (1, 2))])  # whole games of 8 and 13 years
def test_every_moment_is_public_and_is_said_once(keypads: bool, seeds: tuple[int, int]) -> None:
    listener = Listener(public_moment)
    table = play(listener, keypads, seeds)
    state = table.controller.state
    assert listener.problems == [] and listener.checked > 300 and (listener.private > 0) != keypads
    assert state is not None and state.is_over
    for _page in range(3):  # the standings and the chart on top: the same moment, nothing more said
        table.press("host", "right")
    winners = [state.players[seat] for seat in state.winners]
    assert listener.said == [(len(table.controller.record), winners_text(winners))]


def test_a_moment_read_from_the_screen_would_be_caught() -> None:
    """Guard for the test above: with ballots one at a time the screen is, for a while, a player's own menu; an
    announcer reading the screen says something new at that player's presses, and the listener says so."""

    def from_screen(controller: Controller) -> Moment:
        return Moment(("screen",), (controller.screen().text(),))

    listener = Listener(from_screen, stop_at_first=True)
    play(listener, keypads=False, until=lambda _controller: bool(listener.problems))
    assert listener.problems[0].startswith("a new moment on a private menu")
