"""The patron's edge at a wager, given the cards left in the shoe: what advantage play on a side wager exploits.

A spot whose conditions read the result of the coup (Dragon 7, Panda 8, the
Tie) is settled by the final points and card counts of the two hands.  The
chance of each such end of a coup depends on the cards left in the shoe; late
in a shoe short of 8s and 9s the Dragon 7 wager (a three-card Banker 7 that
wins, 40 to 1) favours the patron.  This module gives that edge two ways:

* :func:`exact_edge`: exact, as a fraction, from every ordering of point
  values the shoe left can deal (the walk of :mod:`.odds`, counting only the
  ends that pay or push: a losing end needs no count, as the edge is what the
  paying ends return less the stake).  A few hundredths of a second a
  composition; for tests, the documentation's validation and the money of a
  finding.
* :class:`RemovalCount`: the effect of removal, a running count: the edge of
  the full shoe, plus each point value's effect of removing one card of it
  (exact, from the same walk), scaled by how far the shoe left strays from the
  full shoe's proportions.  Ten multiplications a coup; the integrity stage
  reads every coup this way.  Its error against :func:`exact_edge` is measured
  (``bench/advantage_play.py``, docs/integrity.md) and largest late in a shoe.

Edges here are the patron's: what a unit staked returns on average beyond the
stake (negative: the house's edge).  Nothing is a float but the count.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from compliance.conditions import Facts
from compliance.games.baccarat.odds import ENDS, POINTS_PER_DECK, deal_counts, end_index, tableau_key, third_cards


def full_shoe(decks: int) -> tuple[int, ...]:
    """The cards of each point value 0..9 in a full shoe of ``decks`` decks."""
    return tuple(n * decks for n in POINTS_PER_DECK)


class Returns(tuple):
    """What a unit staked on a spot gives back at each of :data:`ENDS` (a tuple of fractions), hashed once, with
    the Banker's third-card values that end a coup paying (worked out once, for the walk)."""

    def __hash__(self):
        h = self.__dict__.get("hash")
        if h is None:
            h = self.__dict__["hash"] = tuple.__hash__(self)
        return h

    def __eq__(self, other):
        return self is other or tuple.__eq__(self, other)

    @property
    def third(self) -> dict:
        """(Player's points, Banker's points before a third card, Player's cards) -> the Banker's third-card values
        that end the coup giving something back, each with the end's place."""
        t = self.__dict__.get("third_")
        if t is None:
            t = self.__dict__["third_"] = third_cards(self)
        return t


def returns(spot, naturals) -> Returns | None:
    """What a unit staked on ``spot`` (a :class:`~compliance.games.baccarat.spots.TableSpot`) gives back, stake
    included, at each of :data:`ENDS`: ``1 + odds`` (less the spot's commission) where it wins, 1 where it
    pushes, 0 where it loses.  None for a spot whose conditions read more than the result (pairs)."""
    if not spot.scopes <= {"result"}:
        return None
    keep = 1 - Fraction(spot.rate or 0)
    out = []
    for p, b, pc, bc in ENDS:
        winner = "player" if p > b else "banker" if b > p else "tie"
        facts = Facts(winner, {"player": p, "banker": b}, {"player": pc, "banker": bc},
                      {"player": pc == 2 and p in naturals, "banker": bc == 2 and b in naturals})
        rule = spot.paid_by(facts)
        out.append(Fraction(0) if rule is None else Fraction(1) if rule.odds is None
                   else 1 + Fraction(rule.odds) * keep)
    return Returns(out)


def exact_edge(tableau, back: tuple[Fraction, ...], left) -> Fraction | None:
    """The patron's exact edge on a spot that gives ``back`` (:func:`returns`) at each end, for a coup dealt from
    a shoe holding ``left[v]`` cards of point value ``v``; None where fewer than six cards are left."""
    return _exact(tableau_key(tableau), back, tuple(left))


@lru_cache(maxsize=4096)
def _exact(key: tuple, back: tuple[Fraction, ...], left: tuple[int, ...]) -> Fraction | None:
    size = sum(left)
    if size < 6:
        return None
    paid = deal_counts(key, left, back, back.third if isinstance(back, Returns) else None)
    return sum((back[i] * n for i, n in paid.items()), Fraction(0)) / math.perm(size, 6) - 1



