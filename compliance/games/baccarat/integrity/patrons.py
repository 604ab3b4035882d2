"""Collusion: a dealer who favours one patron, found in the (dealer, patron) pairs of a run.

A pair is named only for an effect of the pair: its favourable events (overpayments, late wagers), less
its underpayments, in excess both of the dealer's rate with the other patrons and of the patron's rate
with the other dealers (:func:`tests_of`: exact conditional binomial tails).  The pair's p-value is the
largest of its tests (an intersection-union test), and every pair's goes through Benjamini-Hochberg; a
pattern a patron shows with every dealer names no dealer.

Why each test, and their false-alarm rate: docs/integrity.md, "4. A dealer who favours a patron".
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from compliance.stats import binomial_tails

#: the tests of a pair, in words
TESTS = {"over": ("overpayments", "wrong settlements in a patron's favour"), "late": ("late wagers", "late wagers")}
#: at most this many trials, the tail is summed exactly in integers; past it in double precision
_EXACT = 400


def upper_tail(x: int, n: int, share: Fraction) -> float:
    """P(X >= x) for X ~ Binomial(n, share): exact (integers) for n up to a few hundred, else in double
    precision (:func:`compliance.stats.binomial_tails`)."""
    if x <= 0:
        return 1.0
    if x > n or share <= 0:
        return 0.0
    if share >= 1:
        return 1.0
    if n <= _EXACT:
        a, b = share.numerator, share.denominator
        if x <= n - x + 1:  # fewer terms below x: the tail is what they leave of b^n (the same fraction)
            total = b ** n - sum(math.comb(n, j) * a ** j * (b - a) ** (n - j) for j in range(x))
        else:
            total = sum(math.comb(n, j) * a ** j * (b - a) ** (n - j) for j in range(x, n + 1))
        return float(Fraction(total, b ** n))
    return binomial_tails(x, n, float(share))[1]


@dataclass(slots=True)
class Event:
    """One overpayment or late wager: where (the shoe's place in the run, the coup's index in it), to whom."""

    kind: str  # "over" or "late"
    place: tuple  # (ShoeRun, coup index)
    dealer: str
    patron: str
    gain: Decimal  # an overpayment's amount over what was due; a late wager's amount
    expected: Decimal | None = None  # an overpayment's due settlement, as its value to the patron


@dataclass
class Pair:
    dealer: str
    patron: str
    wagers: int  # wagers settled at the dealer's coups
    events: dict = field(default_factory=lambda: {"over": [], "late": []})


@dataclass
class Part:
    """One of a pair test's tests: ``x`` of ``n`` events where the share ``share`` of them is due by chance."""

    name: str  # "dealer", "patron" or "floor"
    x: int  # the pair's favourable events less those in the house's favour
    n: int
    share: Fraction
    p_value: float


@dataclass
class PairTest:
    pair: Pair
    kind: str
    x: int  # the pair's favourable events
    under: int  # the pair's wrong settlements in the house's favour (overpayments: counted against)
    parts: tuple[Part, ...]
    p_value: float  # the largest of the parts' (each must be significant)


def favourable(e: Event) -> bool:
    """An event in the patron's favour: an overpayment that paid more than due, or a late wager."""
    return e.gain > 0 if e.kind == "over" else True


def pairs_of(wagers: Counter, events: list[Event]) -> tuple[dict, dict]:
    """The pairs (dealer, patron) with an event -> Pair, and the run's events of each kind, in the run's order.
    (A pair with none is tested all the same, p = 1: :func:`tests_of` counts it from ``wagers``.)"""
    pairs: dict[tuple[str, str], Pair] = {}
    by_kind: dict[str, list[Event]] = defaultdict(list)
    for e in sorted(events, key=lambda e: (e.place[0].label, e.place[1])):
        key = (e.dealer, e.patron)
        pair = pairs.get(key)
        if pair is None:  # (wagers 0: a patron with no wager settled at this dealer, a late wager voided)
            pair = pairs[key] = Pair(e.dealer, e.patron, wagers.get(key, 0))
        pair.events[e.kind].append(e)
        by_kind[e.kind].append(e)
    return pairs, by_kind


