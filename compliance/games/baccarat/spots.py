"""The wager spots of a table, ready to settle: the ruleset's declaration, compiled once a transcript.

A ruleset declares the spots a table offers (``game.spots``, changed by the
table's game variant); :func:`table_spots` turns them into
:class:`TableSpot` objects that settle a wager from the facts of a finished
coup.  Settlement, limits, the table differential, the simulator and the
exact analysis all read spots through here; no spot is named in code.

A wager on a spot is settled by the first that holds of: a ``pushes``
condition (the stake is returned), a ``pays`` row (paid at its odds, less
the spot's commission), the ``wins`` condition (paid at ``odds``, less the
commission); otherwise it loses.
"""

from __future__ import annotations

import itertools
from decimal import Decimal

from compliance.cards import CANONICAL, PARTIAL, POINTS, RANKS
from compliance.conditions import CONDITIONS, Unknown
from compliance.games.baccarat import conditions as _conditions  # noqa: F401  (registers baccarat's condition kinds)
from compliance.games.baccarat.conditions import Facts
from compliance.games.baccarat.section import Spot, title_of
from compliance.games.common import WIDE, ZERO, money
from compliance.ruleset.models import Condition

#: a card as condition kinds compare it: (rank, colour, suit); a card recorded in part (format 1.1) has None
#: for what the record does not hold (7?: the rank only; 0? and ??: nothing a condition can compare)
COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}
CARD_VIEW = {code: (code[0], COLOUR[code[1]], code[1]) for code in set(CANONICAL.values())} | {
    code: (code[0] if code[0] in RANKS else None, None, None) for code in set(PARTIAL.values())}


def _key(cond: Condition) -> tuple:
    return cond.kind, tuple(sorted((k, repr(v)) for k, v in cond.params.model_dump().items()))


class Rule:
    """One way a spot is settled: a condition, and what it gives (``odds`` None: a push)."""

    __slots__ = ("condition", "holds", "odds", "params", "why")

    def __init__(self, condition: Condition, odds: Decimal | None, why):
        self.condition = condition
        self.holds = CONDITIONS[condition.kind].holds
        self.params = condition.params
        self.odds = odds
        self.why = why


class TableSpot:
    """A spot as a table offers it: its settlement rules in the order they are judged."""

    __slots__ = (
        "_lose",
        "by_result",
        "differential",
        "name",
        "rate",
        "requires",
        "rules",
        "scopes",
        "spot",
        "table_limits",
        "title",
    )

    def __init__(self, name: str, spot: Spot, push_titles: dict[tuple, str]):
        self.name = name
        self.title = title_of(name, spot)
        self.spot = spot
        self.rate = spot.commission  # None: the spot takes no commission
        self.differential = spot.differential
        self.table_limits = spot.table_limits
        self.requires = spot.requires
        rules = []
        for cond in spot.pushes.values():
            rules.append(Rule(cond, None, f"{cond.words} returns {push_titles[_key(cond)]} wagers"))
        for row in spot.pays.values():
            rules.append(Rule(row.when, row.odds, row.when.words))
        if spot.wins is not None:
            rules.append(Rule(spot.wins, spot.odds, self.title))
        self.rules = tuple(rules)
        self.scopes = frozenset(CONDITIONS[r.condition.kind].scope for r in rules)
        # a spot settled on the result alone is settled alike in every coup with the same result: its terms are
        # worked out once per result (points, cards and naturals of both hands) and kept, for a table's transcript
        self.by_result: dict | None = {} if self.scopes <= {"result"} else None
        first = spot.wins or next(iter(spot.pays.values())).when
        self._lose = (CONDITIONS[first.kind].fact, first.params)

    def terms(self, f: Facts) -> tuple | None:
        """(outcome, odds, commission rate, why, spot) of any wager on the spot in a coup with facts ``f``;
        None where the record does not show what its conditions read (the wager is not judged)."""
        try:
            return self._terms(f)
        except Unknown:
            return None

    def possible_terms(self, f: Facts) -> list[tuple] | None:
        """Where the record leaves out only the suits of first cards (``7? 7?``): the terms of the wager under
        every suit those cards could have, each once (a pair of sevens wins Perfect Pairs whatever the suits;
        only which row pays is unknown).  None where that is not enough (a rank left out too)."""
        unknown = [(h, i) for h in ("player", "banker") for i, card in enumerate(f.first_two[h])
                   if card[2] is None]
        if not unknown or len(unknown) > 4 or any(f.first_two[h][i][0] is None for h, i in unknown):
            return None
        out: dict[tuple, tuple] = {}
        for suits in itertools.product("SCHD", repeat=len(unknown)):
            first = {h: list(cards) for h, cards in f.first_two.items()}
            for (h, i), s in zip(unknown, suits, strict=True):
                first[h][i] = (first[h][i][0], COLOUR[s], s)
            try:
                terms = self._terms(Facts(f.winner, f.points, f.cards, f.natural,
                                          {h: tuple(cards) for h, cards in first.items()}))
            except Unknown:
                return None
            out.setdefault(terms[:3], terms)
        return list(out.values())

    def _terms(self, f: Facts) -> tuple:
        for r in self.rules:
            if r.holds(f, r.params):
                if r.odds is None:
                    return "push", None, ZERO, r.why, None
                return "win", r.odds, self.rate or ZERO, self._paid(r), self.spot
        fact, params = self._lose
        return "lose", None, ZERO, lambda: fact(f, params), None

    def _paid(self, r: Rule):
        rate, spot = self.rate, self.spot

        def why() -> str:
            text = f"{r.why} pays {money(r.odds)} to 1"
            if not rate:
                return text
            rounded = (f", rounded {spot.commission_rounding.replace('_', ' ')} to {money(spot.commission_unit)}"
                       if spot.commission_unit else "")
            return text + f" less {money(rate.scaleb(2, WIDE))}% commission{rounded}"

        return why

    def outcome(self, f: Facts) -> tuple[str, Decimal, Decimal]:
        """(outcome, odds, commission rate) for a unit staked: what the exact analysis and the simulator need."""
        for r in self.rules:
            if r.holds(f, r.params):
                return ("push", ZERO, ZERO) if r.odds is None else ("win", r.odds, self.rate or ZERO)
        return "lose", ZERO, ZERO

    def paid_by(self, f: Facts) -> Rule | None:
        """The rule that settles the spot in a coup with facts ``f`` (None: the wager loses)."""
        return next((r for r in self.rules if r.holds(f, r.params)), None)


