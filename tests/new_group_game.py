"""Writes the new group's game of docs/scripted-input.md: a whole game as button presses that ends in a few years.

    .venv/bin/python -m tests.new_group_game [--seed N] > night.txt

Random play needs hundreds of presses a year for many years; this table plays with a purpose instead. Three
players join on keypads; Blue and Green are generous: they put their ballots where Red does not go (their lone
0-marker when no other area is left: no vote, rules.md 6.2), abstain on advisors and never build. Red plans each
year: of many random ballot plans (4 areas, markers split among them) it keeps the one whose year, played out, leaves
it nearest to a victory condition (rules.md 9.2), and at each of its decisions it plays every legal answer out to the
year's end and keeps the best. Every choice reaches the companion as key presses only (area and marker keys, a
menu's direct keys, left/right and ok), through the same controller `doge-companion run` uses, at the size of the
default display (a notice too long for the display is read in parts, each part one ok), so the printed script with
the same ``--seed`` and the default config replays exactly this game. Notices are confirmed as the screen asks: each
player it waits for presses ok on their own pad once done, a notice that moves no piece is waited out (it goes by
itself: the page timer's tick), the host presses only what is the host's (the reminder, year 1's order). Each line
has a comment saying what it does.

tests/test_scripted_input_doc.py runs the doc's script through the real command; this generator is how it was made
(the doc says which seed).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from companion.engine import AREAS, DISTRICTS, Abstain, Advisor, Ballot, Build, Decision, Houses, Move, State
from companion.engine.areas import AREA_NAMES, QUARANTIA
from companion.flow.controller import Controller
from companion.flow.narration import ANYONE
from companion.i18n import set_language
from companion.system import config
from hardware.events import InputEvent, PageTick
from tests.helpers import anyone_locked_in, same_notice
from tests.scripted_table import find

SEED = 0
PADS = ("1", "2", "3")  # Red, Blue, Green: seats in the order they join (rules.md 2.3)
RED = 0
PLANS = 300  # ballot plans Red compares each year


# ---------------------------------------------------------------------------------------------- scoring a position


def score(state: State) -> float:
    """How near Red is to a victory condition: palaces in distinct districts first, then houses towards the next."""
    if state.is_over:
        return 1e6 if RED in state.winners else -1e6
    towards = sum(
        min(state.houses(d, RED), state.palace_cost(d)) / state.palace_cost(d)
        for d in DISTRICTS
        if RED not in state.palaces_in(d)
    )
    standing = (state.advisor(d) for d in DISTRICTS)
    advisors = {advisor[1] for advisor in standing if advisor is not None and advisor[0] == RED}
    advisors |= {area for owner, area in state.quarantia_advisors() if owner == RED}
    palaces, districts = state.palaces_of(RED), state.districts_of(RED)
    return 100 * districts + 40 * palaces + 20 * towards + 3 * len(advisors) + 0.1 * state.house_supply(RED)


# ---------------------------------------------------------------------------------------------- quick policies


def generous(state: State, seat: int) -> Decision:
    """Blue and Green in an election: abstain, place what they are offered, never build, never move."""
    legal = state.legal(seat)
    kind = state.awaiting()[0].decision
    if kind == "advisor":
        return Abstain(None)
    if kind == "houses":
        return max((d for d in legal if isinstance(d, Houses)), key=lambda d: d.number)
    if kind == "build":
        return Build(False)
    return Move(None)


def quick_red(state: State) -> Decision:
    """Red without looking ahead (for play-outs): build, place all, stand advisors where Red has none yet, or move a
    house where it makes a palace possible."""
    legal = state.legal(RED)
    kind = next(a.decision for a in state.awaiting() if a.player == RED)
    if kind == "build":
        return Build(True)
    if kind == "houses":
        return max((d for d in legal if isinstance(d, Houses)), key=lambda d: d.number)
    best, best_score = legal[0], score(state)
    for decision in legal:
        trial = state.copy()
        trial.apply(RED, decision)
        if (value := score(trial)) > best_score:
            best, best_score = decision, value
    return best


def play_out(state: State) -> State:
    """The rest of the year's elections with the quick policies."""
    while state.phase == "election":
        seat = state.awaiting()[0].player
        state.apply(seat, quick_red(state) if seat == RED else generous(state, seat))
    return state


def best_red_decision(state: State) -> Decision:
    """Every legal answer played out to the year's end; the best for Red (the first of equals)."""
    legal = state.legal(RED)
    if len(legal) == 1:
        return legal[0]
    scored = []
    for decision in legal:
        trial = state.copy()
        trial.apply(RED, decision)
        scored.append((score(play_out(trial)), -legal.index(decision), decision))
    return max(scored)[2]


# ---------------------------------------------------------------------------------------------- ballot plans