@dataclass
class PairTests:
    """The run's pair tests: those of the pairs with an event, and how many there are in all (``m``: every pair
    of the run has its two tests, p = 1 where the pair has no event of the kind)."""

    tests: list[PairTest]
    m: int
    margins: Margins | None = None


@dataclass
class Margins:
    """The wagers settled by each dealer, each patron and in all (the shares of the tests)."""

    dealer: Counter
    patron: Counter
    total: int

    @classmethod
    def of(cls, wagers: Counter) -> Margins:
        dealer, patron = Counter(), Counter()
        for (d, p), n in wagers.items():
            dealer[d] += n
            patron[p] += n
        return cls(dealer, patron, sum(dealer.values()))


def parts_of(pair: Pair, kind: str, margins: Margins, counts: tuple) -> tuple[Part, ...]:
    """The pair's tests of ``kind`` from the counts of favourable events (the pair's, and its house-favouring
    ones; the dealer's, the patron's, the run's)."""
    over, under, by_dealer, by_patron, total = counts
    x = max(0, over - under)
    w = pair.wagers
    d_share = Fraction(w, margins.dealer[pair.dealer]) if margins.dealer[pair.dealer] else Fraction(0)
    out = [Part("dealer", x, by_dealer, d_share, upper_tail(x, by_dealer, d_share) if x else 1.0)]
    patron_wagers = margins.patron[pair.patron]
    if w and patron_wagers > w:  # the patron wagered with other dealers too: against the patron's own rate
        share = Fraction(w, patron_wagers)
        out.append(Part("patron", x, by_patron, share, upper_tail(x, by_patron, share) if x else 1.0))
    else:  # this dealer alone: against the floor's
        share = Fraction(w, margins.total) if margins.total else Fraction(0)
        out.append(Part("floor", x, total, share, upper_tail(x, total, share) if x else 1.0))
    return tuple(out)


def tests_of(wagers: Counter, pairs: dict, by_kind: dict) -> PairTests:
    """Every pair's two tests: those with an event worked out, each of the others (p = 1) counted."""
    margins = Margins.of(wagers)
    m = 2 * (len(wagers) + sum(1 for key in pairs if key not in wagers))
    dealer_n, patron_n, total_n = Counter(), Counter(), Counter()
    for kind, events in by_kind.items():
        for e in events:
            if favourable(e):
                dealer_n[(kind, e.dealer)] += 1
                patron_n[(kind, e.patron)] += 1
                total_n[kind] += 1
    out = []
    for pair in pairs.values():
        for kind in ("over", "late"):
            events = pair.events[kind]
            x = sum(1 for e in events if favourable(e))
            under = sum(1 for e in events if kind == "over" and e.gain < 0)
            parts = parts_of(pair, kind, margins,
                             (x, under, dealer_n[(kind, pair.dealer)], patron_n[(kind, pair.patron)], total_n[kind]))
            out.append(PairTest(pair, kind, x, under, parts, max(part.p_value for part in parts)))
    return PairTests(out, m, margins)


def decisive(test: PairTest, by_kind: dict, threshold: float, margins: Margins) -> Event:
    """The event at which the running tests (the events so far, against the shares of the whole run) first all
    fell to ``threshold``; the pair's last favourable event if never before the end."""
    dealer, patron = test.pair.dealer, test.pair.patron
    x = under = by_dealer = by_patron = total = 0
    last = None
    for e in by_kind[test.kind]:
        mine = e.dealer == dealer and e.patron == patron
        if not favourable(e):
            under += mine and e.gain < 0
            continue
        total += 1
        by_dealer += e.dealer == dealer
        by_patron += e.patron == patron
        if not mine:
            continue
        x += 1
        last = e
        parts = parts_of(test.pair, test.kind, margins, (x, under, by_dealer, by_patron, total))
        if max(part.p_value for part in parts) <= threshold:
            return e
    return last
