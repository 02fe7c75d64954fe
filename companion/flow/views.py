"""Screens as pure functions: public facts (a snapshot, names, a menu already built from legal choices) in, a screen
model out. Nothing here reads the engine's state, so nothing here can show a secret; the modes decide which view
fits and hand it exactly what it draws."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from display.screen import TICK, Line, MapArea, MenuView, Screen, Size

from ..engine import AREAS
from ..i18n import LANGUAGE_NAMES, _, and_list, ngettext
from .board_text import NAMES, player_name
from .menus import Menu
from .narration import ANYONE, CONDITION_NAMES, NO_BREAK, Notice, order_lines
from .rules_text import rule_text
from .seats import Seats

QUARANTIA_ADVISORS = 3  # rules.md 1.2


# No name ends with another's beginning, so finding them all at once glues what replacing them one by one did.
_MANY_WORDS = re.compile("|".join(re.escape(name) for name in NAMES.values() if " " in name))


def keep_names_together(screen: Screen) -> Screen:
    """Every area name of more than one word, glued with no-break spaces in whatever the screen shows. What has no
    such name is kept as it is, not copied: a new screen is composed on every press that shows one (bench pi)."""

    def glue(text: str) -> str:
        return _MANY_WORDS.sub(lambda found: found.group().replace(" ", NO_BREAK), text)

    lines = tuple(line if (text := glue(line.text)) == line.text else replace(line, text=text) for line in screen.lines)
    menu, title = screen.menu, glue(screen.title)
    if menu is not None:
        options, hints = tuple(map(glue, menu.options)), tuple(map(glue, menu.hints))
        if (options, hints) != (menu.options, menu.hints):
            menu = replace(menu, options=options, hints=hints)
    if (title, lines, menu) == (screen.title, screen.lines, screen.menu):
        return screen
    return replace(screen, title=title, lines=lines, menu=menu)


def menu_view(menu: Menu) -> MenuView:
    return MenuView(
        tuple(o.label for o in menu.options), menu.cursor, frozenset(menu.chosen), tuple(o.hint for o in menu.options)
    )


def setup_view(seats: Seats) -> Screen:
    """rules.md 2.3: the seats taken, then every host setting with the key that changes it, on one line each: the
    whole setup fits the smallest display at once, so the host's first ok starts the game rather than showing "more"
    (a script written for a large display works on the small one). Four seats take small lines."""
    lines = []
    waiting = sorted(seats.connected - {source for source, _colour in seats.joined})
    if not seats.ready and not (waiting and len(seats.joined) < 4):  # else the pads waiting are named below
        lines.append(Line(_("Players: ok on your pad"), "small"))
    size: Size = "small" if len(seats.joined) >= 4 else "normal"
    for source, colour in seats.joined:
        if seats.is_bot(source):
            text = computer_seat(seats.bot_levels[source], player_name(colour))
        elif source.startswith("phone"):  # a phone's own seat (web/seating.py names them): no number to match
            text = _("{colour}: phone").format(colour=player_name(colour))
        else:
            text = _("{colour}: pad {pad}").format(pad=source, colour=player_name(colour))
        lines.append(Line(text, size, colour))
    if waiting and len(seats.joined) < 4:
        text = ngettext("Pad {pads}: ok to join", "Pads {pads}: ok to join", len(waiting))
        lines.append(Line(text.format(pads=", ".join(waiting)), "small"))
    # Each setting as it stands, after the host's key that changes it (a pad's left/right is its own colour).
    mode = _("keypads") if seats.entry == "keypads" else _("one at a time")
    lines.append(Line(_("▶ Ballots: {mode}").format(mode=mode), "small"))
    lines.append(Line(_("◀ Language: {language}").format(language=LANGUAGE_NAMES[seats.language]), "small"))
    if len(seats.joined) < 4 and not waiting:  # a pad waiting to join comes first; at a full table back clears the
        lines.append(Line(_("back: add a computer"), "small"))  # computers: the keys say so, no line fits there
    footer = _("ok: start") if seats.ready else _("3 or 4 players")
    return Screen(_("New game"), tuple(lines), footer=footer, rule="2.3", tags=("setup",))


def computer_seat(level: str, colour: str) -> str:
    """A computer seat at setup with its level, short enough for one line at 160x128."""
    if level == "easy":
        return _("{colour}: easy computer").format(colour=colour)
    if level == "hard":
        return _("{colour}: hard computer").format(colour=colour)
    return _("{colour}: normal computer").format(colour=colour)


def round_title(snap: dict[str, Any]) -> str:
    return _("Year {year}, round {round}").format(year=snap["year"], round=snap["round"])


def keypad_view(snap: dict[str, Any]) -> Screen:
    """rules.md 4.2 at once on keypads: only who is still choosing and who has locked in."""
    waiting = [a["player"] for a in snap["awaiting"]]
    done = [p for p, supply in snap["players"].items() if p not in waiting and supply["markers"]]
    lines = [Line(_("Choose on your keypad, then ok"), "normal")]
    lines += [Line(_("{name}: choosing").format(name=player_name(p)), "normal", p) for p in waiting]
    lines += [Line(_("{name}: locked in").format(name=player_name(p)), "normal", p) for p in done]
    return Screen(round_title(snap), tuple(lines), rule="4.2", tags=("ballot-wait",))


def gate_view(snap: dict[str, Any], colour: str) -> Screen:
    name = player_name(colour)
    return Screen(
        round_title(snap),
        (
            Line(_("{name}'s secret ballot").format(name=name), "large", colour),
            Line(_("Everyone else: look away"), "normal"),
            Line(_("{name}: press ok on your pad").format(name=name), "normal", colour),
        ),
        rule="4.2",
        tags=("ballot-gate",),
    )


def private_ballot_view(colour: str, stage: str, menu: Menu) -> Screen:
    """The one screen that shows a player's own markers: only after everyone else was asked to look away."""
    hint = _("left/right, ok: pick") if stage == "area" else _("ok: tick a marker; Done to finish")
    return Screen(
        _("{name}'s ballot").format(name=player_name(colour)),
        (Line(menu.title, "normal"),),
        footer=hint,
        rule="4.2",
        colour=colour,
        tags=("private", f"private:{colour}", f"stage:{stage}"),
        menu=menu_view(menu),
    )


