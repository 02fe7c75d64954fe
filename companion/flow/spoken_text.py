"""What the voice says of a count and a year's end (flow/announcer.py), beside the screen's texts in narration.py and
from the same facts: numbers as words, each a sentence (docs/sound.md, "What it says today")."""

from __future__ import annotations

from ..engine import State
from ..i18n import N_, _, and_list, npgettext, pgettext, spoken_number
from .board_text import player_name

SPOKEN_CONDITIONS = {  # the same for the ear (pgettext "spoken")
    "six_districts": N_("a palace in all six districts"),
    "seven_in_five": N_("seven palaces in five districts"),
    "eight_in_four": N_("eight palaces in four districts"),
}


def spoken_votes(name: str, votes: int, extra: int) -> str:
    """One player's votes at a count for the ear (rules.md 6.1, 6.2): how many, and how many from advisors."""
    text = npgettext("spoken", "{name} has one vote", "{name} has {n} votes", votes).format(
        name=name, n=spoken_number(votes)
    )
    if extra and votes > extra:
        text += npgettext(
            "spoken",
            ", {markers} from markers and one from an advisor",
            ", {markers} from markers and {n} from advisors",
            extra,
        ).format(markers=spoken_number(votes - extra), n=spoken_number(extra))
    elif extra:
        text += npgettext("spoken", ", from one advisor", ", from {n} advisors", extra).format(n=spoken_number(extra))
    return text + "."


def spoken_standing(state: State, seat: int) -> str:
    """:func:`standing_text` for the ear, as a sentence with the player's name."""
    name = player_name(state.players[seat])
    met = state.victory_conditions(seat)
    if met:
        return f"{name}: {and_list(_(SPOKEN_CONDITIONS[m]) for m in met)}."
    palaces, districts = state.palaces_of(seat), state.districts_of(seat)
    if palaces:
        text = npgettext("spoken", "{name} has one palace", "{name} has {n} palaces in {d} districts", palaces).format(
            name=name, n=spoken_number(palaces), d=spoken_number(districts)
        )
    else:
        text = pgettext("spoken", "{name} has no palace yet").format(name=name)
    reachable = [(more, condition) for condition, more in state.palaces_to_go(seat) if more is not None]
    if reachable:
        more, condition = min(reachable)
        text += npgettext("spoken", "; one more for {condition}", "; {n} more for {condition}", more).format(
            n=spoken_number(more), condition=_(SPOKEN_CONDITIONS[condition])
        )
    return text + "."
