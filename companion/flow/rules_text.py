"""Short texts of the rules the screens cite, for the help key (rules.md, condensed for a small screen)."""

from __future__ import annotations

from ..i18n import N_, _

RULES: dict[str, str] = {
    "2.1": N_("At the start the board is empty: all pieces in their owners' supplies, the advisors without rings."),
    "2.2": N_("Two decks give the voting order: this year's is face up, next year's face down."),
    "4.2": N_("Each round, everyone with markers picks an area card not used this year and 1 to 4 markers. No pass."),
    "4.3": N_("All choices are revealed at once; markers go face down on their areas. Values stay secret."),
    "4.5": N_("The ballot phase ends after the last round, or when nobody has markers left."),
    "5.2": N_("After each election, the next card of next year's order is turned face up."),
    "6.1": N_("Votes: the values of your markers there, plus 1 per advisor of yours standing there."),
    "6.2": N_("Only players with at least 1 vote take part. A lone 0-marker gives no vote."),
    "6.3": N_(
        "Most votes wins. Tied for first: no single winner, no runner-up; ties have their own rule (10.2.2, 10.5)."
    ),
    "6.4": N_(
        "The runner-up has the second-most votes. If several tie for second, each may place 1 house in the district"
        " (10.2.1); in the Quarantia each may move 1 house instead (10.4)."
    ),
    "6.5": N_("If nobody has a vote, nothing happens in that area."),
    "7.2": N_("Taking control: put your ring on the advisor and stand it in any area but its home. It may stay."),
    "7.3": N_("You need a free ring to take control, unless the advisor is already yours. Without one: abstain."),
    "7.4": N_("Abstaining: the advisor goes back to its symbol, its ring to its owner; you may move one house."),
    "8.2": N_("You may place up to the offered houses, no more than your supply."),
    "8.3.1": N_("After abstaining on a district advisor, a move must leave or enter that district."),
    "8.3.2": N_("After abstaining on a Quarantia advisor, move a house from any district to any other."),
    "8.4": N_("When houses of yours arrive in a district you may build a palace there: houses >= 3 + palaces there."),
    "8.6": N_("Tied players build at the same moment and pay the same; too few spaces: nobody builds."),
    "9.2": N_("Win: a palace in all 6 districts, or 7 palaces in 5 districts, or 8 palaces in 4 districts."),
    "9.4": N_("Several winners: most palaces, then most houses on the board; still tied: shared victory."),
    "10.2.1": N_("The winner decides on the advisor, then places 2 houses; the runner-up places 1."),
    "10.2.2": N_("Tied for first: the advisor goes neutral (its ring goes back); each tied player may place 2 houses."),
    "10.3": N_("Quarantia: all three advisors go back. Winner, runner-up, winner each decide on one."),
    "10.4": N_("Tied runners-up in the Quarantia: each may move 1 house instead; that advisor stays back."),
    "10.5": N_("Tied for first in the Quarantia: each tied player may move up to 2 houses."),
    "11.4": N_(
        "A decision can be undone until what it made public (ballots, a count, a turned card) has been shown; a"
        " computer's decisions after it go with it."
    ),
}


def rule_text(rule: str | None) -> str:
    if rule is None:
        return _("No rule applies here.")
    text = RULES.get(rule) or RULES.get(rule.rsplit(".", 1)[0])
    return _(text) if text else _("See the rulebook, rule {rule}.").format(rule=rule)
