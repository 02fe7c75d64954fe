"""The board changes (record-format.md 4) as the sentences people read at the table, in the table's language.

One sentence per change, rendered from the change alone: the device's screens and ``doge-companion replay
--changes`` both call :func:`change_text`, so what a player reads is exactly what the data says. Standard library
and the catalogs only, so the replay command stays light.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.areas import AREA_NAMES, AREAS, QUARANTIA
from ..engine.changes import (
    AdvisorBack,
    BuildPalace,
    Change,
    MarkersBack,
    MoveAdvisor,
    MoveHouses,
    NewYear,
    PlaceHouses,
    PutMarkers,
    TakeAdvisor,
    TurnCard,
)
from ..engine.undo import HousesBack, PalaceBack, UndoChange
from ..i18n import N_, _, ngettext, npgettext, pgettext, spoken_number

NAMES = dict(zip(AREAS, AREA_NAMES, strict=True))
COLOUR_NAMES = {"red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow")}


def player_name(colour: str) -> str:
    """A player's colour as people say it, in the table's language (the record keeps the id)."""
    name = COLOUR_NAMES.get(colour)
    return _(name) if name else colour.capitalize()


def display_name(colour: str, computer_colours: Sequence[str] = ()) -> str:
    """The one way a seat is named on a screen: a computer seat's as such ("Yellow (computer)"), since the table
    moves its pieces for it."""
    return (
        _("{name} (computer)").format(name=player_name(colour)) if colour in computer_colours else player_name(colour)
    )


def full_stop(text: str) -> str:
    """A screen text as a spoken sentence: it ends with a stop, so the voice pauses after it."""
    return text if text.endswith((".", "!", "?", ":", ",")) else text + "."


def spoken_seat(colour: str, computer_colours: Sequence[str] = ()) -> str:
    """:func:`display_name` for the ear: the colour alone (the table knows which seat the computer plays, and the
    screen says it)."""
    return player_name(colour)


def spoken_change(change: Change | UndoChange, players: Sequence[str], computer_colours: Sequence[str] = ()) -> str:
    """:func:`change_text` for the ear, from the same facts: numbers as words (where "one" agrees with its noun, a
    text of its own), palace spaces too, a computer seat without brackets; a full stop ends it."""
    if type(change) in (MarkersBack, TurnCard, NewYear):
        return full_stop(change_text(change, players, computer_colours, spoken=True))
    name = spoken_seat(players[change.player], computer_colours)  # type: ignore[union-attr]
    if type(change) is PutMarkers:
        if change.area == QUARANTIA:
            return npgettext(
                "spoken",
                "{name}: put one of your markers face down on the Quarantia.",
                "{name}: put {n} of your markers face down on the Quarantia.",
                change.count,
            ).format(name=name, n=spoken_number(change.count))
        return npgettext(
            "spoken",
            "{name}: put one of your markers face down on {area}.",
            "{name}: put {n} of your markers face down on {area}.",
            change.count,
        ).format(name=name, n=spoken_number(change.count), area=AREA_NAMES[change.area])
    if type(change) is PlaceHouses:
        return npgettext("spoken", "{name}: one house in {d}.", "{name}: {n} houses in {d}.", change.count).format(
            name=name, n=spoken_number(change.count), d=AREA_NAMES[change.district]
        )
    if type(change) is TakeAdvisor:  # rules.md 7.2.2: a Quarantia advisor stands only in a district
        if change.advisor == QUARANTIA:
            return pgettext("spoken", "{name} takes a Quarantia advisor to {area}.").format(
                name=name, area=AREA_NAMES[change.area]
            )
        if change.area == QUARANTIA:  # its own text: "the Quarantia" takes another article or case than a district
            text = pgettext("spoken", "{name} takes the {district} advisor to the Quarantia.")
        else:
            text = pgettext("spoken", "{name} takes the {district} advisor to {area}.")
        return text.format(name=name, district=AREA_NAMES[change.advisor], area=AREA_NAMES[change.area])
    if type(change) is BuildPalace:  # the houses it costs back to the supply: the screen says how many
        return pgettext("spoken", "{name} builds a palace in {district}, on the space marked {space}.").format(
            name=name, district=AREA_NAMES[change.district], space=spoken_number(change.space)
        )
    if type(change) is AdvisorBack:
        if change.advisor == QUARANTIA:
            return pgettext("spoken", "{name}'s Quarantia advisor in {area} goes back.").format(
                name=name, area=AREA_NAMES[change.source]
            )
        if change.source == QUARANTIA:
            text = pgettext("spoken", "{name}'s {district} advisor in the Quarantia goes back.")
        else:
            text = pgettext("spoken", "{name}'s {district} advisor in {area} goes back.")
        return text.format(name=name, district=AREA_NAMES[change.advisor], area=AREA_NAMES[change.source])
    if type(change) is PalaceBack:
        return npgettext(
            "spoken",
            "{name}: take your palace off the space marked {space} in {district} and put one house back there.",
            "{name}: take your palace off the space marked {space} in {district} and put {n} houses back there.",
            change.houses,
        ).format(
            name=name,
            n=spoken_number(change.houses),
            district=AREA_NAMES[change.district],
            space=spoken_number(change.space),
        )
    return full_stop(change_text(change, players, computer_colours, spoken=True))


def markers_text(change: PutMarkers, players: Sequence[str], computer_colours: Sequence[str] = ()) -> str:
    """A round's reveal line, short enough for the four of a round to fit the smallest display at once:
    "Red: 4 on Dorsoduro" under the title that says they go face down (``replay --changes`` keeps the sentence)."""
    name = display_name(players[change.player], computer_colours)
    if change.area == QUARANTIA:
        return _("{name}: {n} on the Quarantia").format(name=name, n=change.count)
    return _("{name}: {n} on {area}").format(name=name, n=change.count, area=AREA_NAMES[change.area])


def change_text(
    change: Change | UndoChange, players: Sequence[str], computer_colours: Sequence[str] = (), spoken: bool = False
) -> str:
    """The sentence for one change: who, which piece, how many, where (a palace space by its printed number);
    a computer seat (``computer_colours``: their colours) is named as one, so the table knows to move its pieces.
    ``spoken``: the same words with the numbers said (:func:`spoken_change`, for the texts whose "one" needs no
    word of its own)."""
    number = spoken_number if spoken else str
    if type(change) is MarkersBack:
        return _("Everyone: take back all your markers.")
    if type(change) is TurnCard:
        # The table's voting-order cards are never shuffled by hand: the device names the very card (5.2).
        return _("Take the {area} card and lay it face up as next year's next card").format(
            area=AREA_NAMES[change.area]
        )
    if type(change) is NewYear:
        return _(
            "Year {year} begins: the turned-up cards are its order; the other cards go face down for the year after"
        ).format(year=number(change.year))
    name = (spoken_seat if spoken else display_name)(players[change.player], computer_colours)  # type: ignore[union-attr]
    if type(change) is PutMarkers:
        if change.area == QUARANTIA:
            return ngettext(
                "{name}: put {n} of your markers face down on the Quarantia",
                "{name}: put {n} of your markers face down on the Quarantia",
                change.count,
            ).format(name=name, n=change.count)
        return ngettext(
            "{name}: put {n} of your markers face down on {area}",
            "{name}: put {n} of your markers face down on {area}",
            change.count,
        ).format(name=name, n=change.count, area=AREA_NAMES[change.area])
    if type(change) is PlaceHouses:
        return ngettext("{name}: put a house in {d}", "{name}: put {n} houses in {d}", change.count).format(
            name=name, n=number(change.count), d=AREA_NAMES[change.district]
        )
    if type(change) is MoveHouses:
        return ngettext(
            "{name}: move a house from {a} to {b}", "{name}: move {n} houses from {a} to {b}", change.count
        ).format(name=name, n=number(change.count), a=AREA_NAMES[change.source], b=AREA_NAMES[change.target])
    if type(change) is BuildPalace:
        return ngettext(
            "{name}: take {n} house from {district} back to your supply and put a palace on the space marked {space}",
            "{name}: take {n} houses from {district} back to your supply and put a palace on the space marked {space}",
            change.houses_back,
        ).format(name=name, n=change.houses_back, district=AREA_NAMES[change.district], space=change.space)
    if type(change) is HousesBack:
        return ngettext(
            "{name}: take a house from {d} back to your supply",
            "{name}: take {n} houses from {d} back to your supply",
            change.count,
        ).format(name=name, n=number(change.count), d=AREA_NAMES[change.district])
    if type(change) is PalaceBack:
        return ngettext(
            "{name}: take your palace off the space marked {space} in {district} and put {n} house back there",
            "{name}: take your palace off the space marked {space} in {district} and put {n} houses back there",
            change.houses,
        ).format(name=name, n=change.houses, district=AREA_NAMES[change.district], space=change.space)
    if type(change) is TakeAdvisor:
        if change.advisor == QUARANTIA:
            return _("{name}: put one of your rings on a Quarantia advisor and stand it in {area}").format(
                name=name, area=AREA_NAMES[change.area]
            )
        district = AREA_NAMES[change.advisor]
        if change.area == QUARANTIA:
            return _("{name}: put one of your rings on the {district} advisor and stand it in the Quarantia").format(
                name=name, district=district
            )
        return _("{name}: put one of your rings on the {district} advisor and stand it in {area}").format(
            name=name, district=district, area=AREA_NAMES[change.area]
        )
    if type(change) is MoveAdvisor:
        district, a, b = AREA_NAMES[change.advisor], AREA_NAMES[change.source], AREA_NAMES[change.target]
        if change.source == QUARANTIA:
            return _("{name}: move the {district} advisor from the Quarantia to {b}").format(
                name=name, district=district, b=b
            )
        if change.target == QUARANTIA:
            return _("{name}: move the {district} advisor from {a} to the Quarantia").format(
                name=name, district=district, a=a
            )
        return _("{name}: move the {district} advisor from {a} to {b}").format(name=name, district=district, a=a, b=b)
    assert type(change) is AdvisorBack
    if change.advisor == QUARANTIA:
        return _("A Quarantia advisor in {area} goes back to the Quarantia; {owner} takes the ring back").format(
            area=AREA_NAMES[change.source], owner=name
        )
    if change.source == QUARANTIA:
        return _("The {district} advisor in the Quarantia goes back to its symbol; {owner} takes the ring back").format(
            district=AREA_NAMES[change.advisor], owner=name
        )
    return _("The {district} advisor in {area} goes back to its symbol; {owner} takes the ring back").format(
        district=AREA_NAMES[change.advisor], area=AREA_NAMES[change.source], owner=name
    )


def change_owner(change: Change | UndoChange, players: Sequence[str]) -> str | None:
    """Whose pieces a change moves (their colour on screen); None when it is everyone's or nobody's."""
    seat = getattr(change, "player", None)
    return None if seat is None else players[seat]
