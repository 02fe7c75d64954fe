"""What the table has been shown (rules.md 11.4.1): a decision may be taken back while nothing it made public has
reached a screen.

What one record line made public (a round's ballots, a count, a turned card) rides on the notices that tell it,
queued behind the line's own board notice (``narration.py``). A notice is *seen* once it is the top one: the LCD
shows it, and the phones and the table view show the top notice whatever overlay the LCD has open, so that is the
earliest moment anyone could have read it. Until then the engine knows the fact but nobody at the table does, and
every other way out shows the state as it was before it: the board check, the year so far, the phones and the
table view read :attr:`Seen.board`, ``run --record`` and ``export`` stop at :func:`public_length`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
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
    from ..engine import State
    from .seats import Seat


def unseen(notices: Sequence[Notice]) -> set[tuple[int, Revealed]]:
    """What pending notices will make public, and from which line, that no screen has shown yet."""
    return {(n.line, r) for n in notices if not n.seen and n.line is not None for r in n.reveals}


@dataclass(frozen=True, eq=False)
class Seen:
    """What the table has been shown, as one value: built once per step, when the step has settled (the controller's
    ``seen``), and read by everything that shows or tells the game: the board check and the year so far on the LCD,
    the phones and the table view, the undo key and the undo itself, the record as far as it may leave the device
    (``run --record``; ``export`` reads the same from the saved screen: :func:`public_length`).
    Nothing works it out again, so no two of them can disagree. Its parts are worked out on first use (a step where
    nobody looks at the board draws no snapshot) from what it was built with: the game, its steps, and what of
    them the pending notices have not shown yet."""

    state: State | None = None
    history: tuple[Step, ...] = ()
    hidden: frozenset[tuple[int, Revealed]] = frozenset()  # what pending notices will make public, not shown yet
    bots: frozenset[Seat] = frozenset()

    def of(self, step: Step) -> list[Revealed]:
        """What of ``step``'s reveals the table has been shown (a notice once read is gone, so shown unless pending)."""
        return [r for r in step.reveals if (step.length, r) not in self.hidden]

    @cached_property
    def hidden_steps(self) -> list[tuple[Step, list[Revealed]]]:
        """The recent steps with something made public that no screen has shown yet, each with what (newest first)."""
        found = []
        for step in reversed(self.history):
            items = [r for r in step.reveals if (step.length, r) in self.hidden]
            if items:
                found.append((step, items))
            elif step.reveals:
                break  # everything before a line whose reveals were shown has been shown
        return found

    @cached_property
    def board(self) -> dict[str, Any]:
        """The public snapshot (record-format.md 2) as the table has been shown it. While a line's reveals are still
        to come, it is the snapshot before that line with only the board changes the table has been told to make:
        the line's own (its board notice is on the screen), and what the rules did after each of its counts once
        that count's notice has reached the top. Where the year stands is as it was before the line: the voting
        order and the cards turned, the area being elected, the markers lying on the areas and in hand, the phase,
        the round and the year, nobody awaited. What the rules did after an unseen count (an advisor gone neutral
        on a tie, the Quarantia's advisors back home, the winner's houses, a turned card, a round revealed, the
        year's end) shows nowhere before its notice: the decision may still be taken back (rules.md 11.4.1), and
        nobody may read what it would cause first."""
        assert self.state is not None
        pending = self.hidden_steps
        if not pending:
            return snapshot(self.state)
        oldest, _items = pending[-1]
        shown = snapshot(oldest.before)
        shown["awaiting"] = []
        players = oldest.before.players
        for step in self.history[self.history.index(oldest) :]:
            for event in told(step, self.hidden):
                change_board(shown, change_record(event, players))
        return shown

    @cached_property
    def open_chain(self) -> tuple[list[Step], Step | None, list[Revealed]]:
        """The steps an undo would take back, newest first, up to the human's (rules.md 11.4.2); if it stops short of
        one, the step whose shown reveals stop it (and them), or none (only computer players' decisions, or
        nothing). Words nothing: the undo key asks it on every frame, the sentence is built only where it is shown
        (undo_chain.py)."""
        chain: list[Step] = []
        for step in reversed(self.history):
            shown = self.of(step)
            if shown:
                return chain, step, shown
            chain.append(step)
            if step.seat not in self.bots:
                return chain, None, []
        return chain, None, []

    def public_length(self, length: int) -> int:
        """How many of the record's ``length`` lines may leave the device: not from the first line with something
        made public that no screen has shown yet (as :func:`public_length` reads it from a saved screen)."""
        return min([length, *(line for line, _item in self.hidden)])


def table_has_seen(
    state: State | None, history: Sequence[Step], notices: Sequence[Notice], bots: Collection[Seat]
) -> Seen:
    """What the table has been shown once a step has settled (the top notice marked as on every screen)."""
    return Seen(state, tuple(history), frozenset(unseen(notices)), frozenset(bots))


def open_step(history: Sequence[Step], notices: Sequence[Notice]) -> Step | None:
    """The last decision, if it made something public and none of it has been shown: it may still be taken back,
    so no shuffle is drawn after it yet (a chance line is never drawn for a decision that may vanish). Asked while a
    step settles, before what the table has seen is built."""
    if not history:
        return None
    step = history[-1]
    hidden = unseen(notices)
    return step if step.reveals and all((step.length, r) in hidden for r in step.reveals) else None


def told(step: Step, hidden: Collection[tuple[int, Revealed]]) -> list[Change]:
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
