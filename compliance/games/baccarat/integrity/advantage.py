"""Advantage play: a patron whose side wagers follow the cards left in the shoe.

For every coup a named patron was present for, the patron's edge on each side wager is worked out from
the cards out of the shoe (:mod:`compliance.games.baccarat.edges`); the coup is favourable where it is
above nought.  Each (patron, spot) is tested for placement and for size, stratified by the shoe's depth
(bands of :data:`BAND` cards; :func:`compliance.stats.stratified_hypergeometric_upper`); every test of the
run goes through Benjamini-Hochberg, and a patron is named only where the side wagers found also have a
positive exact expected value given the cards left.

Why stratified by depth, and why the count's error cannot raise the false-alarm rate: docs/integrity.md,
"5. A patron who plays the count".
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from itertools import repeat
from operator import add, mul

from compliance.games.baccarat.edges import PairCount, PairReturns, exact_edge, full_shoe, pair_edge
from compliance.stats import stratified_hypergeometric_upper

#: the tests of a patron and spot, in words
TESTS = {"placement": "side wagers placed where the cards favour the patron, against the patron's own placement at "
                      "each shoe depth",
         "size": "large side wagers placed where the cards favour the patron, against the patron's own wagers at "
                 "each shoe depth"}
#: the depth bands of the tests: cards dealt from the shoe before the coup, a quarter deck a band
BAND = 13
CENT = Decimal("0.01")


def lefts(record, gaps: set[int], points) -> list[tuple[int, ...] | None]:
    """The shoe left before each coup of ``record`` (cards of each point value 0..9), from the cards recorded out
    of it before (burns included where recorded: a card the patrons did not see is, to them, still in the shoe);
    None from the first coup after one whose cards are not all known (``gaps``), or past the shoe's cards."""
    return _left_before(record, gaps, list(full_shoe(record.decks)), points)


#: each card byte -> its place among the 52 kinds; None for a card recorded without its suit
_KIND = tuple(b if b < 52 else None for b in range(256))


def kinds_left(record, gaps: set[int]) -> list[tuple[int, ...] | None]:
    """The shoe left before each coup of ``record`` by card (52 kinds, DECK's order), what a spot settled by the
    first two cards (a pair) reads: as :func:`lefts`, and None also from the first coup after one with a card
    recorded without its suit (``7?``)."""
    return _left_before(record, gaps, [record.decks] * 52, _KIND)


def _left_before(record, gaps: set[int], left: list[int], slot) -> list[tuple[int, ...] | None]:
    """``left`` (the full shoe, counted by ``slot[card byte]``) before each coup of ``record``; None from the first
    coup after one in ``gaps``, past the shoe's cards, or after a card whose slot is not known (None) or of which
    the shoe holds no more (more copies than it holds: shoe.integrity's finding)."""
    limit = 52 * record.decks
    out: list[tuple[int, ...] | None] = []
    start, known = 0, True
    cards = record.cards
    for i, end in enumerate(record.ends):
        out.append(tuple(left) if known else None)
        if i in gaps or end > limit:
            known = False
        if known:
            for b in cards[start:end]:
                k = slot[b]
                if k is None or not left[k]:
                    known = False
                    break
                left[k] -= 1
        start = end
    return out


#: where a count's running estimate (:func:`walk`) lies within this of nought (or within a thousand times the
#: rounding the running sum can gather, if more), the estimate is worked out again from the shoe left
#: (RemovalCount.estimate): the running sum drifts from it by far less (docs/performance.md)
MARGIN = 1e-9