def decision_view(colour: str, asks: str, menu: Menu, computer: bool = False, submenu: bool = False) -> Screen:
    """A decision on the shared screen; a computer player's says so, and that nobody needs to press anything.
    Back is offered only in a submenu (an advisor's place, a house's target...): it returns to the list before."""
    name = player_name(colour)  # a computer's says so in its footer: "Yellow (computer) decides" was cut at 160x128
    if computer:
        footer = _("the computer is deciding")
    elif submenu:
        footer = _("pad: left/right, ok, back")
    else:
        footer = _("your pad: left/right, ok")
    return Screen(
        _("{name} decides").format(name=name),
        (Line(menu.title, "normal"),),
        footer=footer,
        rule=menu.rule,
        tags=("decision", f"decision:{colour}", f"asks:{asks}"),
        menu=menu_view(menu),
        colour=colour,
    )


def notice_footer(notice: Notice) -> str:
    """What the notice waits for: the players to confirm on their own pads ("done"), a computer player deciding
    under its count, or the host. Whose pieces are whose the lines' colours say; who is done, a tick before them."""
    if notice.waiting == (ANYONE,):  # only a computer's pieces are left: anyone moves them
        return _("done? any pad: ok")
    if notice.waiting:
        return _("done? ok on your pad")
    if notice.passive:
        return _("the computer is deciding")
    return _("ok: go on")


def notice_lines(notice: Notice, computer_colours: Sequence[str] = ()) -> tuple[Line, ...]:
    """The notice's lines, each one whose owner has confirmed it ticked (a computer's, once anyone has); one still to
    be confirmed keeps room for its tick, so a "done" never moves a line to another part (test_table_pace.py)."""

    def shown(line: Line) -> Line:
        owner = ANYONE if line.colour in computer_colours else line.colour
        if owner is None or line.result:  # a count's votes are not the voter's to do
            return line
        if owner in notice.confirmed:
            return replace(line, text=TICK + line.text)
        return replace(line, tick_room=owner in notice.waiting)

    return tuple(shown(line) for line in notice.lines)


def notice_view(notice: Notice, computer_colours: Sequence[str] = ()) -> Screen:
    """A notice; one of several pages says which (in the footer, and as a ``page:`` tag for the gallery). Lines an
    earlier election ended with (its card) come first, led by its name (``Notice.lead``): "San Polo: Take the
    Castello card…" over Castello's count, with no part or line of its own (each cost the table a page's wait)."""
    if notice.page is not None:
        page, pages = notice.page
        footer = _("ok: go on ({page}/{pages})").format(page=page, pages=pages)
        return Screen(
            notice.title, tuple(notice.lines), footer=footer, rule=notice.rule, tags=(notice.tag, f"page:{page}")
        )
    footer, lines = notice_footer(notice), notice_lines(notice, computer_colours)
    room = max((_("done? ok on your pad"), _("done? any pad: ok")), key=len) if notice.waiting else ""
    if notice.lead is not None and lines:
        lines = (replace(lines[0], text=f"{notice.lead[0]}: {lines[0].text}"), *lines[1:])
    return Screen(notice.title, lines, footer=footer, rule=notice.rule, tags=(notice.tag,), footer_room=room)


