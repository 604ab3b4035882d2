"""Exact analysis of the game a ruleset defines: every coup a full shoe can deal.

The shoe is read as its composition by point value (ten points, each with a
multiplicity: sixteen cards worth 0 and four of each of 1 to 9 per deck), so
the enumeration walks at most 10 x 10 x 10 x 10 x 10 x 10 orderings of point
values instead of every permutation of cards, and weighs each by the number of
ways the shoe can deal it.  A coup that ends after four or five cards is
counted with every way the remaining one or two of six cards can come out, so
that counts are the permutations of six cards from the shoe, as published
(Wizard of Odds, "Baccarat", appendix 1): for eight decks the total is
416 x 415 x 414 x 413 x 412 x 411 = 4,998,398,275,503,360.

The drawing rules come from the ruleset's tableau and the payouts from its
``game.payouts``; nothing here is sampled and nothing is a float: counts are
integers and probabilities and house edges are exact fractions, rounded only
when printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Any

from compliance.cards import DECK, POINTS
from compliance.ruleset.models import Payout, Payouts, Tableau

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

#: how many cards of each point value 0..9 one deck holds (16 worth 0, 4 of each other value)
POINTS_PER_DECK: tuple[int, ...] = tuple(sum(1 for c in DECK if POINTS[c] == v) for v in range(10))
SPOTS = ("banker", "player", "tie")


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


def _tableau_key(t: Tableau) -> tuple:
    rows = tuple((total, tuple(row[v] == "D" for v in range(10))) for total, row in sorted(t.banker_draws_on_player_third_card.items()))
    return frozenset(t.naturals), frozenset(t.player_draws), frozenset(t.banker_draws_when_player_stood), rows


@lru_cache(maxsize=16)
def _enumerate(key: tuple, decks: int) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    naturals, player_draws, banker_stood_draws, rows = key
    banker_row = dict(rows)
    left = [n * decks for n in POINTS_PER_DECK]
    size = sum(left)
    tail5 = size - 5  # ways the sixth card can come out once five are dealt
    tail4 = (size - 4) * tail5  # ways the fifth and sixth can come out once four are dealt
    counts: dict[tuple[int, int, int, int], int] = {}
    values = range(10)

    def add(key, n):
        counts[key] = counts.get(key, 0) + n

    for p1 in values:
        w1 = left[p1]
        if not w1:
            continue
        left[p1] -= 1
        for b1 in values:
            w2 = w1 * left[b1]
            if not w2:
                continue
            left[b1] -= 1
            for p2 in values:
                w3 = w2 * left[p2]
                if not w3:
                    continue
                left[p2] -= 1
                player = (p1 + p2) % 10
                for b2 in values:
                    w4 = w3 * left[b2]
                    if not w4:
                        continue
                    left[b2] -= 1
                    banker = (b1 + b2) % 10
                    if player in naturals or banker in naturals:
                        add((player, banker, 2, 2), w4 * tail4)
                    elif player in player_draws:
                        draws = banker_row.get(banker)
                        for p3 in values:
                            w5 = w4 * left[p3]
                            if not w5:
                                continue
                            final_player = (player + p3) % 10
                            if draws is not None and draws[p3]:
                                left[p3] -= 1
                                for b3 in values:
                                    if left[b3]:
                                        add((final_player, (banker + b3) % 10, 3, 3), w5 * left[b3])
                                left[p3] += 1
                            else:
                                add((final_player, banker, 3, 2), w5 * tail5)
                    elif banker in banker_stood_draws:
                        for b3 in values:
                            w5 = w4 * left[b3]
                            if w5:
                                add((player, (banker + b3) % 10, 2, 3), w5 * tail5)
                    else:
                        add((player, banker, 2, 2), w4 * tail4)
                    left[b2] += 1
                left[p2] += 1
            left[b1] += 1
        left[p1] += 1
    return tuple(sorted(counts.items()))


@dataclass(frozen=True)
class CoupOdds:
    """The chance of each outcome of one coup dealt from a full shoe, exact: what integrity compares counts with."""

    decks: int
    banker: Fraction
    player: Fraction
    tie: Fraction
    natural: Fraction  # either hand holds a natural after the initial four cards


@lru_cache(maxsize=16)
def _coup_odds(key: tuple, decks: int) -> CoupOdds:
    naturals = key[0]
    counts = dict(_enumerate(key, decks))
    total = sum(counts.values())
    banker = sum(n for (p, b, _, _), n in counts.items() if b > p)
    player = sum(n for (p, b, _, _), n in counts.items() if p > b)
    natural = sum(n for (p, b, pc, bc), n in counts.items() if pc == bc == 2 and (p in naturals or b in naturals))
    return CoupOdds(decks, Fraction(banker, total), Fraction(player, total),
                    Fraction(total - banker - player, total), Fraction(natural, total))


def coup_odds(tableau: Tableau, decks: int) -> CoupOdds:
    """Banker, Player, Tie and natural probabilities of a coup from a full shoe of ``decks`` decks under
    ``tableau``, from the exact enumeration (the shoe and table integrity tests read them here)."""
    return _coup_odds(_tableau_key(tableau), decks)


# ------------------------------------------------------------------ wagers


@dataclass(frozen=True)
class WagerEdge:
    """The house edge of one wager: what the house keeps per unit staked, as exact fractions.

    ``per_coup`` counts every coup, a push as a coup in which nothing is won
    or lost; ``per_resolved`` leaves out the coups in which the wager pushes
    (ties, for Player and Banker wagers where a tie returns them).
    """

    spot: str
    win: Fraction
    lose: Fraction
    push: Fraction
    per_coup: Fraction
    per_resolved: Fraction


def _winnings(payout: Payout, points: int | None, cards: int | None) -> Fraction | None:
    """Net winnings per unit staked on a winning wager (None: the exception makes it a push)."""
    odds = payout.odds
    for ex in payout.exceptions:
        if points is not None and points == ex.points and (ex.cards is None or ex.cards == cards):
            if ex.push:
                return None
            odds = ex.odds
            break
    return Fraction(odds) * (1 - Fraction(payout.commission))


def wager_edge(outcomes: Outcomes, payouts: Payouts, spot: str) -> WagerEdge:
    """House edge of a wager on ``spot`` under ``payouts`` (odds, commission, exceptions, what a tie does)."""
    payout = getattr(payouts, spot)
    total = outcomes.total
    gain = Fraction(0)  # expected net result for the patron, in permutations x units
    win = lose = push = 0
    for (p, b, pc, bc), n in outcomes.by_hands.items():
        winner = "player" if p > b else "banker" if b > p else "tie"
        if winner == "tie" and spot != "tie":
            if payouts.on_tie == "push":
                push += n
            else:
                lose += n
                gain -= n
            continue
        if winner != spot:
            lose += n
            gain -= n
            continue
        points, cards = (p, pc) if spot == "player" else (b, bc) if spot == "banker" else (None, None)
        net = _winnings(payout, points, cards)
        if net is None:
            push += n
        else:
            win += n
            gain += n * net
    per_coup = -gain / total
    resolved = total - push
    return WagerEdge(spot, Fraction(win, total), Fraction(lose, total), Fraction(push, total),
                     per_coup, -gain / resolved if resolved else Fraction(0))


@dataclass(frozen=True)
class Analysis:
    decks: int
    outcomes: Outcomes
    edges: tuple[WagerEdge, ...]

    @property
    def counts(self) -> dict[str, int]:
        return {w: self.outcomes.count(w) for w in SPOTS}


def analyze(tableau: Tableau, payouts: Payouts, decks: int) -> Analysis:
    """Exact outcome counts of a full shoe and the house edge of every wager."""
    outcomes = enumerate_shoe(tableau, decks)
    return Analysis(decks, outcomes, tuple(wager_edge(outcomes, payouts, s) for s in SPOTS))


def standard_tableau() -> Tableau:
    """The standard punto banco tableau, as a model."""
    return Tableau.model_validate(STANDARD_TABLEAU)


def edge_shift(tableau: Tableau, payouts: Payouts, decks: int = 8, standard: Tableau | None = None) -> dict[str, Fraction]:
    """How far ``tableau`` moves each wager's house edge (per coup, ties as pushes) from the standard
    tableau's, under the same payouts and deck count: positive means the house keeps more.

    For ``ruleset lint``: a tableau that differs from the standard one changes the game, and this
    says by how much (:func:`describe_edge_shift` puts it in words).  ``standard`` defaults to the
    tableau of the ``punto-banco`` base ruleset.  Empty when the tableau is the standard one.
    """
    standard = standard or standard_tableau()
    if _tableau_key(tableau) == _tableau_key(standard):
        return {}
    mine = analyze(tableau, payouts, decks)
    base = analyze(standard, payouts, decks)
    return {a.spot: a.per_coup - b.per_coup for a, b in zip(mine.edges, base.edges)}


def describe_edge_shift(shift: dict[str, Fraction], decks: int = 8) -> str:
    """The shift in words: 'house edge, 8 decks, ties as pushes: banker +0.4321%, player -0.1234%, tie +0.0012%'."""
    parts = [f"{spot} {'+' if shift[spot] >= 0 else ''}{decimal(shift[spot] * 100, 4)}%" for spot in SPOTS if spot in shift]
    return f"house edge against the standard tableau, {decks} decks, ties as pushes: " + ", ".join(parts)


def decimal(x: Fraction, places: int) -> Decimal:
    """A fraction rounded half-even to ``places`` decimal places, for printing."""
    with localcontext() as ctx:
        ctx.prec = 60
        return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal(1).scaleb(-places))