def walk(record, gaps: set[int], points, counts: list) -> tuple[list, list[bytearray], bytearray]:
    """:func:`lefts`, :func:`favourable` for each of ``counts`` and each coup's depth band, in one pass over the
    shoe's cards: each count's weighted sum of the shoe left kept card by card, not worked out again a coup."""
    limit = 52 * record.decks
    left = list(full_shoe(record.decks))
    full = size = sum(left)
    n = len(record.ends)
    lefts: list[tuple[int, ...] | None] = [None] * n
    goods = [bytearray(n) for _ in counts]
    bands = bytearray(n)
    weights = [c.weights for c in counts]
    dots = [sum(w * k for w, k in zip(c.weights, left, strict=True)) for c in counts]
    # a sum of at most ``full`` + 10 roundings, each within epsilon of the largest sum it can reach
    margins = [max(MARGIN, 1000 * (full + 10) * sys.float_info.epsilon * sum(abs(w) * k for w, k in zip(
        c.weights, left, strict=True))) for c in counts]
    which = range(len(counts))
    start, known = 0, True
    cards = record.cards
    for i, end in enumerate(record.ends):
        if not known:  # (None to the shoe's end)
            break
        lefts[i] = now = tuple(left)
        bands[i] = min(255, (full - size) // BAND)
        if size >= 6:  # (under six cards: no estimate, not favourable)
            for k in which:
                c = counts[k]
                edge = c.edge0 + dots[k] / size
                if edge > margins[k]:
                    goods[k][i] = 1
                elif edge >= -margins[k]:
                    edge = c.estimate(now)
                    goods[k][i] = edge is not None and edge > 0
        if i in gaps or end > limit:
            known = False
        else:
            for b in cards[start:end]:
                v = points[b]
                if v is None or not left[v]:
                    known = False
                    break
                left[v] -= 1
                size -= 1
                for k in which:
                    dots[k] -= weights[k][v]
        start = end
    return lefts, goods, bands


@dataclass(slots=True)
class Wager:
    """A side wager of a patron: where (the shoe's place in the run, the coup's index), whether the count called the
    coup favourable, the amount, and the shoe left before it."""

    place: tuple  # (ShoeRun, coup index)
    favourable: bool
    amount: Decimal
    left: tuple[int, ...]
    band: int = 0  # the coup's depth band (BAND)


FAVOURABLE, WAGERED = 1, 2
_FOUR = repeat(4)


@dataclass
class Line:
    """One patron's chances at one side wager over the run, in the run's order: a byte a chance (``FAVOURABLE``
    where the count called the coup favourable, ``WAGERED`` where the patron placed the wager), and the wagers."""

    patron: str
    spot: str
    back: tuple
    flags: bytearray = field(default_factory=bytearray)
    bands: bytearray = field(default_factory=bytearray)  # each chance's depth band
    wagers: list[Wager] = field(default_factory=list)
    tableau: object = None  # the tableau of the version of the ruleset whose coups the line holds

    def large(self) -> Decimal | None:
        """Wagers above this are the patron's large ones (the median of the patron's wagers on the spot)."""
        amounts = sorted(w.amount for w in self.wagers)
        return amounts[(len(amounts) - 1) // 2] if amounts else None


@dataclass
class Test:
    line: Line
    kind: str  # "placement" or "size"
    x: int  # wagers (large wagers) at favourable coups
    n: int  # wagers (large wagers)
    marked: int  # favourable chances (wagers at favourable coups)
    population: int  # chances (wagers)
    p_value: float


def _placement(flags, bands, end: int | None = None) -> tuple[int, list]:
    """(the favourable wagers, each band's (chances, favourable chances, wagers)) of the chances before ``end``."""
    # 4 * band + flag -> chances: counted in C, not a loop a chance (a flag is under 4)
    seen = Counter(map(add, map(mul, bands[:end], _FOUR), flags[:end]))
    chances, marked, drawn = Counter(), Counter(), Counter()
    x = 0
    for key, k in seen.items():
        band, flag = key >> 2, key & 3
        chances[band] += k
        if flag & FAVOURABLE:
            marked[band] += k
        if flag & WAGERED:
            drawn[band] += k
            if flag & FAVOURABLE:
                x += k
    return x, [(chances[b], marked[b], drawn[b]) for b in chances]


def _size(wagers: list[Wager], cut: Decimal) -> tuple[int, list]:
    """(the large wagers at favourable coups, each band's (wagers, favourable wagers, large wagers))."""
    chances, marked, drawn = Counter(), Counter(), Counter()
    y = 0
    for w in wagers:
        chances[w.band] += 1
        marked[w.band] += w.favourable
        if w.amount > cut:
            drawn[w.band] += 1
            y += w.favourable
    return y, [(chances[b], marked[b], drawn[b]) for b in chances]


def tests_of(line: Line) -> list[Test]:
    n = len(line.wagers)
    if not n:
        return []
    flags = line.flags
    x = sum(w.favourable for w in line.wagers)
    t, f = len(flags), flags.count(FAVOURABLE) + x
    p = stratified_hypergeometric_upper(x, _placement(flags, line.bands)[1]) if x else 1.0
    out = [Test(line, "placement", x, n, f, t, p)]
    cut = line.large()
    big = sum(1 for w in line.wagers if w.amount > cut)
    y, strata = _size(line.wagers, cut) if x else (0, [])
    out.append(Test(line, "size", y, big, x, n, stratified_hypergeometric_upper(y, strata) if y else 1.0))
    return out


def decisive(test: Test, threshold: float) -> Wager:
    """The favourable wager at which the running test (on the chances so far, or the wagers so far) fell to
    ``threshold``: the first found by bisection over the favourable wagers (the test is worked out at a few of
    them, not at each); the line's last favourable wager if none."""
    line = test.line
    cut = line.large()
    if test.kind == "placement":  # the chance index of each favourable wager
        ends, i = [], 0
        for at, flag in enumerate(line.flags):
            if flag & WAGERED:
                if flag & FAVOURABLE:
                    ends.append((at + 1, i))
                i += 1

        def p_at(end: int) -> float:
            x, strata = _placement(line.flags, line.bands, end)
            return stratified_hypergeometric_upper(x, strata)
    else:
        ends = [(i + 1, i) for i, w in enumerate(line.wagers) if w.favourable and w.amount > cut]

        def p_at(end: int) -> float:
            y, strata = _size(line.wagers[:end], cut)
            return stratified_hypergeometric_upper(y, strata)
    if not ends:
        return line.wagers[-1]
    lo, hi = 0, len(ends) - 1
    if p_at(ends[hi][0]) > threshold:
        return line.wagers[ends[hi][1]]
    while lo < hi:
        mid = (lo + hi) // 2
        if p_at(ends[mid][0]) <= threshold:
            hi = mid
        else:
            lo = mid + 1
    return line.wagers[ends[lo][1]]


def edge_at(back, tableau, left) -> Fraction | None:
    """The patron's exact edge on a spot that gives ``back`` (a spot settled by the result: :func:`exact_edge`; by
    the first two cards: :func:`pair_edge`) for the shoe ``left`` (by point value; by card for a pair)."""
    return pair_edge(back, left) if isinstance(back, PairReturns) else exact_edge(tableau, back, left)


def worth(line: Line, tableau) -> tuple[Decimal, Decimal]:
    """(the patron's expected value of the line's side wagers at the full shoe's odds, at the cards left): exact
    fractions summed, each total rounded half-even to the cent at the end."""
    blind = Fraction(0)
    counted = Fraction(0)
    pair = isinstance(line.back, PairReturns)
    for c in line.wagers:
        shoe = c.place[0]
        stake = Fraction(c.amount)
        decks = shoe.record.decks
        blind += stake * edge_at(line.back, tableau, (decks,) * 52 if pair else full_shoe(decks))
        edge = edge_at(line.back, tableau, c.left)
        counted += stake * (edge if edge is not None else 0)

    def cents(x: Fraction) -> Decimal:
        return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(CENT, ROUND_HALF_EVEN)

    return cents(blind), cents(counted)


def favourable(count, lefts: list) -> bytearray:
    """For each coup of a shoe (the shoe left before it, None: not known), whether ``count`` (a spot's
    :class:`~compliance.games.baccarat.edges.RemovalCount`) calls it favourable to the patron there."""
    out = bytearray(len(lefts))
    for i, left in enumerate(lefts):
        if left is not None:
            edge = count.estimate(left)
            out[i] = edge is not None and edge > 0
    return out


def favourable_pairs(back: PairReturns, record, kinds: list) -> bytearray:
    """For each coup of a shoe (``kinds``: :func:`kinds_left`), whether a spot settled by the first two cards that
    gives ``back`` favours the patron there: its exact edge above nought, the shoe left kept coup after coup by
    :class:`~compliance.games.baccarat.edges.PairCount` (a few integer sums a card)."""
    out = bytearray(len(kinds))
    count = None
    start = 0
    cards = record.cards
    for i, end in enumerate(record.ends):
        if kinds[i] is None:  # not known from here to the shoe's end
            break
        if count is None:
            count = PairCount(back, kinds[i])
        out[i] = count.favourable()
        if i + 1 < len(kinds) and kinds[i + 1] is not None:
            for b in cards[start:end]:
                count.remove(b)
        start = end
    return out
