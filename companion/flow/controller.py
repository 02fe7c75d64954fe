"""The game-flow controller: button events in; the screen, cues for pads and record lines out.

One instance runs one game night on the game thread. It owns the engine state and the record (the source of truth:
undo and resume come from it), and builds every screen from views only: the public snapshot, and the private view of
the one player whose private menu is open after the others were asked to look away. It never sleeps, reads a clock
or draws a random number itself: shuffles come from the ``rng`` it is given (the OS's randomness in play, a seeded
one for tests and demos).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from display.screen import Line, MenuView, Screen

from ..engine import (
    AREAS,
    BALLOT,
    ELECTION,
    OVER,
    Ballot,
    Decision,
    DecisionLine,
    ShuffleLine,
    State,
    dump_header,
    dump_line,
    parse_header,
    parse_line,
    private_view,
    snapshot,
)
from ..engine.areas import AREA_NAMES
from ..engine.determinize import draw_order
from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, language, ngettext, set_language
from .instructions import NAMES, instructions, player_name
from .menus import Menu, Option, advisor_menu, build_menu, houses_menu, move_menu
from .rules_text import rule_text

log = logging.getLogger(__name__)

COLOURS = ("red", "blue", "green", "yellow")
ENTRY_MODES = ("private", "keypads")
BOT_LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
CONDITION_NAMES = {
    "six_districts": N_("a palace in all 6 districts"),
    "seven_in_five": N_("7 palaces in 5 districts"),
    "eight_in_four": N_("8 palaces in 4 districts"),
}


@dataclass
class Notice:
    """Something everybody reads before play goes on (a count, what to do on the board); ok on any pad clears it."""

    title: str
    lines: list[Line]
    rule: str | None = None
    tag: str = "notice"


class Saver:
    """Where the controller's lines go before they count. This one keeps nothing: a game that is not saved."""

    def begin(self, header: str) -> None:
        """A new game starts with this header line."""

    def save(self, lines: list[str], summary: dict[str, Any]) -> None:
        """Commit ``lines`` durably, or raise an exception whose message is for the screen."""

    def rewind(self, keep: int, summary: dict[str, Any]) -> None:
        """Undo: keep only the first ``keep`` lines."""

    def screen(self, state: dict[str, Any]) -> None:
        """The screen step to resume at (pending notices); best effort."""


@dataclass(frozen=True)
class Effect:
    """Something for the hardware: ``led`` (``target``, ``state``) on a pad, or a ``beep``."""

    kind: str
    source: str
    target: str = ""
    state: str = ""


@dataclass
class KeypadBallot:
    """One player's ballot being keyed in on their own keypad (simultaneous entry). Never shown on the shared screen."""

    area: int | None = None
    markers: list[int] = field(default_factory=list)


@dataclass
class PrivateTurn:
    """One player's ballot entered on the shared screen while the others look away."""

    seat: int
    stage: str = "gate"  # gate -> area -> markers
    area_menu: Menu | None = None
    marker_menu: Menu | None = None
    area: int | None = None