def table_spots(spots: dict[str, Spot]) -> dict[str, TableSpot]:
    """The spots of a table, compiled, in their declared order."""
    pushing: dict[tuple, list[str]] = {}
    for name, spot in spots.items():
        for cond in spot.pushes.values():
            pushing.setdefault(_key(cond), []).append(title_of(name, spot))
    titles = {key: _and(names) for key, names in pushing.items()}
    return {name: TableSpot(name, spot, titles) for name, spot in spots.items()}


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_key(c, naturals) -> tuple:
    """What a result condition can see of a replayed coup: each hand's final points, its cards, whether a natural."""
    points = c.points
    return (points[2], points[3], len(c.player), len(c.banker),
            points[0] in naturals and c.player_initial == 2, points[1] in naturals and c.banker_initial == 2)


def coup_facts(c, naturals) -> Facts:
    """The facts of a replayed coup (baccarat's CoupState) that conditions read."""
    p, b = c.points[2], c.points[3]
    player, banker = c.player, c.banker
    return Facts(
        "player" if p > b else "banker" if b > p else "tie",
        {"player": p, "banker": b},
        {"player": len(player), "banker": len(banker)},
        {"player": c.points[0] in naturals and c.player_initial == 2,
         "banker": c.points[1] in naturals and c.banker_initial == 2},
        {"player": tuple(CARD_VIEW[x.code] for x in player[:2]), "banker": tuple(CARD_VIEW[x.code] for x in banker[:2])},
    )


class _NotRecorded(dict):
    """What a coup without its cards cannot say of each hand (its cards, a natural, its first two cards): a
    condition that reads it gets Unknown, and the wagers it settles are not judged."""

    def __getitem__(self, hand):
        raise Unknown("the cards were not recorded", "cards")

    def get(self, hand, default=None):
        raise Unknown("the cards were not recorded", "cards")


def announced_facts(result) -> Facts:
    """The facts of a coup whose cards were not recorded (or not all read), from its announced result: the
    winner and each hand's points; what a condition reads of the cards is unknown."""
    unknown = _NotRecorded()
    return Facts(result.winner, {"player": result.player_points, "banker": result.banker_points}, unknown, unknown,
                 unknown)


def hand_facts(player: list[str], banker: list[str], naturals) -> Facts:
    """The facts of a coup dealt as two lists of card codes, the first two of each its initial cards."""
    pi = sum(POINTS[x] for x in player[:2]) % 10
    bi = sum(POINTS[x] for x in banker[:2]) % 10
    p = sum(POINTS[x] for x in player) % 10
    b = sum(POINTS[x] for x in banker) % 10
    return Facts(
        "player" if p > b else "banker" if b > p else "tie",
        {"player": p, "banker": b},
        {"player": len(player), "banker": len(banker)},
        {"player": pi in naturals, "banker": bi in naturals},
        {"player": tuple(CARD_VIEW[x] for x in player[:2]), "banker": tuple(CARD_VIEW[x] for x in banker[:2])},
    )
