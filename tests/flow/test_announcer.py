"""What the table hears is a function of public facts only (rules.md 11): the announcer's moment is the same for a
twin of the game with every secret changed, at every press; it does not change while a player's private menu is on
the shared screen (their own presses there say nothing); and each moment is said once: every notice that comes on
top, once, in order, whatever its parts and ticks, each gate and each decision once, and the winners last.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from companion.flow.announcer import Announcer, Moment, public_moment
from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.flow.narration import Notice
from companion.flow.views import winners_text
from hardware.events import InputEvent
from tests.flow.test_secrecy import twin_with_other_secrets
from tests.helpers import same_notice

MomentOf = Callable[[Controller], Moment | None]


class Listener:
    """At every press: the moment against a twin's, and unchanged while a private menu is shown (the twin shares the
    open menu, so only the second check can see a moment read from it). When a notice leaves the top: it was said,
    all of it, once and in order, a computer player's move that joined it included, whatever its parts and ticks."""

    def __init__(self, moment_of: MomentOf, stop_at_first: bool = False) -> None:
        self.moment_of = moment_of
        self.stop_at_first = stop_at_first
        self.rng = random.Random(7)
        self.last: Moment | None = None
        self.checked = 0
        self.private = 0
        self.problems: list[str] = []
        self.announcer = Announcer()
        self.said: list[tuple[str, ...]] = []
        self.tops = 0  # notices that came on top
        self.top: Notice | None = None
        self.heard: list[str] = []  # what was said while the notice on top was
        self.joined = 0  # notices a computer player's move joined
        self.paged = 0  # presses that showed a later part of the notice on top (a small display)

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
        said = self.announcer.update(controller)
        if said:
            self.said.append(said)
        top = controller.notices[0] if controller.notices and controller.state is not None else None
        begins = top is not None and not same_notice(top, self.top)
        if begins or (top is None and self.top is not None):  # the one before is done with: what it says, once
            if self.top is not None and tuple(self.heard) != opening(self.top):
                self.problems.append(f"{self.top.title!r} said {len(self.heard)} of {len(self.top.spoken)} sentences")
            joined = self.top is not None and sum(line.text == "On the board:" for line in self.top.lines)
            if joined and len(self.heard) < 2:
                self.problems.append(f"a computer player's move joined {self.top.title!r} and was not said")
            self.heard = []
            self.tops += top is not None
            self.joined += bool(joined)
        elif top is not None and controller.parts.index > 0:
            self.paged += 1
        if top is not None:
            self.heard += said
        self.top = top


def opening(notice: Notice) -> tuple[str, ...]:
    """What a notice says when it comes on top (and what joins it): all of it, a reminder page its title, a quiet
    one (a person's own pieces) nothing; the repeat key says all of it (tests/test_voice.py)."""
    if notice.quiet:
        return ()
    return notice.spoken[:1] if notice.tag == "reminder" else notice.spoken


def play(
    listener: Listener,
    keypads: bool,
    seeds: tuple[int, int] = (3, 4),
    until: Callable[[Controller], bool] | None = None,
    small: bool = False,
    computers: int = 0,
) -> Table:
    controller = Controller(random.Random(seeds[0]), entry="private")
    bot_rng = random.Random(seeds[1])

    def watch(controller: Controller, event: InputEvent) -> None:
        """As the App: a computer player's move is a step of its own after the press (it thinks off the game
        thread), so it joins the count it acts on after that count was said."""
        listener(controller, event)
        while (seat := controller.pending_bot()) is not None:
            decision = controller.bots[seat].decide(controller.bot_view(seat, bot_rng))
            if not controller.apply_bot(seat, decision, len(controller.record)):
                break
            listener(controller, event)

    if small:  # the smallest display: long notices are read in parts, each part one ok
        controller.parts.size = (160, 128)
    pads = ["1", "2", "3"][: 3 - computers]
    table = Table(controller, random.Random(seeds[1]), pads, keypads, watch, computers=computers)
    table.setup()
    if until is None:
        table.play()
    else:
        while not until(controller):
            table.turn()
    return table


@pytest.mark.parametrize(("keypads", "seeds", "small"), [(False, (2, 3), True), (True, (1, 2), False)])
def test_every_moment_is_public_and_is_said_once(keypads: bool, seeds: tuple[int, int], small: bool) -> None:
    """Whole games (about 1.5 s and 1 s): ballots one at a time on the smallest display; keypads on a larger one,
    with a computer player, whose moves join the counts they act on (then said: what joined, once)."""
    listener = Listener(public_moment)
    table = play(listener, keypads, seeds, small=small, computers=int(keypads))
    state = table.controller.state
    assert listener.problems == [] and listener.checked > 300 and (listener.private > 0) != keypads
    assert state is not None and state.is_over
    for _page in range(3):  # the standings and the chart on top: the same moment, nothing more said
        table.press("host", "right")
    winners = [state.players[seat] for seat in state.winners]
    assert listener.said[-1] == (winners_text(winners),)
    assert listener.tops > 100, "guard: whole games of notices, each said (the problems above)"
    assert (listener.paged > 10) == small, "guard: notices were read in parts (each part said nothing)"
    gates = [said for said in listener.said if said[-1].endswith("Everyone else, look away.")]
    keyed = [said for said in listener.said if said[-1].endswith("choose on your keypads.")]
    ballots = sum(1 for line in table.controller.record if '"ballot"' in line)
    assert len(gates) == (0 if keypads else ballots) and (len(keyed) > 0) == keypads
    decisions = [said for said in listener.said if said[0].endswith(" decides.")]
    assert decisions and all(len(said) == 2 or said[0].endswith(" decides.") for said in decisions)
    assert (listener.joined > 0) == keypads, "guard: computer players' moves joined the counts they acted on"
    written = [sentence for said in listener.said for sentence in said]
    bad = r"[0-9()+/]|,\."  # numbers as words (announcer.speakable), no brackets or symbols
    assert not [s for s in written if re.search(bad, s)], "for the ear: numbers as words, no brackets or symbols"


def test_a_moment_read_from_the_screen_would_be_caught() -> None:
    """Guard for the test above: with ballots one at a time the screen is, for a while, a player's own menu; an
    announcer reading the screen says something new at that player's presses, and the listener says so."""

    def from_screen(controller: Controller) -> Moment:
        return Moment(("screen",), (controller.screen().text(),))

    listener = Listener(from_screen, stop_at_first=True)
    play(listener, keypads=False, until=lambda _controller: bool(listener.problems))
    assert listener.problems[0].startswith("a new moment on a private menu")
