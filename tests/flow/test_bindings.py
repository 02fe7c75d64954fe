"""A mode's keys are declared once, as bindings (``context.Binding``): the same rows route a key and name the host's
keys on the screen (tests/flow/test_host_keys.py presses every one). Here: whose key a binding takes, that every
overlay answers every host key (none falls through to the game beneath it), that a pad's key an overlay does not
bind reaches the keypad ballot beneath, and that a binding's part turn comes before what the key does."""

from __future__ import annotations

import importlib
import pkgutil
import random

from companion.flow import modes
from companion.flow.autoplay import Table
from companion.flow.composition import keys_of
from companion.flow.context import Binding, Mode, close
from companion.flow.controller import Controller, Effect
from companion.flow.modes import (
    DECISION,
    GAME_OVER,
    KEYPAD_BALLOT,
    NOTICES,
    PRIVATE_BALLOT,
    SETUP,
    BoardCheck,
    Help,
    NextGame,
    ResumeOffer,
    UndoConfirm,
)
from companion.flow.modes.evening import AbandonConfirm
from companion.flow.modes.game_mode import GameMode
from companion.flow.modes.game_over import EndingPages
from companion.flow.modes.this_year import ThisYear
from companion.flow.paging import Parts
from companion.flow.routing import binding_of
from companion.web.takeover import TakeoverConfirm
from hardware.events import InputEvent
from tests.flow.builders import press, read_notices, table

HOST_KEYS = [InputEvent("host", key) for key in ("ok", "left", "right", "back")]


def test_a_binding_takes_the_keys_of_whom_it_names() -> None:
    ok = Binding("ok", close)
    assert ok.takes(InputEvent("host", "ok"))
    assert not ok.takes(InputEvent("1", "ok")), "the host's, not a pad's"
    assert not ok.takes(InputEvent("host", "ok", "hold")), "a held ok is not a pressed one"
    held = Binding("hold:back", close)
    assert held.takes(InputEvent("host", "back", "hold")) and not held.takes(InputEvent("host", "back"))
    pads = Binding("ok", close, by="pads")
    assert pads.takes(InputEvent("2", "ok")) and not pads.takes(InputEvent("host", "ok"))
    assert pads.takes(InputEvent("2", "ok", "hold")), "a pad's held key is its key (a keypad's long press)"
    one = Binding("any", close, by="2")
    assert one.takes(InputEvent("2", "area:castello")) and not one.takes(InputEvent("3", "ok"))
    assert not one.takes(InputEvent("host", "ok"))
    any_held = Binding("hold:any", close)
    assert any_held.takes(InputEvent("host", "ok", "hold")) and not any_held.takes(InputEvent("host", "ok"))
    assert Binding("any", close).takes(InputEvent("host", "back", "hold")), "any: held keys too (a question's no)"


def test_a_pads_held_key_can_be_bound_apart_from_its_press() -> None:
    """A screen a player opens with a long press (a newcomer's trial of the shape needed one): a row naming a pad's
    held key takes that alone, and a plain row still takes the held key when no row before it names it held."""
    held_right = Binding("hold:right", close, by="pads")
    assert held_right.takes(InputEvent("2", "right", "hold"))
    assert not held_right.takes(InputEvent("2", "right")), "a press is not a hold"
    assert not held_right.takes(InputEvent("host", "right", "hold")), "the pads', not the host's"
    assert Binding("right", close, by="pads").takes(InputEvent("2", "right", "hold")), "still its plain key"
    assert Binding("hold:any", close, by="pads").takes(InputEvent("2", "ok", "hold"))
    assert not Binding("hold:any", close, by="pads").takes(InputEvent("2", "ok"))


def overlays(controller: Controller) -> list[Mode]:
    """Every kind of overlay, and the board check on each of its pages (the sound page and the way out included)."""
    checks = []
    for page in range(-1, BoardCheck(0).end + 1):
        check = BoardCheck(0)
        check.page = page
        checks.append(check)
    takeover = TakeoverConfirm("red", None, False, lambda give: None)
    armed = TakeoverConfirm("red", None, False, lambda give: None)
    armed.armed = True
    return [
        *checks,
        Help(),
        UndoConfirm(controller.history[-1:]),
        NextGame(),
        AbandonConfirm(),
        ResumeOffer(1, "2026-11-24T19:40:00Z", 1),
        EndingPages(1),
        ThisYear("1"),
        takeover,
        armed,
    ]


