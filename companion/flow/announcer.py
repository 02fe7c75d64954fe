"""What the table hears: the public moment the game is at, as sentences for the voice, said once when it begins.

A moment is read from public facts only: the game's public state and what the shared screen is about, never the
screen itself (with ballots one at a time it can be a player's private menu), never a key, a keypad's keying or a
private view. So two games that differ only in a secret give the same moments, in the same order, until the secret
is revealed (rules.md 11), and the timing of what is said cannot carry a keypress either: a press that changes
nothing public says nothing. The announcer remembers the last moment's key, so paging, overlays and repeated
screens say nothing new.

The moments (docs/sound.md, "What it says today"):

- a notice on top (the one every screen shows: flow/shown.py marks it seen, so nothing is said before the table
  could read it): its spoken form, built beside its screen text (``Notice.spoken``); the key is the notice itself,
  by identity, so paging its parts or a player's tick says nothing, and the next notice on top is said; a computer
  player's move that joins the count on top (computer_players.py) is said when it joins;
- a ballot one at a time: whose secret ballot it is and that the others look away (the gate; never the player's own
  menu that follows it, which the same key covers);
- ballots on keypads: the round, once;
- a person's decision in an election: who decides, and what (the question their menu asks);
- the end of the game (rules.md 9.4): the winners as the game-over screen names them.

Nothing is said while the resume offer is open: the game it offers is said once the host goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..i18n import _, pgettext, spoken_number
from .board_text import full_stop, player_name
from .modes import DECISION, GAME_OVER, KEYPAD_BALLOT, NOTICES, PRIVATE_BALLOT, AbandonConfirm, ResumeOffer
from .narration import Notice
from .views import winners_text

if TYPE_CHECKING:
    from .context import Context


class Moment(NamedTuple):
    key: tuple[object, ...]  # the same key: the same moment, said once
    sentences: tuple[str, ...]


class Shown:
    """A notice as a moment's key: the same object, whatever its ticks or its part (a held reference, so its
    identity is never reused while it is the key)."""

    def __init__(self, notice: Notice) -> None:
        self.notice = notice

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shown) and other.notice is self.notice

    def __hash__(self) -> int:
        return id(self.notice)


def public_moment(ctx: Context) -> Moment | None:
    state = ctx.state
    if state is None or any(type(overlay) in (ResumeOffer, AbandonConfirm) for overlay in ctx.round.overlays):
        return None
    mode = ctx.mode()
    if mode is NOTICES:
        notice = ctx.round.notices[0]
        return Moment(("notice", Shown(notice)), notice.spoken or (notice.title,))
    if mode is GAME_OVER:
        winners = [state.players[seat] for seat in state.winners]
        return Moment(("over", len(ctx.record)), (winners_text(winners),))
    if mode is PRIVATE_BALLOT:
        awaited = [a.player for a in state.awaiting() if a.player not in ctx.bots]
        if not awaited:
            return None
        name = player_name(state.players[awaited[0]])
        sentences = (
            pgettext("spoken", "Round {n}.").format(n=spoken_number(state.round)),
            pgettext("spoken", "{name}'s secret ballot. Everyone else, look away.").format(name=name),
        )
        return Moment(("gate", len(ctx.record), awaited[0]), sentences)
    if mode is KEYPAD_BALLOT:
        said = pgettext("spoken", "Year {year}, round {n}. Choose on your keypads.")
        return Moment(
            ("keypads", state.year, state.round),
            (said.format(year=spoken_number(state.year), n=spoken_number(state.round)),),
        )
    if mode is DECISION:
        seat = state.awaiting()[0].player
        if seat in ctx.bots:
            return None
        menu = ctx.round.keying.menus[0]  # the one the screen shows, built once for the decision (not a submenu)
        decides = _("{name} decides").format(name=player_name(state.players[seat]))
        return Moment(("decide", len(ctx.record), seat), (full_stop(decides), full_stop(menu.spoken or menu.title)))
    return None


class Announcer:
    def __init__(self) -> None:
        self._said: tuple[object, ...] | None = None
        self._heard = 0  # how many of its sentences were said

    def update(self, ctx: Context) -> tuple[str, ...]:
        """The sentences to say now: those of a moment that has just begun, or those that have joined the moment
        (a computer player's move under its count), else none."""
        moment = public_moment(ctx)
        if moment is None:
            return ()
        heard = self._heard if moment.key == self._said else 0  # the same moment, grown: only what joined it
        self._said, self._heard = moment.key, len(moment.sentences)
        return moment.sentences[heard:]