def split(markers: list[int], parts: int, rng: random.Random) -> list[tuple[int, ...]] | None:
    """The markers dealt into ``parts`` ballots of 1 to 4 (some may stay in hand)."""
    rng.shuffle(markers)
    keep = rng.randint(parts, min(len(markers), 4 * parts))
    chosen = sorted(markers[:keep], reverse=True)
    rng.shuffle(chosen)
    cuts = sorted(rng.sample(range(1, keep), parts - 1)) if parts > 1 else []
    groups = [tuple(sorted(chosen[a:b], reverse=True)) for a, b in zip([0, *cuts], [*cuts, keep], strict=True)]
    return groups if all(1 <= len(g) <= 4 for g in groups) else None


def others_ballots(red_areas: Sequence[int], rounds: int, seat: int) -> list[Ballot]:
    """Blue's and Green's ballots for the year: areas Red does not play, a 3 or 2 in each (Blue from the first free
    area, Green from the last); once none is left, their 0 alone in one of Red's (no vote)."""
    free = [a for a in range(7) if a not in red_areas]
    if seat == 2:
        free.reverse()
    values = [3, 3, 2, 2, 1, 1]
    ballots = [Ballot(area, (values[i],)) for i, area in enumerate(free[: rounds - 1])]
    if len(ballots) < rounds:
        ballots.append(Ballot(red_areas[0], (0,)))
    return ballots


def plan_year(state: State, rng: random.Random) -> list[list[Ballot]]:
    """For each round, each seat's ballot (seat order): Red's plan whose year played out scores best."""
    rounds = 4 if state.player_count == 3 else 3
    best: tuple[float, list[list[Ballot]]] | None = None
    for _attempt in range(PLANS):
        areas = rng.sample(range(7), rounds)
        groups = split([0, 1, 1, 2, 2, 3, 3], rounds, rng)
        if groups is None:
            continue
        red = [Ballot(a, g) for a, g in zip(areas, groups, strict=True)]
        plan = [
            [red[r], *(others_ballots(areas, rounds, seat)[r] for seat in range(1, state.player_count))]
            for r in range(rounds)
        ]
        trial = state.copy()
        for ballots in plan:
            for seat, ballot in enumerate(ballots):
                trial.apply(seat, ballot)
        value = score(play_out(trial))
        if best is None or value > best[0]:
            best = (value, plan)
    assert best is not None
    return best[1]


# ---------------------------------------------------------------------------------------------- key presses


class Script:
    """The controller `doge-companion run` drives, fed key presses; each press is also a line of the script."""

    def __init__(self, seed: int) -> None:
        self.controller = Controller(random.Random(seed), entry="private")
        # the default display's size (the doc's command reads no config): a notice too long for it takes more oks
        self.controller.parts.size = config.load(search=False).display_size
        self.lines: list[str] = []
        self.said: object = None  # the notice last commented on: its further oks say only who is done

    def press(self, source: str, key: str, comment: str = "") -> None:
        self.controller.handle(InputEvent(source, key))
        self.lines.append((f"{source} {key}".ljust(20) + (f"# {comment}" if comment else "")).rstrip())

    def note(self, text: str) -> None:
        self.lines.append(f"# {text}" if text else "")

    def wait(self, comment: str) -> None:
        """Some seconds pass (the page timer's tick)."""
        self.controller.handle(PageTick())
        self.lines.append("wait".ljust(20) + f"# {comment}")

    def choose(self, seat: int, decision: Decision, comment: str) -> None:
        """Reach ``decision`` in the acting player's menus: a direct key where the option has one, else left/right
        to it and ok."""
        source = PADS[seat]
        self.controller.screen()  # builds the menu for this moment
        path = find(self.controller.keying.menus[-1], decision)
        assert path is not None, decision
        for depth, index in enumerate(path):
            menu = self.controller.keying.menus[-1]
            option = menu.options[index]
            said = comment if depth == len(path) - 1 else ""
            if option.key is not None:
                self.press(source, option.key, said)
                continue
            right, left = (index - menu.cursor) % len(menu.options), (menu.cursor - index) % len(menu.options)
            for _step in range(min(right, left)):
                self.press(source, "right" if right <= left else "left")
            self.press(source, "ok", said or option.label)


NOTICES = ("reminder", "notice", "reveal", "count", "empty", "instructions", "year")


def notice_comment(title: str, tags: Sequence[str], lines: Sequence[str]) -> str:
    """What the host's ok goes past: the notice in a few words (its first sentence, for the board's)."""
    lines = [line.replace("\u00a0", " ") for line in lines]
    kind = tags[0]
    if kind == "reminder":
        return f"the first year's reminder, page {tags[1][5:]}: {title}"
    if kind == "notice" and title.startswith("Year "):
        return f"{title}: this year's voting order"
    if kind == "reveal":
        return f"{title}: who put how many markers where, face down"
    if kind == "count":
        card = " (and next year's card)" if "Take the " in lines[0] else ""
        return f"the count in {title}{card}: {lines[-1]}"
    if kind == "empty":
        return f"{title}: nobody has a vote; lay next year's card"
    if kind == "instructions":
        return lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")
    return f"{title}: markers back; who meets a victory condition"


