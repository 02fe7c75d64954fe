"""What the voice says of a count, a round's reveal and a year's end (flow/announcer.py), beside the screen's texts
in narration.py and from the same facts, written for the ear: the fewest words that let the table act, the detail
left on the screen (docs/sound.md, "What it says"). Numbers as words, each a sentence.

- a count: where, who won and what they decide (rules.md 6.3 to 6.5, 10.2 to 10.5), never the votes; a computer
  that wins a district is not told its advisor and houses, as its own move, said right after, names them;
- a count's board changes: a player's Quarantia advisors going back in one sentence (10.3);
- a reveal: how many markers each player lays where (4.3), never which round (its heading shows it);
- a year's end: who leads (9.2: most palaces) and where next year begins (5.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Count, State
from ..engine.areas import AREA_NAMES, QUARANTIA
from ..engine.changes import AdvisorBack, Change, PutMarkers
from ..i18n import and_list, npgettext, pgettext, spoken_number
from .board_text import player_name, spoken_change, spoken_seat


def spoken_count(count: Count, players: Sequence[str], computer_colours: Sequence[str] = ()) -> str:
    """One sentence: the area, who won and what they (and a runner-up) decide. A computer player's win in a
    district leaves out what it wins (the advisor and two houses): its move joins the count at once and says which
    advisor goes where and how many houses it places (computer_players.py), so the table hears each once."""
    area = AREA_NAMES[count.area]
    name = player_name(players[count.winner]) if count.winner is not None else ""
    runners = and_list(player_name(players[seat]) for seat in count.runners_up)
    if count.winner is None and not count.first:
        return pgettext("spoken", "{area}: nobody voted.").format(area=area)
    if count.winner is None:
        tied = and_list(player_name(players[seat]) for seat in count.first)
        if count.area == QUARANTIA:
            text = pgettext("spoken", "Quarantia: {names} tie, each may move two houses.")
        else:
            text = pgettext("spoken", "{area}: {names} tie, two houses each.")
        return text.format(area=area, names=tied)
    if count.area == QUARANTIA:
        text = pgettext("spoken", "Quarantia: {name} wins two advisors.")
        if len(count.runners_up) == 1:
            text = pgettext("spoken", "Quarantia: {name} wins two advisors, {runner} one.")
        elif count.runners_up:
            text = pgettext("spoken", "Quarantia: {name} wins two advisors, {runners} may move a house each.")
        return text.format(name=name, runner=runners, runners=runners)
    if players[count.winner] in computer_colours:
        text = pgettext("spoken", "{area}: {name} wins.")
        if len(count.runners_up) == 1:
            text = pgettext("spoken", "{area}: {name} wins, {runner} one house.")
        elif count.runners_up:
            text = pgettext("spoken", "{area}: {name} wins, {runners} one house each.")
        return text.format(area=area, name=name, runner=runners, runners=runners)
    text = pgettext("spoken", "{area}: {name} wins the advisor and two houses.")
    if len(count.runners_up) == 1:
        text = pgettext("spoken", "{area}: {name} wins the advisor and two houses, {runner} one house.")
    elif count.runners_up:
        text = pgettext("spoken", "{area}: {name} wins the advisor and two houses, {runners} one house each.")
    return text.format(area=area, name=name, runner=runners, runners=runners)


def spoken_changes(
    changes: Sequence[Change], players: Sequence[str], computer_colours: Sequence[str] = ()
) -> tuple[str, ...]:
    """A count's board changes, one sentence a change (board_text.py's ``spoken_change``), except that one
    player's Quarantia advisors going back, one after another, are one sentence ("Green's Quarantia advisors in
    Cannaregio and San Polo go back."): the same words twice say nothing new."""
    said: list[str] = []
    run: list[AdvisorBack] = []

    def flush() -> None:
        if len(run) > 1:
            text = pgettext("spoken", "{name}'s Quarantia advisors in {areas} go back.")
            areas = and_list(AREA_NAMES[back.source] for back in run)
            said.append(text.format(name=spoken_seat(players[run[0].player], computer_colours), areas=areas))
        else:
            said.extend(spoken_change(back, players, computer_colours) for back in run)
        run.clear()

    for change in changes:
        if isinstance(change, AdvisorBack) and change.advisor == QUARANTIA:
            if run and change.player != run[0].player:
                flush()
            run.append(change)
            continue
        flush()
        said.append(spoken_change(change, players, computer_colours))
    flush()
    return tuple(said)


def spoken_laid(markers: Sequence[PutMarkers], players: Sequence[str]) -> str:
    """A round's reveal in one sentence, area by area in the order the screen lists them: how many markers each
    player lays there ("Markers: Dorsoduro Red four, Blue three; Castello Green four."). It opens with the word for
    the pieces, so a count heard is never taken for votes, and not with the round: the round's start said it, and
    the screen's heading shows it."""
    areas: dict[int, list[str]] = {}
    for change in markers:
        laid = pgettext("spoken", "{name} {n}").format(
            name=player_name(players[change.player]), n=spoken_number(change.count)
        )
        areas.setdefault(change.area, []).append(laid)
    where = [
        pgettext("spoken", "{area} {laid}").format(
            area=pgettext("spoken", "the Quarantia") if area == QUARANTIA else AREA_NAMES[area], laid=", ".join(laid)
        )
        for area, laid in areas.items()
    ]
    return pgettext("spoken", "Markers: {areas}.").format(areas="; ".join(where))


def spoken_leaders(state: State) -> str:
    """Who leads at a year's end: the most palaces (rules.md 9.2 and 9.4's first measure), or nobody yet."""
    palaces = [state.palaces_of(seat) for seat in range(len(state.players))]
    most = max(palaces)
    if most == 0:
        return pgettext("spoken", "Nobody has a palace yet.")
    leaders = [player_name(state.players[seat]) for seat, n in enumerate(palaces) if n == most]
    if len(leaders) == 1:
        text = npgettext("spoken", "{name} leads with one palace.", "{name} leads with {n} palaces.", most)
    else:
        text = npgettext("spoken", "{name} lead with one palace each.", "{name} lead with {n} palaces each.", most)
    return text.format(name=and_list(leaders), n=spoken_number(most))


def spoken_year_begins(year: int, area: int) -> str:
    """Where a year begins (5.2: its first card); the Quarantia has its own text, as it takes an article where a
    district takes none ("in der Quarantia", "nella Quarantia")."""
    if area == QUARANTIA:
        return pgettext("spoken", "Year {year} begins in the Quarantia.").format(year=spoken_number(year))
    return pgettext("spoken", "Year {year} begins in {area}.").format(year=spoken_number(year), area=AREA_NAMES[area])


def spoken_next_year(state: State) -> tuple[str, ...]:
    """Where next year begins, once its first card is turned (5.2), unless the game ends now."""
    turned = state.next_year_turned()
    if state.is_over or not turned:
        return ()
    return (spoken_year_begins(state.year + 1, turned[0]),)
