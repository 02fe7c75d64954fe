"""What the table hears: the public moment the game is at, as sentences for the voice, said once when it begins.

A moment is read from public facts only: the game's public state and what the shared screen is about, never the
screen itself (with ballots one at a time it can be a player's private menu), never a key, a keypad's keying or a
private view. So two games that differ only in a secret give the same moments, in the same order, until the secret
is revealed (rules.md 11), and the timing of what is said cannot carry a keypress either: a press that changes
nothing public says nothing. The announcer remembers the last moment's key, so paging, overlays and repeated
screens say nothing new.

Today it says one moment, whose words need nothing written for the ear: the end of the game (rules.md 9.4), the
winners as the game-over screen names them. The notices' spoken forms come next (docs/sound.md, "What is said").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .modes import GAME_OVER
from .views import winners_text

if TYPE_CHECKING:
    from .controller import Controller


class Moment(NamedTuple):
    key: tuple[object, ...]  # the same key: the same moment, said once
    sentences: tuple[str, ...]


def public_moment(ctx: Controller) -> Moment | None:
    state = ctx.state
    if state is None or ctx.mode() is not GAME_OVER:
        return None
    winners = [state.players[seat] for seat in state.winners]
    return Moment(("over", len(ctx.record)), (winners_text(winners),))


class Announcer:
    def __init__(self) -> None:
        self._said: tuple[object, ...] | None = None

    def update(self, ctx: Controller) -> tuple[str, ...]:
        """The sentences to say now: those of a moment that has just begun, else none."""
        moment = public_moment(ctx)
        if moment is None or moment.key == self._said:
            return ()
        self._said = moment.key
        return moment.sentences
