"""Decision mode (rules.md 10): the acting player's menu, left/right/ok, back up a level; nobody else's keys count."""

from __future__ import annotations

from companion.engine import State
from companion.flow.modes import DECISION
from tests.flow.builders import press, resumed_at


def deciding(state: State, decision: str | None = None) -> bool:
    """An election awaits a player's decision (of kind ``decision``, if given)."""
    awaited = state.awaiting() if state.phase == "election" else ()
    return bool(awaited) and decision in (None, awaited[0].decision)


def test_only_the_acting_player_moves_the_menu_and_ok_decides() -> None:
    controller = resumed_at(deciding)
    assert controller.mode() is DECISION
    view = controller.screen()
    actor = next(t for t in view.tags if t.startswith("decision:"))[9:]
    seat = controller.players.index(actor)
    other = controller.source_of((seat + 1) % 3)
    own = controller.source_of(seat)
    assert view.menu is not None and view.menu.cursor == 0
    press(controller, other, "right")
    assert controller.screen().menu == view.menu, "another player's pad does nothing"
    press(controller, own, "right")
    menu = controller.screen().menu
    assert menu is not None and menu.cursor == 1 % len(menu.options)
    length = len(controller.record)
    for _ in range(6):  # ok down the menu tree until a decision is made
        if len(controller.record) > length:
            break
        press(controller, own, "ok")
    assert len(controller.record) == length + 1 and f'"player": "{actor}"' in controller.record[-1]


def test_back_goes_up_a_level() -> None:
    controller = resumed_at(lambda state: deciding(state, "advisor"))
    assert controller.mode() is DECISION
    own = controller.source_of(controller.state.awaiting()[0].player)  # type: ignore[union-attr]
    top = controller.screen()
    press(controller, own, "ok")  # the first option opens a submenu (take control: where?)
    inner = controller.screen()
    assert inner.lines != top.lines and len(controller.keying.menus) == 2
    # back is offered where it does something ("back: up" on every list is cryptic)
    assert top.footer == "your pad: left/right, ok" and "back" not in top.footer
    assert inner.footer == "pad: left/right, ok, back"
    press(controller, own, "back")
    assert controller.screen() == top