def undo_view(question: Sequence[str], board: bool) -> Screen:
    """The host's undo question, naming the decision and each computer player's decision taken back with it
    (``undo_text.undo_question``); ``board``: whether the table will have pieces to put back."""
    then = _("The screen then says how to put the board back.") if board else _("Nothing on the board changes.")
    return Screen(
        _("Undo?"),
        (Line(question[0], "normal"), *(Line(text, "small") for text in question[1:]), Line(then, "small")),
        footer=_("host ok: undo   back: keep"),
        rule="11.4",
        tags=("undo",),
    )


def help_view(rule: str | None) -> Screen:
    return Screen(
        _("Rule {rule}").format(rule=rule) if rule else _("Help"),
        (Line(rule_text(rule), "normal"),),
        footer=_("any host key: back"),
        tags=("help",),
    )


def map_view(snap: dict[str, Any]) -> Screen:
    """The board check's first page: the board as a map, each piece with its player's mark (display/board_map.py),
    and its key: the pieces', then each player's mark beside their name."""
    districts = [snap["advisors"][d] for d in AREAS[:6]]
    areas = []
    for area in AREAS:
        info = snap["districts"].get(area, {"houses": {}, "palaces": []})
        own = tuple(a["controller"] for a in districts if a and a["area"] == area)
        senate = tuple(a["controller"] for a in snap["advisors"]["quarantia"] if a["area"] == area)
        houses, palaces = tuple(info["houses"].items()), tuple(info["palaces"])
        areas.append(MapArea(NAMES[area], houses, palaces, own + senate, from_quarantia=len(senate)))
    return Screen(
        _("Board"),
        footer=_("left/right: page   back: close"),
        tags=("board", "page:0"),
        legend=(map_legend(),),
        board=tuple(areas),
        players=tuple((colour, player_name(colour)) for colour in snap["players"]),
    )


def map_legend() -> str:
    """What the map's marks mean, on the map page and the summary picture alike."""
    return _("○ advisor · ● Quarantia advisor · 3-7 palaces")


def board_view(snap: dict[str, Any], page: int) -> Screen:
    """The board check: the map, then four pages of detail a host compares the table with."""
    if page == 0:
        return map_view(snap)
    page -= 1
    lines: list[Line] = []
    if page == 0:
        title = _("Board: districts")
        for district in AREAS[:6]:
            info = snap["districts"][district]
            houses = ", ".join(
                ngettext("{colour} {n} house", "{colour} {n} houses", n).format(colour=player_name(p), n=n)
                for p, n in info["houses"].items()
            ) or _("no houses")
            palaces = palace_spaces(info["palaces"])
            text = f"{NAMES[district]}: {houses}"
            if palaces:
                text += _("; palaces: {owners}").format(owners=palaces)
            lines.append(Line(text, "small"))
    elif page == 1:
        title = _("Board: advisors")
        for district in AREAS[:6]:
            advisor = snap["advisors"][district]
            where = (
                _("{name} in {area}").format(name=player_name(advisor["controller"]), area=NAMES[advisor["area"]])
                if advisor
                else _("at home")
            )
            lines.append(Line(f"{NAMES[district]}: {where}", "small"))
        lines.extend(Line(text, "small") for text in quarantia_lines(snap["advisors"]["quarantia"]))
    elif page == 2:
        title = _("Board: supplies")
        for player, supply in snap["players"].items():
            text = _("{name}: {h} houses, {p} palaces, {r} rings, {m} markers").format(
                name=player_name(player),
                h=supply["houses"],
                p=supply["palaces"],
                r=supply["rings"],
                m=supply["markers"],
            )
            lines.append(Line(text, "small", player))
    else:
        title = _("Voting order")
        lines = [
            Line(_("Year {year}:").format(year=snap["year"]), "small"),
            *order_lines([NAMES[a] for a in snap["order"]["this_year"]]),
        ]
        turned = [NAMES[a] for a in snap["order"]["next_year"]]
        lines.append(Line(_("Next year: {cards}").format(cards=", ".join(turned) or "-"), "small"))
    return Screen(title, tuple(lines), footer=_("left/right: page   back: close"), tags=("board", f"page:{page + 1}"))


