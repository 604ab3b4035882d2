"""The patron's edge at a wager, given the cards left in the shoe: what advantage play on a side wager exploits.

For a spot settled by the result (Dragon 7, Panda 8, the Tie): :func:`exact_edge`, exact over every
ordering of point values the shoe left can deal (for tests, the docs and a finding's money), and
:class:`RemovalCount` (:func:`removal_count`), the effect-of-removal count the integrity stage reads at
every coup.  For a spot settled by the first two cards (a pair): :func:`pair_returns` and
:func:`pair_edge`, kept card by card through a shoe by :class:`PairCount`.  Edges are the patron's
(negative: the house's); nothing is a float but the count.

How each is worked out, and the count's measured error: docs/integrity.md, "5. A patron who plays the count".
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from compliance.cards import DECK
from compliance.conditions import Unknown
from compliance.games.baccarat.conditions import Facts
from compliance.games.baccarat.odds import ENDS, POINTS_PER_DECK, deal_counts, tableau_key, third_cards, walk
from compliance.games.baccarat.spots import CARD_VIEW, COLOUR


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
    it holds none), in one walk of the deals that pay (:func:`~compliance.games.baccarat.odds.walk`, keeping beside
    each end's ways ``C`` the same ways times each value's cards in the deal, ``K_v``).  Taking a card of value
    ``v`` out of a shoe of ``N`` cards leaves a deal of ``k`` cards, ``k_v`` of them ``v``, its ways times
    ``(c_v - k_v) / c_v`` and ``(N - 6) / (N - k)`` (the cards after it), of ``(N - 1)_6 = (N)_6 (N - 6) / N``
    deals: so the end's share is ``N (c_v C - K_v) / ((N - k) c_v (N)_6)``."""
    ways = walk(key, start, back, back.third if isinstance(back, Returns) else None, by_card=True)
    size = sum(start)
    values = range(10)
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


# ------------------------------------------------------------------ spots settled by the first two cards (pairs)

#: what a pair condition can tell of a hand's first two cards (it compares their ranks, colours and suits for
#: equality, within the hand): two ranks; one rank, two colours; one rank and colour, two suits; one card twice
CLASSES = ("ranks differ", "mixed", "coloured", "suited")
#: the cards of each kind (DECK's order: suit after suit, A to K) by rank and colour, and by rank
_RANK = tuple(i % 13 for i in range(52))
_RANK_COLOUR = tuple(i % 13 + 13 * (COLOUR[DECK[i][-1]] == "red") for i in range(52))


def _two(rank: str, other: str, cls: int) -> tuple:
    """A hand's first two cards of class ``cls`` (:data:`CLASSES`), of ``rank`` (and ``other`` where ranks
    differ), as conditions read them."""
    second = {0: other + "S", 1: rank + "H", 2: rank + "C", 3: rank + "S"}[cls]
    return CARD_VIEW[rank + "S"], CARD_VIEW[second]


def _by_level(by_class) -> tuple:
    """Weights on what is counted by level (0: alike as one card ... 3: any two) equal to ``by_class`` on what is
    counted by class (:data:`CLASSES`): class ``i`` is level ``3 - i`` less level ``2 - i``."""
    a = by_class
    return a[3] - a[2], a[2] - a[1], a[1] - a[0], a[0]


