"""Drawing a screen changes nothing (flow/modes/__init__.py): the acting player's menu and whose private ballot it is
are built when the game settles, so the LCD, the phones, the table view and the voice all read one moment, however
often and in whatever order they draw it. Only the pager notes which part of a long screen is shown."""

from __future__ import annotations

import random

import pytest

from companion.flow.autoplay import Table
from companion.flow.controller import Controller
from companion.web.views import public_view, seat_view
from hardware.events import InputEvent


def fingerprint(controller: Controller) -> str:
    """Everything a draw could change, as text: the in-between (notices, overlays and where they are, what is keyed, the
    menus with their cursors and ticks), the game and its saved screen, the table, the effects for the hardware."""
    between = controller.between
    overlays = [(type(o).__name__, sorted(vars(o).items(), key=str)) for o in between.overlays]
    game = controller.game
    return repr(
        (
            between.notices,
            overlays,
            between.keying,
            game.record,
            game._screen,  # what was saved last
            controller.seats,
            controller.effects,
            controller.intro_read,
            controller.cues.cued,
        )
    )


class Drawer:
    """At every press: draws the LCD's screen, every seat's phone view and the public view, twice, and checks that
    none of it changed the controller (the first draw of a new screen may move the pager to its first part, the one
    thing a draw may change)."""

    def __init__(self) -> None:
        self.checked = 0
        self.overlays = 0

    def __call__(self, controller: Controller, _event: InputEvent) -> None:
        before = fingerprint(controller)
        parts = None
        for _draw in range(2):
            controller.screen()
            if controller.state is not None:
                public_view(controller)
                for source, _colour in controller.seats.joined:
                    seat_view(controller, source)
            assert parts in (None, (controller.parts.index, controller.parts.count)), "drawing again turned a part"
            parts = (controller.parts.index, controller.parts.count)
        assert fingerprint(controller) == before, "drawing changed the controller"
        self.checked += 1
        self.overlays += bool(controller.between.overlays)


@pytest.mark.parametrize(("keypads", "seed"), [(False, 4), (True, 5)])
def test_drawing_any_screen_of_a_game_leaves_the_controller_unchanged(keypads: bool, seed: int) -> None:
    """The first years of a game on the smallest display (notices in parts), with a computer player, the board check
    and the rule help opened on the way."""
    controller = Controller(random.Random(seed), entry="private")
    controller.sync_bots = True
    controller.parts.size = (160, 128)
    drawer = Drawer()
    table = Table(controller, random.Random(seed), ["1", "2"], keypads, drawer, computers=1)
    table.setup()
    rng = random.Random(seed)
    while drawer.checked < 300 and (controller.stage != "over" or controller.notices):
        if rng.random() < 0.03 and not controller.between.overlays and controller.stage == "game":
            for key in rng.choice([("back", "right", "right", "back"), ("left", "ok")]):
                table.press("host", key)  # the board check's pages, or the rule help
        table.turn()
    assert drawer.checked >= 300 and drawer.overlays > 0