def palace_spaces(owners: Sequence[str]) -> str:
    """A district's palaces by owner with the printed spaces they stand on (rules.md 8.4: 3, 4, ... in building
    order): "Blue on 3 and 4, Yellow on 5", never the same name twice with nothing to tell the palaces apart."""
    spaces: dict[str, list[str]] = {}
    for index, owner in enumerate(owners):
        spaces.setdefault(owner, []).append(str(3 + index))
    return ", ".join(
        _("{name} on {spaces}").format(name=player_name(owner), spaces=and_list(numbers))
        for owner, numbers in spaces.items()
    )


def quarantia_lines(advisors: Sequence[dict[str, str]]) -> list[str]:
    """The Quarantia advisors counted per controller and area, then those at home: rules.md 1.2, the three are
    identical, so two of Red's in Dorsoduro are "2", not the same line twice."""
    counts: dict[tuple[str, str], int] = {}
    for advisor in advisors:
        key = (advisor["controller"], advisor["area"])
        counts[key] = counts.get(key, 0) + 1
    lines = [
        ngettext("{name}: {n} Quarantia advisor in {area}", "{name}: {n} Quarantia advisors in {area}", n).format(
            name=player_name(player), n=n, area=NAMES[area]
        )
        for (player, area), n in counts.items()
    ]
    home = QUARANTIA_ADVISORS - len(advisors)
    if home:
        lines.append(ngettext("Quarantia: {n} advisor at home", "Quarantia: {n} advisors at home", home).format(n=home))
    if advisors:  # the key to the board page's filled and outlined marks (map_view)
        lines.append(
            _("On the board page a Quarantia advisor's mark is filled (●), a district advisor's an outline (○).")
        )
    return lines


def winners_text(winners: Sequence[str]) -> str:
    """rules.md 9.4's result as the game-over screen says it, and the voice with it."""
    names = and_list(player_name(w) for w in winners)
    return ngettext("{names} wins!", "{names} win!", len(winners)).format(names=names)


def final_view(
    winners: Sequence[str],
    tie_break: str,
    conditions: dict[str, tuple[str, ...]],
    chart: tuple[tuple[str, tuple[int, ...]], ...],
) -> Screen:
    """rules.md 9.4: who won and by which condition first (the first part of a small display: the game over never
    turns by itself), then what decided among those who met one (``tie_break``), then the others' conditions."""
    lines = [Line(winners_text(winners), "large", winners[0])]
    met_by = [(player, met) for player, met in conditions.items() if met]
    ordered = [*((p, m) for p, m in met_by if p in winners), *((p, m) for p, m in met_by if p not in winners)]
    said = [Line(f"{player_name(player)}: {_(CONDITION_NAMES[met[0]])}", "small", player) for player, met in ordered]
    winning = sum(player in winners for player, _met in ordered)
    lines += [*said[:winning], Line(tie_break, "small"), *said[winning:]]
    legend = tuple(player_name(p) for p, _series in chart)
    return Screen(
        _("Game over"),
        tuple(lines),
        footer=_("host right: standings, chart   back: next game"),
        rule="9.4",
        tags=("over",),
        chart=chart,
        legend=legend,
    )


def standings_view(rows: Sequence[tuple[int, str, int, int, int, tuple[str, ...]]]) -> Screen:
    """rules.md 9.2 to 9.4: rank, palaces, districts, houses on the board and the victory condition met, each."""
    lines = []
    for rank, player, palaces, districts, houses, met in rows:
        condition = _(CONDITION_NAMES[met[0]]) if met else _("no victory condition")
        lines.append(Line(f"{rank}. {player_name(player)}: {condition}", "small", player))
        lines.append(
            Line(
                ngettext("{p} palace", "{p} palaces", palaces).format(p=palaces)
                + ", "
                + ngettext("{d} district", "{d} districts", districts).format(d=districts)
                + ", "
                + ngettext("{h} house", "{h} houses", houses).format(h=houses),
                "small",
            )
        )
    return Screen(
        _("Standings"),
        tuple(lines),
        footer=_("host left/right: page   back: close"),
        rule="9.4",
        tags=("over", "page:standings"),
    )


def chart_view(chart: tuple[tuple[str, tuple[int, ...]], ...]) -> Screen:
    """The palaces each player had at the end of each year."""
    return Screen(
        _("Palaces by year"),
        (),
        footer=_("host left: page   back: close"),
        tags=("over", "page:chart"),
        chart=chart,
        legend=tuple(player_name(p) for p, _series in chart),
    )