def name(seat: int, players: Sequence[str]) -> str:
    return players[seat].capitalize()


def describe(decision: Decision, slot: int | None) -> str:
    if isinstance(decision, Advisor):
        advisor = "a Quarantia advisor" if slot == QUARANTIA else f"the {AREA_NAMES[slot or 0]} advisor"
        return f"takes {advisor}, stands it in {AREA_NAMES[decision.area]}"
    if isinstance(decision, Abstain | Move):
        verb = "abstains" if isinstance(decision, Abstain) else "moves"
        move = decision.move
        if move is None:
            return "abstains, moves no house" if verb == "abstains" else "moves no house"
        where = f"a house from {AREA_NAMES[move.source]} to {AREA_NAMES[move.target]}"
        return f"abstains and moves {where}" if verb == "abstains" else f"moves {where}"
    if isinstance(decision, Houses):
        return f"places {decision.number} house{'s' if decision.number != 1 else ''}"
    assert isinstance(decision, Build)
    return "builds a palace" if decision.build else "does not build"


def write(seed: int = SEED, language: str = "en") -> tuple[list[str], State]:
    """The script, for a table whose config sets ``language`` (a notice's parts, so its oks, depend on it)."""
    set_language(language)
    script = Script(seed)
    rng = random.Random(seed)
    controller = script.controller
    script.note("A new group: three players join on their keypads, in seat order")
    for pad, colour in zip(PADS, ("Red", "Blue", "Green"), strict=True):
        script.press(pad, "ok", f"{colour} joins")
    script.press("host", "right", "ballots: at once on keypads")
    script.press("host", "ok", "start")
    plan: list[list[Ballot]] = []
    year = 0
    while controller.stage != "over" or controller.notices:
        state = controller.state
        assert state is not None
        screen = controller.screen()
        tags = screen.tags
        players = state.players
        if tags[0] in NOTICES:
            if tags[0] == "notice" and screen.title.startswith("Year ") and state.year != year:
                year = state.year
                script.note("")
                script.note(f"======== year {year} " + "=" * 60)
            what = notice_comment(screen.title, tags, [line.text for line in screen.lines])
            top = controller.notices[0] if controller.notices else None
            if top is not None and top.waiting:  # a player it waits for: done, on their own pad
                seat = RED if top.waiting[0] == ANYONE else players.index(top.waiting[0])  # a card: anyone lays it
                said = f"{name(seat, players)}: done" + ("" if same_notice(top, script.said) else f" ({what})")
                script.said = top
                script.press(PADS[seat], "ok", said)
            elif top is not None and top.by_itself:  # it moves no piece: read, it goes by itself
                script.wait(
                    "it goes on by itself" if same_notice(top, script.said) else f"{what} (it goes on by itself)"
                )
                script.said = top
            elif top is not None and top.owners:  # all done, a part never up yet: it comes up, then the notice goes
                script.wait("the part not up yet comes up by itself")
            else:
                script.press("host", "ok", what)
        elif "ballot-wait" in tags:
            if state.round == 1 and not anyone_locked_in(state) and not plan:
                plan = plan_year(state, rng)
                red = ", ".join(AREA_NAMES[ballots[RED].area] for ballots in plan)
                script.note(f"Red plays {red}; Blue and Green go elsewhere")
            ballots = plan[state.round - 1]
            script.note(f"round {state.round}: everyone keys area and markers on their own keypad, then ok")
            for seat, ballot in enumerate(ballots):
                if state.locked_in(seat) or not state.markers_left(seat):
                    continue
                pad = PADS[seat]
                values = "+".join(str(v) for v in ballot.markers)
                said = f"{name(seat, players)}: {AREA_NAMES[ballot.area]}, markers {values}"
                script.press(pad, f"area:{AREAS[ballot.area]}", said)
                for value in ballot.markers:
                    script.press(pad, f"marker:{value}")
                script.press(pad, "ok", "locked in")
            if state.round == len(plan):
                plan = []
        else:
            seat = state.awaiting()[0].player
            decision = best_red_decision(state) if seat == RED else generous(state, seat)
            slot = state.awaiting()[0].slot
            script.choose(seat, decision, f"{name(seat, players)} {describe(decision, slot)}")
    script.note("the game is over: the winner, then (host right) the standings and the chart")
    script.press("host", "right", "standings")
    script.press("host", "right", "chart")
    final = controller.state
    assert final is not None and final.is_over
    return script.lines, final


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    lines, state = write(args.seed)
    print("\n".join(lines))
    winners = ", ".join(state.players[s] for s in state.winners)
    print(f"{len(lines)} lines; the game ends in year {state.year}: {winners} wins", file=sys.stderr)


if __name__ == "__main__":
    main()
