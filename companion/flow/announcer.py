"""What the table hears: the public moment the game is at, as sentences for the voice, said once when it begins.

A moment is read from public facts only: the game's public state and what the shared screen is about, never the
screen itself (with ballots one at a time it can be a player's private menu), never a key, a keypad's keying or a
private view. So two games that differ only in a secret give the same moments, in the same order, until the secret
is revealed (rules.md 11), and the timing of what is said cannot carry a keypress either: a press that changes
nothing public says nothing. The announcer remembers the last moment's key, so paging, overlays and repeated
screens say nothing new.

The moments (docs/sound.md, "What it says today"):

- a notice on top (the one every screen shows: the settle marks it seen, so nothing is said before the table
  could read it): its spoken form, built beside its screen text (``Notice.spoken``); the key is the notice's
  ``entry``, which its ticks and parts keep, so paging its parts or a player's tick says nothing, and the next
  notice on top is said; a computer
  player's move that joins the count on top (computer_players.py) is said when it joins;
- a ballot one at a time: whose secret ballot it is and that the others look away (the gate; never the player's own
  menu that follows it, which the same key covers);
- ballots on keypads: the round, once;
- a person's decision in an election: who decides, and what (the question their menu asks);
- the end of the game (rules.md 9.4): the winners as the game-over screen names them.

Nothing is said while the resume offer is open: the game it offers is said once the host goes on.

Said for the ear, not read off the screen (docs/sound.md): each moment says the fewest words that let the table act
and leaves the detail on the screen. A moment can begin without a word (``quiet``: the board notice of a person's
own decision, which they just chose; a decision whose player the count just named): the table's repeat key (a held
left, app.py) says any moment again in full (:meth:`Announcer.again`). The App hands each utterance over with the
moment's key (``said_key``) and whether it adds to the moment said before (``joins``): the speaker cuts an
utterance only for a later one of the same moment (hardware/speaker.py), so a computer player's move never cuts
the count it acts on, and a new moment waits for the one before. No digit is ever said (:func:`speakable`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from ..i18n import _, pgettext, spoken_number
from .board_text import full_stop, player_name
from .modes import DECISION, GAME_OVER, KEYPAD_BALLOT, NOTICES, PRIVATE_BALLOT, AbandonConfirm, ResumeOffer
from .views import winners_text

if TYPE_CHECKING:
    from .context import Context


class Moment(NamedTuple):
    key: tuple[object, ...]  # the same key: the same moment, said once
    sentences: tuple[str, ...]
    opens: int | None = None  # how many of its sentences it begins with (None: all; 0: quiet); the repeat key says all


def speakable(text: str) -> str:
    """No digit reaches the voice: a number a text still shows (a refusal's round) is said as a word."""
    return re.sub(r"\d+", lambda match: spoken_number(int(match.group())), text)


def public_moment(ctx: Context) -> Moment | None:
    state = ctx.state
    if state is None or any(type(overlay) in (ResumeOffer, AbandonConfirm) for overlay in ctx.between.overlays):
        return None
    mode = ctx.mode()
    if mode is NOTICES:
        notice = ctx.between.notices[0]
        opens = 0 if notice.quiet else 1 if notice.tag == "reminder" else None  # a reminder page: its title
        return Moment(("notice", notice.entry), notice.spoken or (notice.title,), opens)
    if mode is GAME_OVER:
        winners = [state.players[seat] for seat in state.winners]
        return Moment(("over", len(ctx.record)), (winners_text(winners),))
    if mode is PRIVATE_BALLOT:
        awaited = [a.player for a in state.awaiting() if a.player not in ctx.bots]
        if not awaited:
            return None
        name = player_name(state.players[awaited[0]])
        sentences = (pgettext("spoken", "{name}'s secret ballot. Everyone else, look away.").format(name=name),)
        return Moment(("gate", len(ctx.record), awaited[0]), sentences)
    if mode is KEYPAD_BALLOT:
        first = state.round == 1  # the year's first round says how; the table knows by the next
        said = pgettext("spoken", "Round {n}: choose on your keypads.") if first else pgettext("spoken", "Round {n}.")
        return Moment(("keypads", state.year, state.round), (said.format(n=spoken_number(state.round)),))
    if mode is DECISION:
        seat = state.awaiting()[0].player
        if seat in ctx.bots:
            return None
        menu = ctx.between.keying.menus[0]  # the one the screen shows, built once for the decision (not a submenu)
        decides = _("{name} decides").format(name=player_name(state.players[seat]))
        asks = (full_stop(decides), full_stop(menu.spoken or menu.title))
        return Moment(("decide", len(ctx.record), seat), asks, None if menu.spoken else 1)  # a palace's cost: news
    return None


def named(ctx: Context, moment: Moment) -> set[int]:
    """The seats a moment said just now names as deciding: a count's winners and runners-up (its sentence says
    what each decides), a decision's player."""
    state = ctx.state
    if state is None:
        return set()
    if moment.key[0] == "decide":
        return {state.awaiting()[0].player}
    count = state.current_count() if state.phase == "election" else None
    notice = ctx.between.notices[0] if moment.key[0] == "notice" else None
    if count is None or notice is None or notice.tag != "count":
        return set()
    return {*count.first, *count.runners_up} | ({count.winner} if count.winner is not None else set())


class Announcer:
    """Which sentences to hand the voice at each step, and for which moment (``said_key``; ``joins``: they add to
    the moment said before, a computer player's move under its count)."""

    def __init__(self) -> None:
        self._said: tuple[object, ...] | None = None
        self._heard = 0  # how many of its sentences were said
        self._named: set[int] = set()  # the seats the last count or decision said named as deciding
        self.said_key: tuple[object, ...] | None = None
        self.joins = False

    def update(self, ctx: Context) -> tuple[str, ...]:
        """The sentences to say now: those of a moment that has just begun, or those that have joined the moment
        (a computer player's move under its count), else none."""
        moment = public_moment(ctx)
        if moment is None:
            return ()
        same = moment.key == self._said
        heard = self._heard if same else 0  # the same moment, grown: only what joined it
        self._said, self._heard = moment.key, len(moment.sentences)
        if same:
            said = moment.sentences[heard:]
        elif self._named_already(ctx, moment):
            said = ()
        else:
            said = moment.sentences[: moment.opens]
        said = tuple(speakable(sentence) for sentence in said)
        if not said:
            return ()
        self.said_key, self.joins = moment.key, heard > 0
        if not same and (found := named(ctx, moment)):  # a count names its deciders anew; a decision adds one
            self._named = found | (self._named if moment.key[0] == "decide" else set())
        return said

    def again(self, ctx: Context) -> tuple[str, ...]:
        """The repeat key: the moment the table is at, in full, whatever was said of it before."""
        moment = public_moment(ctx)
        if moment is None:
            return ()
        self._said, self._heard = moment.key, len(moment.sentences)
        self.said_key, self.joins = moment.key, False
        return tuple(speakable(sentence) for sentence in moment.sentences)

    def _named_already(self, ctx: Context, moment: Moment) -> bool:
        """A decision whose player the count said just before named (with what they decide): the screen asks it.
        A palace's question is always said: what it costs is news."""
        return moment.key[0] == "decide" and moment.opens == 1 and named(ctx, moment) <= self._named
