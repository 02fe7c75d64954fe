"""The table twin: the physical table as a group of players who know nothing of the rules keeps it.

It holds the pieces (supplies, houses per district, palaces on their printed spaces, advisors with rings, markers
lying on areas, turned cards) and only carries out board changes as record-format.md 4 words them, refusing
any that cannot be done with the pieces at hand. It never reads the engine: a test compares it with the snapshot
after every line, so a wrong, missing or impossible instruction shows up as a table that no longer matches the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

DISTRICTS = ("cannaregio", "castello", "dorsoduro", "san_marco", "san_polo", "santa_croce")
AREAS = (*DISTRICTS, "quarantia")
SPACES = (3, 4, 5, 6, 7)


class Infeasible(Exception):
    """The table was told to do something its pieces do not allow."""


class TableTwin:
    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        self.supply = {p: {"houses": 15, "palaces": 8, "rings": 6, "markers": 7} for p in players}
        self.houses: dict[str, Counter[str]] = {d: Counter() for d in DISTRICTS}
        self.spaces: dict[str, dict[int, str]] = {d: {} for d in DISTRICTS}
        self.advisors: dict[str, tuple[str, str] | None] = dict.fromkeys(DISTRICTS)
        self.quarantia: list[tuple[str, str]] = []  # controlled Quarantia advisors: (ring owner, where it stands)
        self.markers: dict[str, Counter[str]] = {a: Counter() for a in AREAS}
        self.turned: list[str] = []
        self.year = 1

    @classmethod
    def from_snapshot(cls, snap: dict[str, Any]) -> TableTwin:
        """A table set up as a snapshot shows it (as a test sets up a position without playing to it)."""
        twin = cls(list(snap["players"]))
        for player, pieces in snap["players"].items():
            twin.supply[player] = dict(pieces)
        for district in DISTRICTS:
            twin.houses[district] = Counter(snap["districts"][district]["houses"])
            twin.spaces[district] = dict(zip(SPACES, snap["districts"][district]["palaces"], strict=False))
            advisor = snap["advisors"][district]
            twin.advisors[district] = None if advisor is None else (advisor["controller"], advisor["area"])
        twin.quarantia = [(a["controller"], a["area"]) for a in snap["advisors"]["quarantia"]]
        for area, counts in snap["stacks"].items():
            twin.markers[area] = Counter(counts)
        twin.turned = list(snap["order"]["next_year"])
        twin.year = snap["year"]
        return twin

    # ------------------------------------------------------------------ carrying out

    def take(self, player: str, piece: str, count: int = 1) -> None:
        if count < 1:
            raise Infeasible(f"{player} told to handle {count} {piece}")
        if self.supply[player][piece] < count:
            raise Infeasible(f"{player} has {self.supply[player][piece]} {piece} in supply, needs {count}")
        self.supply[player][piece] -= count

    def lift(self, player: str, district: str, count: int) -> None:
        if district not in self.houses:
            raise Infeasible(f"{district} is not a district")
        if self.houses[district][player] < count:
            raise Infeasible(f"{player} has {self.houses[district][player]} houses in {district}, needs {count}")
        self.houses[district][player] -= count
        if not self.houses[district][player]:
            del self.houses[district][player]

    def stand(self, area: str, advisor: str) -> None:
        if area == advisor:
            raise Infeasible(f"the {advisor} advisor cannot stand at its home")
        if advisor == "quarantia" and area not in DISTRICTS:
            raise Infeasible("a Quarantia advisor stands only in a district")
        if area not in AREAS:
            raise Infeasible(f"{area} is not an area")

    def carry_out(self, change: dict[str, Any]) -> None:
        do = change["do"]
        if do == "markers":
            self.take(change["player"], "markers", change["count"])
            self.markers[change["area"]][change["player"]] += change["count"]
        elif do == "markers_back":
            for player in self.players:
                self.supply[player]["markers"] = 7
            self.markers = {a: Counter() for a in AREAS}
        elif do == "houses":
            if change["district"] not in self.houses:
                raise Infeasible(f"houses go only in districts, not {change['district']}")
            self.take(change["player"], "houses", change["count"])
            self.houses[change["district"]][change["player"]] += change["count"]
        elif do == "move":
            if change["from"] == change["to"] or change["to"] not in self.houses:
                raise Infeasible(f"cannot move from {change['from']} to {change['to']}")
            self.lift(change["player"], change["from"], change["count"])
            self.houses[change["to"]][change["player"]] += change["count"]
        elif do == "palace":
            district, space, player = change["district"], change["space"], change["player"]
            if space not in SPACES or space in self.spaces[district]:
                raise Infeasible(f"palace space {space} in {district} is not free")
            self.lift(player, district, change["houses_back"])
            self.supply[player]["houses"] += change["houses_back"]
            self.take(player, "palaces")
            self.spaces[district][space] = player
        elif do == "houses_back":  # undo (companion/engine/undo.py)
            self.lift(change["player"], change["district"], change["count"])
            self.supply[change["player"]]["houses"] += change["count"]
        elif do == "palace_back":  # undo: the palace leaves its space, the houses it cost come back
            district, space, player = change["district"], change["space"], change["player"]
            if self.spaces[district].get(space) != player:
                raise Infeasible(f"no palace of {player} on space {space} in {district}")
            del self.spaces[district][space]
            self.supply[player]["palaces"] += 1
            self.take(player, "houses", change["houses"])
            self.houses[district][player] += change["houses"]
        elif do == "advisor":
            player, advisor, area = change["player"], change["advisor"], change["area"]
            self.stand(area, advisor)
            if advisor == "quarantia":
                if len(self.quarantia) >= 3:
                    raise Infeasible("no neutral Quarantia advisor is left")
                self.take(player, "rings")
                self.quarantia.append((player, area))
            else:
                if self.advisors[advisor] is not None:
                    raise Infeasible(f"the {advisor} advisor already carries a ring")
                self.take(player, "rings")
                self.advisors[advisor] = (player, area)
        elif do == "advisor_move":
            player, advisor = change["player"], change["advisor"]
            if self.advisors.get(advisor) != (player, change["from"]):
                raise Infeasible(f"{player}'s {advisor} advisor does not stand in {change['from']}")
            self.stand(change["to"], advisor)
            self.advisors[advisor] = (player, change["to"])
        elif do == "advisor_back":
            player, advisor, where = change["player"], change["advisor"], change["from"]
            if advisor == "quarantia":
                if (player, where) not in self.quarantia:
                    raise Infeasible(f"no Quarantia advisor with {player}'s ring stands in {where}")
                self.quarantia.remove((player, where))
            else:
                if self.advisors[advisor] != (player, where):
                    raise Infeasible(f"the {advisor} advisor does not stand in {where} with {player}'s ring")
                self.advisors[advisor] = None
            self.supply[player]["rings"] += 1
        elif do == "card":
            if change["area"] in self.turned or len(self.turned) >= 7:
                raise Infeasible(f"the {change['area']} card is already turned")
            self.turned.append(change["area"])
        elif do == "new_year":
            if len(self.turned) != 7 or change["year"] != self.year + 1:
                raise Infeasible("a new year begins only when all 7 cards are turned")
            self.year = change["year"]
            self.turned = []
        else:
            raise Infeasible(f"unknown change {do!r}")

    def follow(self, changes: Iterable[dict[str, Any]]) -> None:
        for change in changes:
            self.carry_out(change)

    # ------------------------------------------------------------------ comparing

    def differences(self, snap: dict[str, Any]) -> list[str]:
        """Where the table disagrees with a public snapshot (record-format.md 2), as readable lines; empty if agreed."""
        found = []
        for player in self.players:
            for piece in ("houses", "palaces", "rings", "markers"):
                want = snap["players"][player][piece]
                if self.supply[player][piece] != want:
                    found.append(f"{player} {piece} in supply: table {self.supply[player][piece]}, game {want}")
        for district in DISTRICTS:
            want_houses = snap["districts"][district]["houses"]
            if dict(self.houses[district]) != want_houses:
                found.append(f"houses in {district}: table {dict(self.houses[district])}, game {want_houses}")
            spaces = self.spaces[district]
            taken = sorted(spaces)
            if taken != list(SPACES[: len(taken)]):
                found.append(f"palaces in {district} not on the first spaces: {spaces}")
            owners = [spaces[s] for s in taken]
            if owners != snap["districts"][district]["palaces"]:
                found.append(f"palaces in {district}: table {owners}, game {snap['districts'][district]['palaces']}")
            want = snap["advisors"][district]
            have = self.advisors[district]
            if (None if have is None else {"controller": have[0], "area": have[1]}) != want:
                found.append(f"{district} advisor: table {have}, game {want}")
        want_q = sorted((a["controller"], a["area"]) for a in snap["advisors"]["quarantia"])
        if sorted(self.quarantia) != want_q:
            found.append(f"Quarantia advisors: table {sorted(self.quarantia)}, game {want_q}")
        if self.turned != snap["order"]["next_year"]:
            found.append(f"turned cards: table {self.turned}, game {snap['order']['next_year']}")
        # The markers on areas whose election is not finished are what record-format.md 2's stacks show.
        open_areas = []
        if snap["phase"] in ("ballot", "election"):
            open_areas = snap["order"]["this_year"][len(snap["order"]["next_year"]) :]
        lying = {a: dict(self.markers[a]) for a in open_areas if self.markers[a]}
        if lying != snap["stacks"]:
            found.append(f"markers on areas: table {lying}, game {snap['stacks']}")
        return found