def test_every_overlay_answers_every_host_key() -> None:
    """On an overlay the host's keys are the overlay's: one it left unbound would do nothing at all, or, were it let
    through, act on the game hidden beneath (a decision's menu the table cannot see)."""
    controller = table().controller
    read_notices(controller)
    desk = controller.desk()
    for overlay in overlays(controller):
        held = [InputEvent("host", "back", "hold")] if overlay.holds_back else []
        for event in (*HOST_KEYS, *held):
            assert binding_of(overlay, desk, event) is not None, (type(overlay).__name__, event)
        if isinstance(overlay, BoardCheck):  # on every page, any other host key closes it (a script's area key)
            other = binding_of(overlay, desk, InputEvent("host", "area:castello"))
            assert other is not None and other.does(desk, InputEvent("host", "area:castello"), None) is None
        named = {key for key, _label in keys_of(overlay, desk)}
        assert named, f"{type(overlay).__name__} names none of its keys"


def test_the_list_of_overlays_holds_every_overlay_there_is() -> None:
    """The test above checks only the overlays :func:`overlays` lists: a new one (a screen a player opens from their
    pad, say) is named here until it is listed there. Every mode of companion/flow/modes and of the phones' takeover
    that is not one of the game's own modes is an overlay."""
    for found in pkgutil.iter_modules(modes.__path__):
        importlib.import_module(f"{modes.__name__}.{found.name}")

    def subclasses(kind: type) -> list[type]:
        return [sub for child in kind.__subclasses__() for sub in (child, *subclasses(child))]

    own = {type(mode) for mode in (SETUP, NOTICES, PRIVATE_BALLOT, KEYPAD_BALLOT, DECISION, GAME_OVER)} | {GameMode}
    every = {kind for kind in subclasses(Mode) if kind.__module__.startswith(("companion.flow.", "companion.web."))}
    listed = {type(overlay) for overlay in overlays(table().controller)}
    assert TakeoverConfirm in every and ThisYear in listed, "the search finds the overlays"
    assert every - own - listed == set(), "list these in overlays() above"


def test_a_pad_key_the_overlay_does_not_bind_reaches_the_keypad_ballot_beneath() -> None:
    """The year so far binds only its opener's keys: another player keys their ballot under it, on their own pad,
    and the opener's next key closes it."""
    controller = table("keypads").controller
    read_notices(controller)
    assert controller.mode() is KEYPAD_BALLOT
    for key in ("area:castello", "marker:3", "ok"):
        press(controller, "1", key)  # red locks in: red's back has nothing left to step back from
    press(controller, "1", "back")
    assert controller.screen().tags == ("this-year",)
    controller.take_effects()
    press(controller, "2", "area:dorsoduro")
    assert Effect("led", "2", "area:dorsoduro", "on") in controller.take_effects(), "blue keys on beneath"
    assert controller.screen().tags == ("this-year",), "and the year so far stays for red"
    press(controller, "1", "ok")
    assert not controller.overlays


def test_the_way_out_of_the_board_check_in_parts_reads_on_before_ok_closes_it() -> None:
    """At 160x128 the page that says how to give the game up is two parts: ok (a binding that turns a part first)
    shows the second before it closes the board check, and the footer says so."""
    controller = Controller(random.Random(1), parts=Parts((160, 128)))
    Table(controller, random.Random(1), ["1", "2", "3"], False).setup()
    read_notices(controller)
    press(controller, "host", "back")
    for _press in range(50):  # right turns a board page's parts, then the page
        if controller.screen().tags == ("abandon",):
            break
        press(controller, "host", "right")
    shown = controller.screen()
    assert shown.tags == ("abandon",) and shown.part is not None and shown.part[1] > 1, shown.part
    assert shown.footer == "ok: more"
    for _part in range(shown.part[1] - 1):
        press(controller, "host", "ok")
        assert controller.screen().tags == ("abandon",), "ok showed the next part"
    press(controller, "host", "ok")
    assert not controller.overlays, "on the last part ok closes"