def removals(key: tuple, back: tuple[Fraction, ...], start: tuple[int, ...]) -> tuple[Fraction, tuple]:
    """(the exact edge for the shoe ``start``, the exact edge for it less one card of each point value: None where
    it holds none), in one walk of the deals that pay (as :func:`~compliance.games.baccarat.odds.deal_counts`,
    which this repeats, keeping beside each end's ways ``C`` the same ways times each value's cards in the deal,
    ``K_v``).  Taking a card of value ``v`` out of a shoe of ``N`` cards leaves a deal of ``k`` cards, ``k_v`` of
    them ``v``, its ways times ``(c_v - k_v) / c_v`` and ``(N - 6) / (N - k)`` (the cards after it), of
    ``(N - 1)_6 = (N)_6 (N - 6) / N`` deals: so the end's share is ``N (c_v C - K_v) / ((N - k) c_v (N)_6)``."""
    naturals, player_draws, banker_stood_draws, rows = key
    banker_row = dict(rows)
    third = back.third if isinstance(back, Returns) else third_cards(back)
    left = list(start)
    size = sum(left)
    tail5 = size - 5
    tail4 = (size - 4) * tail5
    at = end_index
    ways: dict[int, list[int]] = {}  # end -> [C, K_0 .. K_9]

    def add(i: int, w: int, *cards: int) -> None:
        row = ways.get(i)
        if row is None:
            row = ways[i] = [0] * 11
        row[0] += w
        for v in cards:
            row[v + 1] += w

    values = range(10)
    for p1 in values:
        w1 = left[p1]
        if not w1:
            continue
        left[p1] -= 1
        for p2 in range(p1, 10):
            w2 = w1 * left[p2] * (1 if p2 == p1 else 2)
            if not w2:
                continue
            left[p2] -= 1
            player = (p1 + p2) % 10
            for b1 in values:
                w3 = w2 * left[b1]
                if not w3:
                    continue
                left[b1] -= 1
                for b2 in range(b1, 10):
                    w4 = w3 * left[b2] * (1 if b2 == b1 else 2)
                    if not w4:
                        continue
                    banker = (b1 + b2) % 10
                    if player in naturals or banker in naturals or (
                            player not in player_draws and banker not in banker_stood_draws):
                        i = at(player, banker, 2, 2)
                        if back[i]:
                            add(i, w4 * tail4, p1, p2, b1, b2)
                        continue
                    left[b2] -= 1
                    if player in player_draws:
                        draws = banker_row.get(banker)
                        for p3 in values:
                            w5 = w4 * left[p3]
                            if not w5:
                                continue
                            final = (player + p3) % 10
                            if draws is not None and draws[p3]:
                                for v, i in third[(final, banker, 3)]:
                                    n = left[v] - (v == p3)
                                    if n > 0:
                                        add(i, w5 * n, p1, p2, b1, b2, p3, v)
                            else:
                                i = at(final, banker, 3, 2)
                                if back[i]:
                                    add(i, w5 * tail5, p1, p2, b1, b2, p3)
                    else:  # the Player stands, the Banker draws
                        for v, i in third[(player, banker, 2)]:
                            if left[v]:
                                add(i, w4 * left[v] * tail5, p1, p2, b1, b2, v)
                    left[b2] += 1
                left[b1] += 1
            left[p2] += 1
        left[p1] += 1
    deals = math.perm(size, 6)
    edge = sum((back[i] * row[0] for i, row in ways.items()), Fraction(0)) / deals - 1
    less = []
    for v in values:
        c = start[v]
        if not c:
            less.append(None)
            continue
        paid = sum((back[i] * size * (c * row[0] - row[v + 1]) / ((size - ENDS[i][2] - ENDS[i][3]) * c)
                    for i, row in ways.items()), Fraction(0))
        less.append(paid / deals - 1)
    return edge, tuple(less)


class RemovalCount:
    """The effect-of-removal estimate of a spot's edge for the shoe left: a linear count.

    With ``p0`` the full shoe's proportions of each point value, ``N0`` its
    cards and ``EOR_v`` the exact change of the edge when one card of value
    ``v`` leaves the full shoe, the edge of a shoe holding ``c_v`` of ``N``
    cards is taken as ``edge0 - (N0 - 1) * sum_v EOR_v * (c_v / N - p0_v)``:
    exact for the full shoe and for the full shoe less any one card, and
    linear in between.
    """

    __slots__ = ("decks", "edge0", "eor", "scale", "weights")

    def __init__(self, key: tuple, back: tuple[Fraction, ...], decks: int):
        full = full_shoe(decks)
        self.decks = decks
        edge0, less = removals(key, back, full)  # one walk, not eleven
        self.edge0 = float(edge0)
        eor = [float(edge - edge0) for edge in less]
        self.eor = tuple(eor)
        size = sum(full)
        self.scale = size - 1
        # edge0 - (N0-1) * (sum_v EOR_v c_v / N - sum_v EOR_v p0_v): the constant folded in
        self.weights = tuple(-(size - 1) * e for e in eor)
        self.edge0 = self.edge0 + (size - 1) * sum(e * n / size for e, n in zip(eor, full))

    def estimate(self, left) -> float | None:
        """The estimated edge for the shoe ``left`` (cards of each point value); None under six cards."""
        size = sum(left)
        if size < 6:
            return None
        w = self.weights
        return self.edge0 + (w[0] * left[0] + w[1] * left[1] + w[2] * left[2] + w[3] * left[3] + w[4] * left[4]
                             + w[5] * left[5] + w[6] * left[6] + w[7] * left[7] + w[8] * left[8]
                             + w[9] * left[9]) / size


def removal_count(tableau, back: tuple[Fraction, ...], decks: int) -> RemovalCount:
    """The count for a tableau, a spot (what it gives back, :func:`returns`) and a deck count, worked out once a
    process (one exact walk, :func:`removals`)."""
    return _removal_count(tableau_key(tableau), back, decks)


@lru_cache(maxsize=64)
def _removal_count(key: tuple, back: tuple[Fraction, ...], decks: int) -> RemovalCount:
    return RemovalCount(key, back, decks)
