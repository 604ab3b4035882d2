"""Collusion: a dealer who favours one patron, found in the (dealer, patron) pairs of a run.

A dealer's honest slips fall on the wagers settled at that dealer's coups as
they come: each patron gets about their share of them.  A dealer who favours
an accomplice pays that patron a little over, many times (or lets that patron
wager late), and the pair's share of the dealer's overpayments (late wagers)
grows far past the patron's share of the dealer's wagers.

For each pair the test is exact: of the ``n`` overpayments (wrong settlements
in a patron's favour, :func:`~compliance.games.baccarat.checks.settlement.wrong_settlements`)
at the dealer's coups, ``x`` went to the patron; if each fell on a patron in
proportion to the wagers settled (the patron's share ``s``), ``x`` is binomial
``(n, s)``, and the p-value is its upper tail.  The same for the late wagers
(``wager.late``) at the dealer's coups.  Every pair's two p-values go through
Benjamini-Hochberg at the rule's ``false_discovery_rate``.  Patrons are those
the record names (a standing patron's id, or the patron seated at the seat);
the dealer is the record's (format 1.1 ``staff``).
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
class PairTest:
    pair: Pair
    kind: str
    x: int  # the pair's events
    n: int  # the dealer's
    share: Fraction  # the patron's share of the dealer's wagers
    p_value: float


def pairs_of(wagers: Counter, events: list[Event]) -> tuple[dict, dict]:
    """The pairs (dealer, patron) with an event -> Pair, and each dealer's events of each kind, in the run's
    order.  (A pair with none is tested all the same, p = 1: :func:`tests_of` counts it from ``wagers``.)"""
    pairs: dict[tuple[str, str], Pair] = {}
    by_dealer: dict[tuple[str, str], list[Event]] = defaultdict(list)
    for e in sorted(events, key=lambda e: (e.place[0].label, e.place[1])):
        key = (e.dealer, e.patron)
        pair = pairs.get(key)
        if pair is None:  # (wagers 0: a patron with no wager settled at this dealer, a late wager voided)
            pair = pairs[key] = Pair(e.dealer, e.patron, wagers.get(key, 0))
        pair.events[e.kind].append(e)
        by_dealer[(e.dealer, e.kind)].append(e)
    return pairs, by_dealer


@dataclass
class PairTests:
    """The run's pair tests: those of the pairs with an event, and how many there are in all (``m``: every pair
    of the run has its two tests, p = 1 where the pair has no event of the kind)."""

    tests: list[PairTest]
    m: int


def tests_of(wagers: Counter, pairs: dict, by_dealer: dict) -> PairTests:
    """Every pair's two tests: those with an event worked out, each of the others (p = 1) counted."""
    totals = Counter()
    for (dealer, _), n in wagers.items():
        totals[dealer] += n
    m = 2 * (len(wagers) + sum(1 for key in pairs if key not in wagers))
    # each dealer's events of each kind (overpayments: those that paid more than due), counted once a dealer
    counts = {(dealer, kind): sum(1 for e in events if e.gain > 0) if kind == "over" else len(events)
              for (dealer, kind), events in by_dealer.items()}
    out = []
    for pair in pairs.values():
        total = totals[pair.dealer]
        share = Fraction(pair.wagers, total) if total else Fraction(0)
        for kind in ("over", "late"):
            x, n = len(pair.events[kind]), counts.get((pair.dealer, kind), 0)
            if kind == "over":
                x = sum(1 for e in pair.events[kind] if e.gain > 0)
            out.append(PairTest(pair, kind, x, n, share, upper_tail(x, n, share) if x else 1.0))
    return PairTests(out, m)


def decisive(test: PairTest, by_dealer: dict, threshold: float) -> Event:
    """The event at which the running test (the events so far, against the patron's share) first fell to
    ``threshold``; the pair's last event if never before the end."""
    x = n = 0
    last = None
    for e in by_dealer[(test.pair.dealer, test.kind)]:
        if test.kind == "over" and e.gain <= 0:
            continue
        n += 1
        if e.patron != test.pair.patron:
            continue
        x += 1
        last = e
        if upper_tail(x, n, test.share) <= threshold:
            return e
    return last