class PairReturns(tuple):
    """What a unit staked on a spot settled by the hands' first two cards gives back, stake included, for each
    (Player's class, Banker's class) of :data:`CLASSES`: ``back[4 * i + j]`` (fractions); and the same times
    ``scale`` as integers (``whole``), and whose cards it reads (``hands``: "player", "banker" or "both")."""

    def __new__(cls, values):
        self = super().__new__(cls, values)
        self.scale = math.lcm(*(v.denominator for v in self))
        self.whole = whole = tuple(int(v * self.scale) for v in self)
        player = all(self[4 * i + j] == self[4 * i] for i in range(4) for j in range(4))
        banker = all(self[4 * i + j] == self[j] for i in range(4) for j in range(4))
        self.hands = "player" if player else "banker" if banker else "both"
        # the same on the pairs alike at each level (PairCount): a class is a difference of two levels, so what
        # a level's pairs give back is the difference of what the two classes on either side of it do
        if self.hands != "both":
            self.levels = _by_level(whole[0::4] if player else whole[:4])
        else:
            rows = [_by_level(whole[4 * i:4 * i + 4]) for i in range(4)]  # by the Player's class, the Banker's level
            self.levels = tuple(_by_level([rows[i][g] for i in range(4)]) for g in range(4))  # [G][L]
        return self

    def __hash__(self):
        return tuple.__hash__(self)

    def __eq__(self, other):
        return tuple.__eq__(self, other)


def pair_returns(spot) -> PairReturns | None:
    """What a unit staked on ``spot`` gives back for each class of the two hands' first two cards: its paytable
    read through its own conditions on cards of each class, ``1 + odds`` (less its commission) where a row pays,
    1 where it pushes, 0 where it loses.  None for a spot whose conditions read more than the first two cards of
    each hand, or compare one hand's cards with the other's (the same classes, of one rank or of two, settle
    differently)."""
    if spot.scopes != {"cards"}:
        return None
    keep = 1 - Fraction(spot.rate or 0)
    out = []
    for i in range(4):
        for j in range(4):
            seen = set()
            for ranks in ("KQ", "A2"):  # the Banker's cards of other ranks than the Player's, then of the same
                facts = Facts(None, None, None, None, {"player": _two("A", "2", i), "banker": _two(*ranks, j)})
                try:
                    rule = spot.paid_by(facts)
                except Unknown:
                    return None
                seen.add(Fraction(0) if rule is None else Fraction(1) if rule.odds is None
                         else 1 + Fraction(rule.odds) * keep)
            if len(seen) > 1:
                return None
            out.append(seen.pop())
    return PairReturns(out)


def pair_edge(back: PairReturns, left) -> Fraction | None:
    """The patron's exact edge on a spot that gives ``back`` (:func:`pair_returns`), for a coup dealt from a shoe
    holding ``left[k]`` cards of each kind ``k`` (DECK's order); None where fewer than four cards are left."""
    return PairCount(back, left).edge()