class Controller:
    def __init__(
        self,
        rng: random.Random,
        *,
        entry: str = "private",
        cues: bool = True,
        clock: Callable[[], str] | None = None,
        saver: Saver | None = None,
    ) -> None:
        self.rng = rng
        self.language = language()
        self.saver = saver or Saver()
        self.storage_problem: str | None = None  # shown on every screen while the store cannot save
        self.entry = entry
        self.cues = cues
        self.clock = clock
        self.stage = "setup"
        self.joined: list[tuple[str, str]] = []  # (pad source, colour) in seat order (RULES.md 2.3)
        self.bot_levels: dict[str, str] = {}  # computer seats: their source ("cpu1"...) -> level
        self.bot_level = "normal"
        self.bots: dict[int, Any] = {}
        self.sync_bots = False  # scripts and autoplay: bots answer at once, the same way every time
        self.unplugged: set[str] = set()
        self.connected: set[str] = set()
        self.state: State | None = None
        self.record: list[str] = []
        self.notices: list[Notice] = []
        self.menus: list[Menu] = []
        self._menu_for: Any = None
        self.keypad: dict[int, KeypadBallot] = {}
        self.private: PrivateTurn | None = None
        self.history: list[tuple[State, int, bool, str]] = []  # state before, record length, undoable, line
        self.confirm_undo = False
        self.help = False
        self.board_page: int | None = None
        self.effects: list[Effect] = []
        self.palaces_by_year: list[dict[str, int]] = []
        self.last_reveal: list[Line] = []
        self._cued: set[int] = set()
        self._saved_screen: dict[str, Any] | None = None
        self._bot_rng = random.Random(rng.randrange(1 << 30))

    # ------------------------------------------------------------------ seats

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(colour for _pad, colour in self.joined)

    def seat_of(self, source: str) -> int | None:
        return next((seat for seat, (pad, _colour) in enumerate(self.joined) if pad == source), None)

    def source_of(self, seat: int) -> str:
        return self.joined[seat][0]

    # ------------------------------------------------------------------ input

    def handle(self, event: Any) -> None:
        """One input event (an ``InputEvent`` or a ``PadStatus``)."""
        if hasattr(event, "connected"):
            if event.connected:
                self.unplugged.discard(event.source)
                self.connected.add(event.source)
            else:
                self.unplugged.add(event.source)
                self.connected.discard(event.source)
            return
        if event.source == "host":
            self._host(event.key, event.kind)
        elif self.stage == "setup":
            self._setup_pad(event.source, event.key)
        elif self.stage == "game" and not (self.confirm_undo or self.help or self.board_page is not None):
            seat = self.seat_of(event.source)
            if seat is not None and seat not in self.bots:
                self._game_pad(seat, event.key, event.kind)
        self._draw_chance()
        if self.sync_bots:
            self.run_bots(self._bot_rng)
        self._update_cues()
        self._save_screen()

    def _host(self, key: str, kind: str) -> None:
        if kind == "hold" and key == "back":
            if self.stage == "game":
                self.confirm_undo = self._undo_blocker() is None or self._explain_no_undo()
            return
        if self.confirm_undo:
            if key == "ok":
                self._undo()
            self.confirm_undo = False
            return
        if self.help:
            self.help = False
            return
        if self.board_page is not None:
            if key == "right":
                self.board_page = (self.board_page + 1) % 4
            elif key == "left":
                self.board_page = (self.board_page - 1) % 4
            else:
                self.board_page = None
            return
        if self.stage == "setup":
            if key == "back":
                self._add_or_clear_bots()
            elif key == "right":
                self.entry = ENTRY_MODES[(ENTRY_MODES.index(self.entry) + 1) % 2]
            elif key == "left":
                self.language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
                set_language(self.language)
            elif key == "ok" and 3 <= len(self.joined) <= 4:
                self._start()
            return
        if key == "left":
            self.help = True
        elif key == "back" and self.stage == "game":
            self.board_page = 0
        elif key == "ok" and self.notices:
            self.notices.pop(0)

    def _setup_pad(self, source: str, key: str) -> None:
        seat = self.seat_of(source)
        taken = {colour for _pad, colour in self.joined}
        if seat is None:
            if key == "ok" and len(self.joined) < 4:
                self.joined.append((source, next(c for c in COLOURS if c not in taken)))
            return
        if key in ("left", "right"):
            free = [c for c in COLOURS if c not in taken]
            if free:
                current = self.joined[seat][1]
                ring = sorted([*free, current], key=COLOURS.index)
                step = 1 if key == "right" else -1
                self.joined[seat] = (source, ring[(ring.index(current) + step) % len(ring)])
        elif key == "back":
            self.joined.pop(seat)

    def _add_or_clear_bots(self) -> None:
        """The host's back button at setup: one more computer player, or (with a full table) none."""
        if len(self.joined) >= 4:
            self.joined = [(pad, colour) for pad, colour in self.joined if pad not in self.bot_levels]
            self.bot_levels = {}
            return
        taken = {colour for _pad, colour in self.joined}
        source = f"cpu{len(self.bot_levels) + 1}"
        while source in self.bot_levels:
            source += "+"
        self.bot_levels[source] = self.bot_level
        self.joined.append((source, next(c for c in COLOURS if c not in taken)))

    def _start(self) -> None:
        """RULES.md 2: seats in the order players joined; both decks shuffled (chance, outside the engine)."""
        header = dump_header(
            self.players,
            app="doge-companion",
            entry=self.entry,
            language=self.language,
            pads=[pad for pad, _colour in self.joined],
            bots={colour: self.bot_levels[pad] for pad, colour in self.joined if pad in self.bot_levels},
        )
        try:
            self.saver.begin(header)
        except Exception as error:  # the store says why (e.g. the disk is full)
            self._not_saved(error)
            return
        self.stage = "game"
        self.state = State(self.players)
        self.record = [header]
        self._make_bots()
        self._draw_chance()

    def _make_bots(self) -> None:
        from ..bots import make_bot

        self.bots = {
            seat: make_bot(self.bot_levels[pad], self.rng.randrange(1 << 30))
            for seat, (pad, _colour) in enumerate(self.joined)
            if pad in self.bot_levels
        }

    # ------------------------------------------------------------------ computer players

    def pending_bot(self) -> int | None:
        """The computer seat that may decide now: any time in the ballot phase (it is secret), in elections only
        when it is its turn and the humans have read what happened."""
        state = self.state
        if self.stage != "game" or state is None or not self.bots or self.confirm_undo:
            return None
        awaited = [a.player for a in state.awaiting() if a.player in self.bots]
        if not awaited:
            return None
        if state.phase == BALLOT:
            return awaited[0]
        if self.notices or state.awaiting()[0].player != awaited[0]:
            return None
        return awaited[0]

    def bot_view(self, seat: int, rng: random.Random) -> Any:
        from ..bots import make_view

        assert self.state is not None
        return make_view(self.state, seat, rng, self.bots[seat].samples)

    def apply_bot(self, seat: int, decision: Decision, token: int) -> bool:
        """A bot's answer, if nothing changed since it was asked (``token``: the record's length then)."""
        state = self.state
        if state is None or token != len(self.record) or decision not in state.legal(seat):
            return False
        self._apply(seat, decision)
        self._update_cues()
        self._save_screen()
        return True

    def run_bots(self, rng: random.Random) -> None:
        """Let every computer seat that may decide do so now (scripts, autoplay)."""
        while (seat := self.pending_bot()) is not None:
            decision = self.bots[seat].decide(self.bot_view(seat, rng))
            if not self.apply_bot(seat, decision, len(self.record)):
                return

    def _draw_chance(self) -> None:
        """Shuffle whenever the rules call for it (2.2, 5.3); retried on the next press if it could not be saved."""
        state = self.state
        if state is None or self.stage != "game":
            return
        while state.chance_awaited():
            setup = state.phase == 0  # SETUP
            if not self._shuffle():
                return
            state = self.state
            assert state is not None
            if not state.chance_awaited():
                self.notices.append(
                    Notice(
                        _("Year {year}").format(year=state.year),
                        [Line(_("This year's voting order:"), "small"), *self._order_lines()],
                        rule="2.2" if setup else "9.5",
                    )
                )

    def _shuffle(self) -> bool:
        assert self.state is not None
        order = draw_order(self.rng)
        trial = self.state.copy()
        trial.shuffle(order)
        line = dump_line(ShuffleLine(order, self._now()))
        if not self._save([line], trial):
            return False
        self.state = trial
        self.record.append(line)
        return True

    def _summary(self, state: State) -> dict[str, Any]:
        return {
            "status": "over" if state.is_over else "playing",
            "year": state.year,
            "winners": [self.players[s] for s in state.winners],
        }

    def _save(self, lines: list[str], trial: State) -> bool:
        try:
            self.saver.save(lines, self._summary(trial))
        except Exception as error:  # the store says why (e.g. the disk is full)
            self._not_saved(error)
            return False
        return True

    def _not_saved(self, error: Exception) -> None:
        self.notices.insert(
            0,
            Notice(
                _("Not saved"),
                [
                    Line(_("Not saved: {why}.").format(why=error), "normal", "red"),
                    Line(_("Nothing changed. Make room, then press ok and try again."), "small"),
                ],
                tag="error",
            ),
        )

    def _now(self) -> str | None:
        return self.clock() if self.clock else None

    def _game_pad(self, seat: int, key: str, kind: str) -> None:
        state = self.state
        assert state is not None
        keypad_ballots = state.phase == BALLOT and self.entry == "keypads"
        # Only the host's ok dismisses a notice: a pad's ok is a player's own (locking in, or trying again after
        # "Not saved"), and must never be swallowed by a notice (issue 14).
        if self.notices and not keypad_ballots:  # a keypad ballot goes on under a notice: it is on the pad
            return
        if state.phase == BALLOT:
            if keypad_ballots:
                self._keypad_ballot(seat, key)
            else:
                self._private_ballot(seat, key)
        elif state.phase == ELECTION:
            awaited = state.awaiting()
            if awaited and awaited[0].player == seat:
                self._menu_key(seat, key)

    # ------------------------------------------------------------------ ballots

    def _keypad_ballot(self, seat: int, key: str) -> None:
        """RULES.md 4.2 on a keypad: area key, marker keys, back to undo a key, ok to lock in."""
        state = self.state
        assert state is not None
        if seat not in (a.player for a in state.awaiting()):
            return
        entry = self.keypad.setdefault(seat, KeypadBallot())
        mine = private_view(state, seat)
        source = self.source_of(seat)
        if key.startswith("area:"):
            area = AREAS.index(key[5:])
            if area in mine.used_areas:
                self.effects.append(Effect("beep", source))
                return
            if entry.area is not None:
                self.effects.append(Effect("led", source, f"area:{AREAS[entry.area]}", "off"))
            entry.area = area
            self.effects.append(Effect("led", source, key, "on"))
        elif key.startswith("marker:"):
            value = int(key[7:])
            if entry.markers.count(value) < mine.markers.count(value) and len(entry.markers) < 4:
                entry.markers.append(value)
            elif value in entry.markers:
                entry.markers = [m for m in entry.markers if m != value]
            # No beep for a value not held (issue 14): the table would hear what a player holds (RULES.md 11.1).
            self.effects.append(Effect("led", source, key, "on" if value in entry.markers else "off"))
        elif key == "back":
            if entry.markers:
                value = entry.markers.pop()
                self.effects.append(Effect("led", source, f"marker:{value}", "on" if value in entry.markers else "off"))
            elif entry.area is not None:
                self.effects.append(Effect("led", source, f"area:{AREAS[entry.area]}", "off"))
                entry.area = None
        elif key == "ok":
            if entry.area is None or not 1 <= len(entry.markers) <= 4:
                self.effects.append(Effect("beep", source))
                return
            ballot = Ballot(entry.area, tuple(sorted(entry.markers, reverse=True)))
            if self._apply(seat, ballot):  # not saved: the keyed ballot stays, to try again with ok
                del self.keypad[seat]
                self.effects.append(Effect("led", source, "all", "off"))

    def _private_ballot(self, seat: int, key: str) -> None:
        state = self.state
        assert state is not None
        turn = self._private_turn()
        if turn is None or turn.seat != seat:
            return
        mine = private_view(state, seat)
        if turn.stage == "gate":
            if key == "ok":
                turn.stage = "area"
                turn.area_menu = Menu(
                    _("Choose an area"),
                    [Option(AREA_NAMES[a], a, f"area:{AREAS[a]}") for a in range(7) if a not in mine.used_areas],
                    rule="4.2",
                )
            return
        if turn.stage == "area":
            menu = turn.area_menu
            assert menu is not None
            if key == "back":
                turn.stage = "gate"
                return
            picked = self._navigate(menu, key)
            if picked is not None:
                turn.stage = "markers"
                options = [Option(str(v), v, None) for v in mine.markers]
                options.append(Option(_("Done"), None))
                turn.marker_menu = Menu(
                    _("Markers for {area}").format(area=AREA_NAMES[picked.value]),
                    options,
                    rule="4.2",
                )
                turn.area = picked.value
            return
        menu = turn.marker_menu
        assert menu is not None
        if key == "back":
            turn.stage = "area"
            return
        if key.startswith("marker:"):  # a keypad in private mode: the marker key ticks one more of that value
            value = int(key[7:])
            free = [i for i, o in enumerate(menu.options) if o.value == value and i not in menu.chosen]
            if free and len(menu.chosen) < 4:
                menu.chosen.add(free[0])
            else:
                menu.chosen -= {i for i, o in enumerate(menu.options) if o.value == value}
            return
        if key in ("left", "right"):
            menu.move(1 if key == "right" else -1)
            return
        if key != "ok":
            return
        if menu.current.value is not None:
            if menu.cursor in menu.chosen:
                menu.chosen.discard(menu.cursor)
            elif len(menu.chosen) < 4:
                menu.chosen.add(menu.cursor)
            return
        if not 1 <= len(menu.chosen) <= 4:
            self.effects.append(Effect("beep", self.source_of(seat)))
            return
        markers = tuple(sorted((menu.options[i].value for i in menu.chosen), reverse=True))
        assert turn.area is not None
        if self._apply(seat, Ballot(turn.area, markers)):  # not saved: the choice stays on the menu
            self.private = None

    def _private_turn(self) -> PrivateTurn | None:
        state = self.state
        assert state is not None
        awaited = [a.player for a in state.awaiting() if a.player not in self.bots]
        if not awaited:
            self.private = None
            return None
        if self.private is None or self.private.seat not in awaited:
            self.private = PrivateTurn(awaited[0])
        return self.private

    # ------------------------------------------------------------------ elections

    def _current_menu(self) -> Menu | None:
        state = self.state
        if state is None or state.phase != ELECTION:
            return None
        awaited = state.awaiting()
        signature = (len(self.record), awaited[:1])
        if signature != self._menu_for:
            self._menu_for = signature
            self.menus = [self._decision_menu(state)]
        return self.menus[-1]

    def _decision_menu(self, state: State) -> Menu:
        awaited = state.awaiting()[0]
        seat = awaited.player
        legal = state.legal(seat)
        task = state.tasks[-1]
        if awaited.decision == "advisor":
            return advisor_menu(state, seat, task.slot, legal)  # type: ignore[union-attr]
        if awaited.decision == "houses":
            return houses_menu(legal, task.district, task.rule)  # type: ignore[union-attr]
        if awaited.decision == "build":
            assert awaited.district is not None
            return build_menu(state, awaited.district)
        return move_menu(legal, task.rule)  # type: ignore[union-attr]

    def _menu_key(self, seat: int, key: str) -> None:
        menu = self._current_menu()
        if menu is None:
            return
        if key == "back":
            if len(self.menus) > 1:
                self.menus.pop()
            return
        picked = self._navigate(menu, key)
        if picked is None:
            return
        if isinstance(picked.value, Menu):
            self.menus.append(picked.value)
        else:
            self._apply(seat, picked.value)

    @staticmethod
    def _navigate(menu: Menu, key: str) -> Option | None:
        """left/right move, ok picks; a direct key picks its option at once."""
        if key in ("left", "right"):
            menu.move(1 if key == "right" else -1)
            return None
        if key == "ok":
            return menu.current
        index = menu.find(key)
        if index is not None:
            menu.cursor = index
            return menu.current
        return None

    # ------------------------------------------------------------------ applying

    def _apply(self, seat: int, decision: Decision) -> bool:
        """Apply a decision: saved first, and only then does it count (and show). False: not saved, nothing changed."""
        state = self.state
        assert state is not None
        trial = state.copy()
        trial.apply(seat, decision)  # only legal choices are ever offered
        line = dump_line(DecisionLine(self.players[seat], decision, self._now()))
        if not self._save([line], trial):
            return False
        before, after = snapshot(state), snapshot(trial)
        self.history.append((state, len(self.record), self._reveal_key(before) == self._reveal_key(after), line))
        self.state = trial
        self.record.append(line)
        self.menus = []
        self._menu_for = None
        self._report(before, after)
        self._draw_chance()
        if trial.phase == OVER:
            self.stage = "over"
        return True

    @staticmethod
    def _reveal_key(snap: dict[str, Any]) -> tuple[Any, ...]:
        """What changes when something hidden becomes public: a ballot round, a count, a card, a year."""
        return (snap["year"], snap["phase"], snap["round"], snap["area"], len(snap["order"]["next_year"]))

    def _report(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Notices for what just happened: instructions, reveals, counts, empty elections, the year's end."""
        state = self.state
        assert state is not None
        todo = instructions(before, after)
        if before["phase"] == "ballot" and after["round"] != before["round"]:
            reveal = [Line(i.text, "small", i.player) for i in todo]
            title = _("Round {n} revealed").format(n=before["round"])
            if self.entry == "private" or after["phase"] != "ballot":
                self.notices.append(Notice(title, reveal, rule="4.3", tag="reveal"))
            else:  # keypads: shown beside the next round's progress, so nobody must clear it first
                self.last_reveal = [Line(title, "small"), *reveal]
            todo = []
        elif todo:
            board = [i for i in todo if i.player is not None]  # the cards to turn come in their own notice
            if board:
                self.notices.append(
                    Notice(_("On the board"), [Line(i.text, "normal", i.player) for i in board], tag="instructions")
                )
        finished = self._finished_areas(before, after)
        for area in finished[1 if before["phase"] == "election" else 0 :]:
            self.notices.append(
                Notice(
                    NAMES[area],
                    [Line(_("Nobody has a vote here: nothing happens."), "normal")],
                    rule="6.5",
                    tag="empty",
                )
            )
        turned = [i for i in todo if i.player is None]
        if turned:
            self.notices.append(Notice(_("Next year's order"), [Line(i.text, "normal") for i in turned], rule="5.2"))
        if after["phase"] == "election" and (before["phase"] != "election" or before["area"] != after["area"]):
            self.notices.append(self._count_notice())
        if after["year"] != before["year"] or after["phase"] in ("year_end", "over"):
            self._year_end_notice(before)

    @staticmethod
    def _finished_areas(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        order = before["order"]["this_year"]
        start = order.index(before["area"]) if before["phase"] == "election" else 7
        if before["phase"] == "ballot" and after["phase"] != "ballot":
            start = 0
        end = order.index(after["area"]) if after["phase"] == "election" and after["year"] == before["year"] else 7
        return list(order[start:end]) if start < end else []

    def _count_notice(self) -> Notice:
        state = self.state
        assert state is not None and state.count is not None
        count = state.count
        area = count.area
        lines = []
        standing = self._advisors_in(area)
        for seat in sorted(range(state.n), key=lambda s: -count.votes[s]):
            votes = count.votes[seat]
            if not votes and not state.stack_count[area * state.n + seat]:
                continue
            extra = standing.get(seat, 0)
            detail = (
                _(" ({markers} in markers + {advisors} advisors)").format(markers=votes - extra, advisors=extra)
                if extra
                else ""
            )
            lines.append(
                Line(
                    ngettext("{name}: {n} vote", "{name}: {n} votes", votes).format(
                        name=player_name(self.players[seat]), n=votes
                    )
                    + detail,
                    "normal",
                    self.players[seat],
                )
            )
        if count.winner is not None:
            result = _("{name} wins").format(name=player_name(self.players[count.winner]))
            if len(count.runners_up) == 1:
                result += _("; {name} is runner-up").format(name=player_name(self.players[count.runners_up[0]]))
            elif count.runners_up:
                names = _(" and ").join(player_name(self.players[s]) for s in count.runners_up)
                result += _("; {names} tie for second").format(names=names)
            rule = "6.4" if count.runners_up else "6.3"
        else:
            names = _(" and ").join(player_name(self.players[s]) for s in count.first)
            result = _("{names} tie for first: no winner").format(names=names)
            rule = "6.3"
        lines.append(Line(result, "large"))
        return Notice(AREA_NAMES[area], lines, rule=rule, tag="count")

    def _advisors_in(self, area: int) -> dict[int, int]:
        state = self.state
        assert state is not None
        found: dict[int, int] = {}
        for district in range(6):
            if state.advisor_area[district] == area:
                controller = state.advisor_controller[district]
                found[controller] = found.get(controller, 0) + 1
        for controller, standing in state.quarantia:
            if standing == area:
                found[controller] = found.get(controller, 0) + 1
        return found

    def _year_end_notice(self, before: dict[str, Any]) -> None:
        state = self.state
        assert state is not None
        palaces = {p: sum(owners.count(i) for owners in state.palaces) for i, p in enumerate(self.players)}
        self.palaces_by_year.append(palaces)
        lines = [Line(_("Everyone: take back your markers and area cards."), "small")]
        for seat, player in enumerate(self.players):
            met = state.victory_conditions(seat)
            districts = sum(1 for owners in state.palaces if seat in owners)
            status = (
                ", ".join(_(CONDITION_NAMES[m]) for m in met)
                if met
                else ngettext("{n} palace", "{n} palaces", palaces[player]).format(n=palaces[player])
                + ngettext(" in {d} district", " in {d} districts", districts).format(d=districts)
            )
            lines.append(Line(f"{player_name(player)}: {status}", "small", player))
        self.notices.append(Notice(_("Year {year} ends").format(year=before["year"]), lines, rule="9.2", tag="year"))

    # ------------------------------------------------------------------ saving and resuming

    def _screen_state(self) -> dict[str, Any]:
        def lines(items: list[Line]) -> list[list[Any]]:
            return [[line.text, line.size, line.colour] for line in items]

        return {
            "notices": [
                {"title": n.title, "lines": lines(n.lines), "rule": n.rule, "tag": n.tag}
                for n in self.notices
                if n.tag != "error"
            ],
            "last_reveal": lines(self.last_reveal),
        }

    def _save_screen(self) -> None:
        if self.stage == "setup" or self.state is None:
            return
        state = self._screen_state()
        if state != self._saved_screen:
            self._saved_screen = state
            self.saver.screen(state)

    def resume(self, lines: list[str], screen: dict[str, Any]) -> None:
        """Go on with a stored game exactly where it stopped: same seats, shuffles, locked-in ballots (still
        secret), pending notices. An open private menu starts again at its "look away" gate."""
        header = parse_header(lines[0])
        players = header.players
        pads = header.extra.get("pads") or [str(n) for n in range(1, len(players) + 1)]
        self.joined = list(zip(pads, players, strict=True))
        self.entry = header.extra.get("entry", "private")
        bots = header.extra.get("bots") or {}
        self.bot_levels = {pad: bots[colour] for pad, colour in self.joined if colour in bots}
        if header.extra.get("language") in LANGUAGES:
            self.language = header.extra["language"]
            set_language(self.language)
        state = State(players)
        self.record = [lines[0]]
        self.history = []
        self.palaces_by_year = []
        for text in lines[1:]:
            line = parse_line(text, players)
            if type(line) is ShuffleLine:
                state.shuffle(line.order)
            else:
                before, saved = snapshot(state), state.copy()
                state.apply(players.index(line.player), line.decision)  # type: ignore[union-attr]
                after = snapshot(state)
                undoable = self._reveal_key(before) == self._reveal_key(after)
                self.history.append((saved, len(self.record), undoable, text))
                if before["phase"] == "election" and after["phase"] in ("year_end", "over"):
                    self.palaces_by_year.append(
                        {p: sum(owners.count(i) for owners in state.palaces) for i, p in enumerate(players)}
                    )
            self.record.append(text)
        self.state = state
        self.stage = "over" if state.is_over else "game"
        self._make_bots()

        def restore(items: list[list[Any]]) -> list[Line]:
            return [Line(text, size, colour) for text, size, colour in items]

        self.notices = [Notice(n["title"], restore(n["lines"]), n["rule"], n["tag"]) for n in screen.get("notices", [])]
        self.last_reveal = restore(screen.get("last_reveal", []))
        self._saved_screen = self._screen_state()
        self._draw_chance()

    # ------------------------------------------------------------------ undo

    def _undo_blocker(self) -> str | None:
        if not self.history:
            return _("Nothing to undo.")
        if not self.history[-1][2]:
            return _("The last decision revealed a ballot, a count or a card: it cannot be undone.")
        return None

    def _explain_no_undo(self) -> bool:
        blocker = self._undo_blocker()
        self.notices.insert(0, Notice(_("Undo"), [Line(blocker or "", "normal")], rule="11.4", tag="undo"))
        return False

    def _undo(self) -> None:
        """Back to the state before the last decision (RULES.md 11.4: only when it revealed nothing)."""
        if self._undo_blocker() is not None:
            return
        saved, length, _undoable, _line = self.history[-1]
        try:
            self.saver.rewind(length, self._summary(saved))
        except Exception as error:  # the store says why
            self._not_saved(error)
            return
        self.history.pop()
        self.state = saved
        del self.record[length:]
        self.notices = []
        self.menus = []
        self._menu_for = None
        self.keypad = {}
        self.private = None
        self.stage = "game"

    # ------------------------------------------------------------------ cues

    def awaited_seats(self) -> set[int]:
        state = self.state
        if self.stage != "game" or state is None or self.notices:
            return set()
        awaited = [a.player for a in state.awaiting() if a.player not in self.bots]
        if state.phase == BALLOT and self.entry == "private":
            return set(awaited[:1])
        if state.phase == ELECTION:
            return set(awaited[:1])
        return set(awaited)

    def _update_cues(self) -> None:
        now = self.awaited_seats()
        if not self.cues:
            self._cued = now
            return
        for seat in now - self._cued:
            source = self.source_of(seat)
            self.effects.append(Effect("led", source, "turn", "on"))
            self.effects.append(Effect("beep", source))
        for seat in self._cued - now:
            if seat < len(self.joined):
                self.effects.append(Effect("led", self.source_of(seat), "turn", "off"))
        self._cued = now

    def take_effects(self) -> list[Effect]:
        effects, self.effects = self.effects, []
        return effects

    # ------------------------------------------------------------------ screens

    def screen(self) -> Screen:
        screen = self._screen()
        banner = [
            Line(_("Pad {pad} is unplugged: plug it back in").format(pad=source), "small", "red")
            for source in sorted(self.unplugged)
        ]
        if self.storage_problem:
            banner.insert(0, Line(self.storage_problem, "small", "red"))
        if banner:
            screen = replace(screen, lines=(*banner, *screen.lines))
        return screen

    def _screen(self) -> Screen:
        if self.confirm_undo:
            who = player_name(json.loads(self.history[-1][3])["player"])
            return Screen(
                _("Undo?"),
                (Line(_("Take back {name}'s last decision?").format(name=who), "large"),),
                footer=_("host ok: undo   host back: keep"),
                rule="11.4",
                tags=("undo",),
            )
        if self.help:
            rule = self._screen_body().rule
            return Screen(
                _("Rule {rule}").format(rule=rule) if rule else _("Help"),
                (Line(rule_text(rule), "normal"),),
                footer=_("any host key: back"),
                tags=("help",),
            )
        if self.board_page is not None and self.state is not None:
            return self._board_screen(self.board_page)
        return self._screen_body()

    def _screen_body(self) -> Screen:
        if self.stage == "setup":
            return self._setup_screen()
        if self.stage == "over" and not self.notices:
            return self._final_screen()
        if self.notices:
            notice = self.notices[0]
            return Screen(
                notice.title, tuple(notice.lines), footer=_("ok: go on"), rule=notice.rule, tags=(notice.tag,)
            )
        state = self.state
        assert state is not None
        if state.phase == BALLOT:
            return self._private_screen() if self.entry == "private" else self._keypad_screen()
        return self._decision_screen()

    def _setup_screen(self) -> Screen:
        lines = [Line(_("Press ok on your pad to take a colour"), "normal")]
        for source, colour in self.joined:
            if source in self.bot_levels:
                text = _("Computer ({level}): {colour}").format(
                    level=_(BOT_LEVEL_NAMES[self.bot_levels[source]]), colour=player_name(colour)
                )
            else:
                text = _("Pad {pad}: {colour}").format(pad=source, colour=player_name(colour))
            lines.append(Line(text, "large", colour))
        for source in sorted(self.connected - {pad for pad, _colour in self.joined}):
            lines.append(Line(_("Pad {pad}: press ok to join").format(pad=source), "small"))
        mode = _("at once on keypads") if self.entry == "keypads" else _("one at a time, others look away")
        lines.append(Line(_("Ballots: {mode}").format(mode=mode), "small"))
        lines.append(Line(_("Language: {language}").format(language=LANGUAGE_NAMES[self.language]), "small"))
        ready = 3 <= len(self.joined) <= 4
        footer = _("ok: start  left: language  right: ballots") if ready else _("3 or 4 players")
        return Screen(_("New game"), tuple(lines), footer=footer, rule="2.3", tags=("setup",))

    def _round_title(self) -> str:
        state = self.state
        assert state is not None
        return _("Year {year}, round {round}").format(year=state.year, round=state.round)

    def _keypad_screen(self) -> Screen:
        state = self.state
        assert state is not None
        waiting = [self.players[a.player] for a in state.awaiting()]
        done = [p for p in self.players if p not in waiting and state.markers_left[self.players.index(p)]]
        lines = [Line(_("Choose on your keypad, then ok"), "normal")]
        lines += [Line(_("{name}: choosing").format(name=player_name(p)), "normal", p) for p in waiting]
        lines += [Line(_("{name}: locked in").format(name=player_name(p)), "normal", p) for p in done]
        if state.round > 1:
            lines += self.last_reveal
        return Screen(self._round_title(), tuple(lines), rule="4.2", tags=("ballot-wait",))

    def _private_screen(self) -> Screen:
        turn = self._private_turn()
        assert turn is not None
        name = player_name(self.players[turn.seat])
        colour = self.players[turn.seat]
        if turn.stage == "gate":
            return Screen(
                self._round_title(),
                (
                    Line(_("{name}'s secret ballot").format(name=name), "large", colour),
                    Line(_("Everyone else: look away"), "normal"),
                    Line(_("{name}: press ok on your pad").format(name=name), "normal", colour),
                ),
                rule="4.2",
                tags=("ballot-gate",),
            )
        menu = turn.area_menu if turn.stage == "area" else turn.marker_menu
        assert menu is not None
        hint = _("left/right, ok: pick") if turn.stage == "area" else _("ok: tick a marker; Done to finish")
        return Screen(
            _("{name}'s ballot").format(name=name),
            (Line(menu.title, "normal"),),
            footer=hint,
            rule="4.2",
            colour=colour,
            tags=("private", f"private:{colour}", f"stage:{turn.stage}"),
            menu=MenuView(tuple(o.label for o in menu.options), menu.cursor, frozenset(menu.chosen)),
        )

    def _decision_screen(self) -> Screen:
        state = self.state
        assert state is not None
        menu = self._current_menu()
        assert menu is not None
        seat = state.awaiting()[0].player
        player = self.players[seat]
        return Screen(
            _("{name} decides").format(name=player_name(player)),
            (Line(menu.title, "normal"),),
            footer=_("your pad: left/right, ok; back: up"),
            rule=menu.rule,
            tags=("decision", f"decision:{player}", f"asks:{state.awaiting()[0].decision}"),
            menu=MenuView(tuple(o.label for o in menu.options), menu.cursor),
            colour=player,
        )

    def _order_lines(self) -> list[Line]:
        state = self.state
        assert state is not None
        names = [AREA_NAMES[a] for a in state.this_order]
        return [Line(", ".join(names[:4]), "small"), Line(", ".join(names[4:]), "small")]

    def _board_screen(self, page: int) -> Screen:
        state = self.state
        assert state is not None
        snap = snapshot(state)
        lines: list[Line] = []
        if page == 0:
            title = _("Board: districts")
            for district in AREAS[:6]:
                info = snap["districts"][district]
                houses = ", ".join(f"{player_name(p)} {n}" for p, n in info["houses"].items()) or _("no houses")
                palaces = ", ".join(player_name(p) for p in info["palaces"])
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
            for advisor in snap["advisors"]["quarantia"]:
                lines.append(
                    Line(
                        _("Quarantia: {name} in {area}").format(
                            name=player_name(advisor["controller"]), area=NAMES[advisor["area"]]
                        ),
                        "small",
                    )
                )
        elif page == 2:
            title = _("Board: supplies")
            for player, supply in snap["players"].items():
                lines.append(
                    Line(
                        _("{name}: {h} houses, {p} palaces, {r} rings, {m} markers").format(
                            name=player_name(player),
                            h=supply["houses"],
                            p=supply["palaces"],
                            r=supply["rings"],
                            m=supply["markers"],
                        ),
                        "small",
                        player,
                    )
                )
        else:
            title = _("Voting order")
            lines = [Line(_("Year {year}:").format(year=snap["year"]), "small"), *self._order_lines()]
            turned = [NAMES[a] for a in snap["order"]["next_year"]]
            lines.append(Line(_("Next year: {cards}").format(cards=", ".join(turned) or "-"), "small"))
        return Screen(
            title, tuple(lines), footer=_("host left/right: page   back: close"), tags=("board", f"page:{page}")
        )

    def _final_screen(self) -> Screen:
        state = self.state
        assert state is not None
        winners = [self.players[s] for s in state.winners]
        names = _(" and ").join(player_name(w) for w in winners)
        lines = [Line(ngettext("{names} wins!", "{names} win!", len(winners)).format(names=names), "large", winners[0])]
        lines.append(Line(self._tie_break_text(), "small"))
        for seat, player in enumerate(self.players):
            met = state.victory_conditions(seat)
            if met:
                lines.append(Line(f"{player_name(player)}: {_(CONDITION_NAMES[met[0]])}", "small", player))
        chart = tuple((p, tuple(year[p] for year in self.palaces_by_year)) for p in self.players)
        return Screen(_("Game over"), tuple(lines), rule="9.4", tags=("over",), chart=chart)

    def _tie_break_text(self) -> str:
        state = self.state
        assert state is not None
        meeting = [s for s in range(state.n) if state.victory_conditions(s)]
        if len(meeting) == 1:
            return _("The only player to meet a victory condition.")
        palaces = {s: sum(owners.count(s) for owners in state.palaces) for s in meeting}
        houses = {s: state.houses_on_board(s) for s in meeting}
        best = max(palaces.values())
        if sum(1 for v in palaces.values() if v == best) == 1:
            return _("{n} qualify; most palaces decides ({best}).").format(n=len(meeting), best=best)
        if len(state.winners) == 1:
            return _("Palaces tied at {best}; most houses on the board decides ({h}).").format(
                best=best, h=houses[state.winners[0]]
            )
        return _("Tied on palaces and houses: a shared victory.")
