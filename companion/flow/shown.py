"""What the table has been shown (rules.md 11.4.1): a decision may be taken back while nothing it made public has
reached a screen.

What one record line made public (a round's ballots, a count, a turned card) rides on the notices that tell it,
queued behind the line's own board notice (``narration.py``). A notice is *seen* once it is the top one: the LCD
shows it, and the phones and the table view show the top notice whatever overlay the LCD has open, so that is the
earliest moment anyone could have read it. Until then the engine knows the fact but nobody at the table does, and
every other way out shows the state as it was before it: the board check, the year so far, the phones and the
table view read :func:`shown_snapshot`, ``run --record`` and ``export`` stop at :func:`public_length`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine import Count, snapshot
from ..engine.changes import (
    AdvisorBack,
    BuildPalace,
    Change,
    MoveAdvisor,
    MoveHouses,
    PlaceHouses,
    PutMarkers,
    TakeAdvisor,
    TurnCard,
    change_record,
)
from ..engine.undo import Revealed
from .game import Step
from .narration import Notice

if TYPE_CHECKING:
    from .context import Context


def note_shown(notices: Sequence[Notice]) -> None:
    """The top notice is on every screen now."""
    if notices:
        notices[0].seen = True


def unseen(notices: Sequence[Notice]) -> set[tuple[int, Revealed]]:
    """What pending notices will make public, and from which line, that no screen has shown yet."""
    return {(n.line, r) for n in notices if not n.seen and n.line is not None for r in n.reveals}


def shown_of(step: Step, notices: Sequence[Notice]) -> list[Revealed]:
    """What of ``step``'s reveals the table has been shown (a notice once read is gone, so shown unless pending)."""
    hidden = unseen(notices)
    return [r for r in step.reveals if (step.length, r) not in hidden]


def hidden_steps(ctx: Context) -> list[tuple[Step, list[Revealed]]]:
    """The recent steps with something made public that no screen has shown yet, each with what (newest first)."""
    hidden = unseen(ctx.between.notices)
    found = []
    for step in reversed(ctx.history):
        items = [r for r in step.reveals if (step.length, r) in hidden]
        if items:
            found.append((step, items))
        elif step.reveals:
            break  # everything before a line whose reveals were shown has been shown
    return found


def open_step(history: Sequence[Step], notices: Sequence[Notice]) -> Step | None:
    """The last decision, if it made something public and none of it has been shown: it may still be taken back,
    so no shuffle is drawn after it yet (a chance line is never drawn for a decision that may vanish)."""
    if not history:
        return None
    step = history[-1]
    return step if step.reveals and not shown_of(step, notices) else None


def shown_snapshot(ctx: Context) -> dict[str, Any]:
    """The public snapshot (record-format.md 2) as the table has been shown it: the one answer every public channel
    draws (the phones, the table view, the board check, the year so far). While a line's reveals are still to come,
    it is the snapshot before that line with only the board changes the table has been told to make: the line's own
    (its board notice is on the screen), and what the rules did after each of its counts once that count's notice
    has reached the top. Where the year stands is as it was before the line: the voting order and the cards turned,
    the area being elected, the markers lying on the areas and in hand, the phase, the round and the year, nobody
    awaited. What the rules did after an unseen count (an advisor gone neutral on a tie, the Quarantia's advisors
    back home, the winner's houses, a turned card, a round revealed, the year's end) shows nowhere before its notice:
    the decision may still be taken back (rules.md 11.4.1), and nobody may read what it would cause first."""
    state = ctx.state
    assert state is not None
    pending = hidden_steps(ctx)
    if not pending:
        return snapshot(state)
    oldest, _items = pending[-1]
    shown = snapshot(oldest.before)
    shown["awaiting"] = []
    hidden = unseen(ctx.between.notices)
    players = oldest.before.players
    for step in ctx.history[ctx.history.index(oldest) :]:
        for event in told(step, hidden):
            change_board(shown, change_record(event, players))
    return shown


def told(step: Step, hidden: set[tuple[int, Revealed]]) -> list[Change]:
    """The board changes of ``step`` the table has been told to make: its events up to the first thing it made public
    that no screen has shown yet (a count, a round's ballots, a card), those that change the board. The events make
    public what ``step.reveals`` lists, in its order (``engine.undo.revealed_items``)."""
    found: list[Change] = []
    made = 0
    for event in step.events:
        if (
            isinstance(event, Count)
            or type(event) is TurnCard
            or (type(event) is PutMarkers and (made == 0 or step.reveals[made - 1][0] != "ballots"))
        ):
            made += 1
            if (step.length, step.reveals[made - 1]) in hidden:
                break
        elif isinstance(event, BOARD_CHANGES):
            found.append(event)
    return found


BOARD_CHANGES = (PlaceHouses, MoveHouses, BuildPalace, TakeAdvisor, MoveAdvisor, AdvisorBack)


def change_board(shown: dict[str, Any], change: dict[str, Any]) -> None:
    """One board change (record-format.md 4's form) made to a snapshot's districts, advisors and supplies."""
    player, do = change["player"], change["do"]
    supply = shown["players"][player]
    if do in ("houses", "move", "palace"):
        district = shown["districts"][change["district" if do != "move" else "to"]]
        houses = district["houses"]
        if do == "houses":
            _add(houses, player, change["count"])
            supply["houses"] -= change["count"]
        elif do == "move":
            _add(shown["districts"][change["from"]]["houses"], player, -change["count"])
            _add(houses, player, change["count"])
        else:
            _add(houses, player, -change["houses_back"])
            supply["houses"] += change["houses_back"]
            district["palaces"].append(player)
            supply["palaces"] -= 1
        return
    advisors, advisor = shown["advisors"], change["advisor"]
    if do == "advisor":
        supply["rings"] -= 1
        if advisor == "quarantia":
            advisors[advisor] = sorted(
                [*advisors[advisor], {"controller": player, "area": change["area"]}],
                key=lambda standing: (standing["controller"], standing["area"]),
            )
        else:
            advisors[advisor] = {"controller": player, "area": change["area"]}
    elif do == "advisor_move":
        advisors[advisor] = {"controller": player, "area": change["to"]}
    elif do == "advisor_back":
        supply["rings"] += 1
        if advisor == "quarantia":
            gone = {"controller": player, "area": change["from"]}
            advisors[advisor] = [standing for standing in advisors[advisor] if standing != gone]
        else:
            advisors[advisor] = None


def _add(houses: dict[str, int], player: str, count: int) -> None:
    left = houses.get(player, 0) + count
    if left:
        houses[player] = left
    else:
        houses.pop(player, None)


def public_length(screen: dict[str, Any], length: int) -> int:
    """How many of a stored game's ``length`` lines may leave the device (``export``, ``run --record``): all but
    those from the first line with something made public that its saved screen (:func:`.notice_store.screen_state`)
    says no screen has shown yet."""
    try:
        pending = [
            n["line"] for n in screen.get("notices", []) if n.get("reveals") and not n.get("seen") and "line" in n
        ]
        return min([length, *(line for line in pending if isinstance(line, int))])
    except (AttributeError, TypeError):  # a damaged screen row (restore_screen shows none of it): as an older save's
        return length