class PairCount:
    """The exact edge of a spot settled by the first two cards, for a shoe left that loses a card at a time.

    Counted without enumerating deals.  With ``Q_L`` the ordered pairs of
    cards alike at level ``L`` (0: the same card; 1: rank and colour; 2: rank;
    3: any two), the sum over the level's groups of ``X (X - 1)`` (``X`` the
    cards of the group), a hand's first two cards are of each class of
    :data:`CLASSES` in ``Q_3 - Q_2``, ``Q_2 - Q_1``, ``Q_1 - Q_0`` and ``Q_0``
    of the ``N (N - 1)`` ways (a hand's two cards are any two of the shoe,
    whatever the order of the deal).  For both hands: the pairs alike at
    level ``G`` left once the Player holds ``a`` and ``b`` are
    ``Q_G - 2 X_G(a) - 2 X_G(b) + 4 + 2 [a, b alike at G]``, so, summed over
    the Player's pairs alike at ``L``, ``Q_G Q_L - 4 M_GL + 4 Q_L + 2 Q_min(G,L)``
    with ``M_GL`` the sum over the cards of ``c X_G (X_L - 1)``; each class of
    the two hands is a difference of these.  ``M_GL`` for levels under 3 is a
    sum over ranks (only the cards of one rank are alike below it), so taking
    a card out updates its rank's part alone: a few dozen integer sums a card.
    """

    __slots__ = ("back", "c", "m", "n", "rank_m", "sig", "x1", "x2")

    def __init__(self, back: PairReturns, left):
        self.back = back
        self.c = c = list(left)
        self.n = sum(c)
        self.x1 = x1 = [0] * 26
        self.x2 = x2 = [0] * 13
        for k, v in enumerate(c):
            x1[_RANK_COLOUR[k]] += v
            x2[_RANK[k]] += v
        self.sig = [sum(v * v for v in c), sum(v * v for v in x1), sum(v * v for v in x2)]
        self.rank_m = [self._rank_m(r) for r in range(13)] if back.hands == "both" else None
        self.m = [sum(part[i] for part in self.rank_m) for i in range(9)] if self.rank_m is not None else None

    def _rank_m(self, r: int) -> tuple:
        """The rank's part of ``M_GL`` for G, L under 3 (at ``3 G + L``): ``c X_G (X_L - 1)`` summed over its
        cards, ``X_0`` the card's copies, ``X_1`` its rank and colour's, ``X_2`` its rank's."""
        c, x1 = self.c, self.x1
        x2 = self.x2[r]
        d2 = x2 - 1
        m00 = m01 = m02 = m10 = m11 = m12 = m20 = m21 = m22 = 0
        for k in (r, r + 13, r + 26, r + 39):
            ck = c[k]
            if ck:
                a = x1[_RANK_COLOUR[k]]
                t0, t1, t2, d0, d1 = ck * ck, ck * a, ck * x2, ck - 1, a - 1
                m00 += t0 * d0
                m01 += t0 * d1
                m02 += t0 * d2
                m10 += t1 * d0
                m11 += t1 * d1
                m12 += t1 * d2
                m20 += t2 * d0
                m21 += t2 * d1
                m22 += t2 * d2
        return m00, m01, m02, m10, m11, m12, m20, m21, m22

    def remove(self, k: int) -> None:
        """One card of kind ``k`` leaves the shoe."""
        c, x1, x2, sig = self.c, self.x1, self.x2, self.sig
        rc, r = _RANK_COLOUR[k], _RANK[k]
        sig[0] -= 2 * c[k] - 1
        sig[1] -= 2 * x1[rc] - 1
        sig[2] -= 2 * x2[r] - 1
        c[k] -= 1
        x1[rc] -= 1
        x2[r] -= 1
        self.n -= 1
        if self.rank_m is not None:
            old, new = self.rank_m[r], self._rank_m(r)
            self.rank_m[r] = new
            m = self.m
            for i in range(9):
                m[i] += new[i] - old[i]

    def _paid(self) -> tuple[int, int]:
        """(what the ways of dealing the first cards give back, times the returns' scale; those ways)."""
        n, sig, levels = self.n, self.sig, self.back.levels
        q0, q1, q2, q3 = sig[0] - n, sig[1] - n, sig[2] - n, n * (n - 1)
        if self.m is None:  # one hand's cards
            return levels[0] * q0 + levels[1] * q1 + levels[2] * q2 + levels[3] * q3, q3
        q = (q0, q1, q2, q3)
        m = self.m
        total = 0
        for g in range(4):  # s = Q_G Q_L - 4 M_GL + 4 Q_L + 2 Q_min(G,L): four cards, the Player's two alike at
            row, qg = levels[g], q[g]  # level L and the Banker's at G; M_GL for G or L of 3 from the sums of X^2
            for level in range(4):
                if g < 3 and level < 3:
                    mgl = m[3 * g + level]
                elif level == 3:
                    mgl = (n - 1) * sig[g] if g < 3 else n * n * (n - 1)
                else:
                    mgl = n * (sig[level] - n)
                total += row[level] * (qg * q[level] - 4 * mgl + 4 * q[level] + 2 * q[min(g, level)])
        return total, n * (n - 1) * (n - 2) * (n - 3)

    def edge(self) -> Fraction | None:
        """The patron's exact edge for the shoe left now; None under four cards."""
        if self.n < 4:
            return None
        paid, ways = self._paid()
        return Fraction(paid, ways * self.back.scale) - 1

    def favourable(self) -> bool:
        """Whether the edge for the shoe left now is above nought (False under four cards)."""
        if self.n < 4:
            return False
        paid, ways = self._paid()
        return paid > ways * self.back.scale
