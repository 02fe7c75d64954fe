"""The first year's reminder: how to set up the table for year 1, and what the device does instead of cards and
markers, read page by page before the "Year 1" notice, so a table needs no manual.

The pages are notices (``modes/notices.py``): the host's ok turns each one, they are saved with the other pending
notices, so a power cut while the table reads them shows the unread pages again on resume, and once read they are
gone for good: they are made only when a new game starts (``settling.draw_chance``), never on resume. Everything
on them is public (rules.md 11.3): the seats and how ballots are entered, nothing of anyone's markers.

Every page fits the smallest display (160x128) in every language: tests/display/test_layout.py renders them from the
gallery, tests/display/test_game_layout.py from whole games.
"""

from __future__ import annotations

from collections.abc import Sequence

from display.screen import Line

from ..engine import State
from ..i18n import _, pgettext
from .board_text import full_stop, player_name
from .narration import Notice, year_start_notice
from .seats import COLOURS


def first_year_notices(state: State, entry: str, short: bool = False) -> list[Notice]:
    """What a new game shows once both decks are shuffled (rules.md 2.2): the reminder, then year 1's order. The
    next game of an evening (``short``) shows only how to set up the board, which every game needs, and offers the
    rest (the host's right) instead of making the table page through what it read an hour ago."""
    pages = reminder_pages(state.players, entry)
    if short:
        first = pages[0]
        more, also = said(_("Host right: the other pages of the introduction again"))
        spoken = (*first.spoken, also)
        pages = [Notice(first.title, (*first.lines, more), rule=first.rule, tag="reminder", spoken=spoken)]
    return [*pages, year_start_notice(state, [], "2.2")]


def said(text: str, spoken: str | None = None) -> tuple[Line, str]:
    """A reminder line and what the voice says of it: the same words, or ``spoken`` where the line has a number."""
    return Line(text, "small"), spoken or full_stop(text)


def reminder_pages(players: Sequence[str], entry: str) -> list[Notice]:
    """The reminder's pages for these seats (colours in seat order) and ballot entry ("private" or "keypads")."""
    # rules.md 2.1: nothing on the board, every advisor neutral (on its symbol, the words of the board notices);
    # 1.1: each player's pieces, and with 3 players the fourth colour's stay in the box.
    board = [
        said(_("Start with an empty board: no houses, palaces or rings on it.")),
        said(
            _("The 9 advisors stand on their symbols, without rings."),
            pgettext("spoken", "The nine advisors stand on their symbols, without rings."),
        ),
        said(
            _("Each player takes 15 houses, 8 palaces, 6 rings and 7 markers of their colour."),
            pgettext(
                "spoken",
                "Each player takes fifteen houses, eight palaces, six rings and seven markers of their colour.",
            ),
        ),
    ]
    unused = [colour for colour in COLOURS if colour not in players]
    if len(players) == 3 and unused:
        board.append(said(_("{name}'s pieces stay in the box.").format(name=player_name(unused[0]))))
    # 2.2, 5.2, 5.3: the device shuffles (chance is drawn outside the rules): the table lays out year 1's deck as
    # shown, and from the other deck takes each card the device names after an election, in the very words of that
    # step (board_text.change_text, TurnCard: "Take the ... card and lay it face up as next year's next card");
    # 4.2: a ballot is chosen on a pad, so the area cards are not played.
    cards = [
        said(_("Nothing to shuffle: the device draws the voting order.")),
        # Which deck is which, by name: "the other deck" names none, and the area cards are a third kind.
        said(
            _("Lay out one voting-order deck face up in a row, in year 1's order as the next page shows."),
            pgettext(
                "spoken", "Lay out one voting-order deck face up in a row, in year one's order as the next page shows."
            ),
        ),
        # Two sentences, each a line: the one sentence was longer than a part at 160x128 and was cut mid-sentence.
        said(_("Keep the second voting-order deck aside.")),
        said(_("After each election the device names a card from it to lay face up as next year's next card.")),
        said(_("Area cards stay in the box: ballots are chosen on the pads.")),
    ]
    # 4.2 (secret choices, on the pads), 4.3 (markers face down: their values never leave the device), 6.1, 10.1.
    if entry == "keypads":
        how = _("Everyone keys area and markers on their own keypad, then ok.")
    else:
        how = _("One player at a time chooses on this screen; the others look away.")
    ballots = [
        said(how),
        said(_("After each round, put markers face down where the screen says: any of yours will do.")),
        said(_("The device counts the votes and says what to place, move and build.")),
    ]
    keys = [
        said(_("Host ok: go on")),
        said(_("Host left: the rule behind the screen")),
        said(_("Host back: check the board")),
        said(_("Hold host back: undo")),
        said(_("Your pad: your ballots and decisions")),
    ]
    # 9.1 to 9.4: the three victory conditions, checked only when a year ends, and the tie-breaks.
    win = [
        said(
            _("The game ends at a year's end (all 7 elections held) if someone then has:"),
            pgettext(
                "spoken", "The game ends at a year's end, once all seven elections are held, if someone then has:"
            ),
        ),
        said(
            _("a palace in all 6 districts,"),
            pgettext("spoken", "a palace in all six districts,"),
        ),
        said(
            _("or 7 palaces in at least 5 districts,"),
            pgettext("spoken", "or seven palaces in at least five districts,"),
        ),
        said(
            _("or 8 palaces in at least 4 districts."),
            pgettext("spoken", "or eight palaces in at least four districts."),
        ),
        said(_("Of those, most palaces wins; then most houses on the board.")),
    ]
    pages = [  # the cards last: the next screen shows year 1's order
        (_("Set up the board"), board, "2.1"),
        (_("How to win"), win, "9.2"),
        (_("Ballots"), ballots, "4.3"),
        (_("The keys"), keys, None),
        (_("The cards"), cards, "2.2"),
    ]
    return [
        Notice(
            title,
            tuple(line for line, _said in lines),
            rule=rule,
            tag="reminder",
            page=(number, len(pages)),
            spoken=(full_stop(title), *(spoken for _line, spoken in lines)),
        )
        for number, (title, lines, rule) in enumerate(pages, 1)
    ]
