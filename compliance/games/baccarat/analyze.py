"""Exact analysis of the game a ruleset defines: every coup a full shoe can deal.

:func:`enumerate_shoe` counts every coup a full shoe deals under a tableau, by point
value, in six-card permutations; :func:`first_four` counts the four initial cards for the
spots read from them (pairs); :func:`spot_edge` and :func:`analyze` give each spot's exact
odds and house edge; :func:`edge_shift` and :func:`spot_edges` compare tableaux and
variants.  Nothing is sampled and nothing is a float.

How it counts, and the published figures it matches: docs/rule-authoring.md, "Wager spots"
(the Dragon Bonus, and how ``analyze`` counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Any

from compliance.games.baccarat.conditions import Facts
from compliance.games.baccarat.odds import POINTS_PER_DECK, CoupOdds, coup_odds, shoe_counts  # noqa: F401
from compliance.games.baccarat.odds import enumerate_counts as _enumerate
from compliance.games.baccarat.odds import tableau_key as _tableau_key
from compliance.games.baccarat.section import Spot, Tableau
from compliance.games.baccarat.spots import TableSpot, table_spots

# The standard punto banco tableau (NSW Rules of Baccarat r 10.2-10.5, Tables 1 and 2;
# the same in every bundled jurisdiction).  The reference a ruleset's tableau is
# compared with; rulesets/punto-banco.yaml must equal it (tests/test_lint.py).
STANDARD_TABLEAU: dict[str, Any] = {
    "naturals": [8, 9],
    "player_draws": [0, 1, 2, 3, 4, 5],
    "banker_draws_when_player_stood": [0, 1, 2, 3, 4, 5],
    "banker_draws_on_player_third_card": {
        0: "DDDDDDDDDD",
        1: "DDDDDDDDDD",
        2: "DDDDDDDDDD",
        3: "DDDDDDDDSD",
        4: "SSDDDDDDSS",
        5: "SSSSDDDDSS",
        6: "SSSSSSDDSS",
        7: "SSSSSSSSSS",
    },
}

OUTCOMES = ("banker", "player", "tie")  # who wins a coup


@dataclass(frozen=True)
class Outcomes:
    """Every coup of a full shoe, counted as permutations of six cards.

    ``by_hands`` maps (player points, banker points, player cards, banker cards)
    to the number of six-card permutations that end the coup that way.
    """

    decks: int
    by_hands: dict[tuple[int, int, int, int], int]

    @property
    def total(self) -> int:
        return sum(self.by_hands.values())

    def count(self, winner: str) -> int:
        """Permutations in which ``winner`` (banker, player or tie) wins."""
        pick = {"player": lambda p, b: p > b, "banker": lambda p, b: b > p, "tie": lambda p, b: p == b}[winner]
        return sum(n for (p, b, _, _), n in self.by_hands.items() if pick(p, b))

    def probability(self, winner: str) -> Fraction:
        return Fraction(self.count(winner), self.total)


def enumerate_shoe(tableau: Tableau, decks: int) -> Outcomes:
    """Deal every ordering of point values a full shoe of ``decks`` decks allows, by the tableau."""
    return Outcomes(decks, dict(_enumerate(_tableau_key(tableau), decks)))


# ------------------------------------------------------------------ the first cards, by rank, colour and suit


@lru_cache(maxsize=16)
def first_four(decks: int) -> tuple[tuple[tuple, tuple, int], ...]:
    """Every way a full shoe can deal the four initial cards, as (Player's two, Banker's two, count).

    Cards are (rank, colour, suit) triples of canonical labels: the first rank
    seen is 0, the next new one 1, and so on (likewise colours, and suits
    within a colour), and ``count`` is the number of ordered deals of real
    cards each labelled deal stands for.  Condition kinds of the ``cards``
    scope only compare cards for equality, so this counts them exactly in a
    few hundred steps: the counts add up to N x (N-1) x (N-2) x (N-3) for a
    shoe of N cards.
    """
    out: dict[tuple, int] = {}

    def deal(cards: tuple, weight: int) -> None:
        if len(cards) == 4:
            key = ((cards[0], cards[2]), (cards[1], cards[3]))  # dealt Player, Banker, Player, Banker
            out[key] = out.get(key, 0) + weight
            return
        ranks = len({r for r, _, _ in cards})
        colours = len({c for _, c, _ in cards})
        for rank in range(ranks + 1):
            rank_ways = 1 if rank < ranks else 13 - ranks
            for colour in range(min(colours + 1, 2)):
                colour_ways = 1 if colour < colours else 2 - colours
                suits = len({s for _, c, s in cards if c == colour})
                for suit in range(min(suits + 1, 2)):
                    suit_ways = 1 if suit < suits else 2 - suits
                    card = (rank, colour, (colour, suit))
                    copies = decks - cards.count(card)
                    if copies > 0:
                        deal(cards + (card,), weight * rank_ways * colour_ways * suit_ways * copies)

    deal((), 1)
    return tuple((p, b, n) for (p, b), n in sorted(out.items()))


# ------------------------------------------------------------------ wagers


@dataclass(frozen=True)
class WagerEdge:
    """The house edge of one spot: what the house keeps per unit staked, as exact fractions.

    ``per_coup`` counts every coup, a push as a coup in which nothing is won
    or lost; ``per_resolved`` leaves out the coups in which the wager pushes
    (ties, for Player and Banker wagers where a tie returns them).  ``rows``
    counts the deals each way of settling the spot takes: (its words, the
    odds it pays or None for a push, the count), then the deals that lose.
    ``exact`` is False for a spot whose conditions read both the result and
    the first cards (not counted: every figure is then zero).
    """

    spot: str
    win: Fraction
    lose: Fraction
    push: Fraction
    per_coup: Fraction
    per_resolved: Fraction
    counts: dict[str, int]  # win, push, lose: ordered six-card deals
    rows: tuple[tuple[str, Decimal | None, int], ...] = ()
    exact: bool = True


def spot_edge(outcomes: Outcomes, name: str, spot: TableSpot, naturals) -> WagerEdge:
    """House edge of a wager on ``spot`` (its pushes, paytable rows, odds and commission), counted over every
    coup of the full shoe ``outcomes`` was enumerated from."""
    total = outcomes.total
    if spot.scopes == {"cards"}:
        n = 52 * outcomes.decks
        tail = (n - 4) * (n - 5)  # the fifth and sixth cards, as the counts of the result are six-card deals
        deals = [(Facts(None, None, None, None, {"player": p, "banker": b}), count * tail)
                 for p, b, count in first_four(outcomes.decks)]
    elif spot.scopes <= {"result"}:
        deals = []
        for (p, b, pc, bc), count in outcomes.by_hands.items():
            winner = "player" if p > b else "banker" if b > p else "tie"
            deals.append((Facts(winner, {"player": p, "banker": b}, {"player": pc, "banker": bc},
                                {"player": pc == 2 and p in naturals, "banker": bc == 2 and b in naturals}), count))
    else:
        zero = Fraction(0)
        return WagerEdge(name, zero, zero, zero, zero, zero, {"win": 0, "push": 0, "lose": 0}, (), exact=False)
    by_rule = {id(r): 0 for r in spot.rules}
    lost = 0
    for facts, count in deals:
        r = spot.paid_by(facts)
        if r is None:
            lost += count
        else:
            by_rule[id(r)] += count
    gain = Fraction(-lost)
    win = push = 0
    keep = 1 - Fraction(spot.rate or 0)
    rows = []
    for r in spot.rules:
        count = by_rule[id(r)]
        rows.append((r.why if r.odds is None else r.condition.words, r.odds, count))
        if r.odds is None:
            push += count
        else:
            win += count
            gain += count * Fraction(r.odds) * keep
    rows.append(("otherwise it loses", None, lost))
    resolved = total - push
    return WagerEdge(name, Fraction(win, total), Fraction(lost, total), Fraction(push, total), -gain / total,
                     -gain / resolved if resolved else Fraction(0), {"win": win, "push": push, "lose": lost}, tuple(rows))


@dataclass(frozen=True)
class Analysis:
    decks: int
    outcomes: Outcomes
    edges: tuple[WagerEdge, ...]

    @property
    def counts(self) -> dict[str, int]:
        return {w: self.outcomes.count(w) for w in OUTCOMES}


def analyze(tableau: Tableau, spots: dict[str, Spot], decks: int) -> Analysis:
    """Exact outcome counts of a full shoe and the house edge of every spot."""
    outcomes = enumerate_shoe(tableau, decks)
    compiled = table_spots(spots)
    naturals = frozenset(tableau.naturals)
    return Analysis(decks, outcomes, tuple(spot_edge(outcomes, name, s, naturals) for name, s in compiled.items()))


def standard_tableau() -> Tableau:
    """The standard punto banco tableau, as a model."""
    return Tableau.model_validate(STANDARD_TABLEAU)


def edge_shift(tableau: Tableau, spots: dict[str, Spot], decks: int = 8, standard: Tableau | None = None) -> dict[str, Fraction]:
    """How far ``tableau`` moves each spot's house edge (per coup, pushes as coups) from the standard
    tableau's, under the same spots and deck count: positive means the house keeps more.

    For ``ruleset lint``: a tableau that differs from the standard one changes the game, and this
    says by how much (:func:`describe_edge_shift` puts it in words).  ``standard`` defaults to the
    tableau of the ``punto-banco`` base ruleset.  Empty when the tableau is the standard one.
    """
    standard = standard or standard_tableau()
    if _tableau_key(tableau) == _tableau_key(standard):
        return {}
    mine = analyze(tableau, spots, decks)
    base = analyze(standard, spots, decks)
    return {a.spot: a.per_coup - b.per_coup for a, b in zip(mine.edges, base.edges) if a.exact}


def describe_edge_shift(shift: dict[str, Fraction], decks: int = 8) -> str:
    """The shift in words: 'house edge, 8 decks, ties as pushes: player -0.1234%, banker +0.4321%, tie +0.0012%'."""
    parts = [f"{spot} {'+' if x >= 0 else ''}{decimal(x * 100, 4)}%" for spot, x in shift.items()]
    return f"house edge against the standard tableau, {decks} decks, ties as pushes: " + ", ".join(parts)


def spot_edges(game, decks: int = 8) -> dict[str, list[tuple[str, WagerEdge]]]:
    """The house edge of every spot a ruleset's ``game`` offers, game variant by variant:
    spot -> [(variant, edge), ...], spots in the order they are first declared.  For ``ruleset lint``."""
    out: dict[str, list[tuple[str, WagerEdge]]] = {}
    for variant in game.variants:
        spots = {k: s for k, s in game.spots_of(variant).items() if s.offered}
        for e in analyze(game.tableau, spots, decks).edges:
            out.setdefault(e.spot, []).append((variant, e))
    return out


def describe_spot_edges(spot: str, edges: list[tuple[str, WagerEdge]], decks: int = 8) -> str:
    """'spot tie: house edge 14.3596% in punto_banco, mini_baccarat; 4.8447% in ez_baccarat (8 decks, ...)'."""
    groups: dict[str, list[str]] = {}
    for variant, e in edges:
        groups.setdefault(f"{decimal(e.per_coup * 100, 4)}%" if e.exact else "not counted exactly", []).append(variant)
    parts = [f"{edge} in {', '.join(variants)}" for edge, variants in groups.items()]
    return f"spot {spot}: house edge " + "; ".join(parts) + f" ({decks} decks, pushes counted as coups)"


def decimal(x: Fraction, places: int) -> Decimal:
    """A fraction rounded half-even to ``places`` decimal places, for printing."""
    with localcontext() as ctx:
        ctx.prec = 60
        return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal(1).scaleb(-places))
