"""Advantage play: a patron whose side wagers follow the cards left in the shoe.

Late in some shoes a side wager favours the patron: the Dragon 7 wager (a
three-card Banker 7 that wins, 40 to 1) once the 8s and 9s are short, the
Panda 8 likewise; the pair wagers (House Money, Perfect Pairs) once a few
ranks, or a few cards of one suit, are over-represented in what is left.  A
patron who keeps the count wagers on it only then, or wagers more then.  Such
play is legal; the house and the regulator want it known.

For every coup a named patron could place a side wager (a wager on a spot
beside which it may stand; for a spot that needs none, every coup the patron
is at the table), the patron's edge on it is worked out from the cards out of
the shoe before the coup (:class:`~compliance.games.baccarat.edges.RemovalCount`,
the effect-of-removal count, its error against the exact enumeration in
docs/integrity.md; for a pair, the exact edge by card,
:class:`~compliance.games.baccarat.edges.PairCount`), and the coup is
*favourable* where it is above nought.  A patron playing blind places side
wagers, and large ones, without regard to it.
So for each (patron, spot):

* **placement**: of the patron's ``T`` chances, ``F`` were favourable; of the
  ``n`` side wagers placed, ``x`` fell on them.  Under blind play ``x`` is
  hypergeometric (``n`` drawn from ``T`` of which ``F`` are marked); the
  p-value is its upper tail.
* **size**: of the ``n`` wagers, ``L`` were larger than the patron's median
  wager on the spot; of them ``y`` fell on favourable coups, against the
  ``x`` of ``n`` wagers that did: hypergeometric again.

Every test of the run goes through Benjamini-Hochberg.  The count's error
only weakens the tests: under blind play which coups it calls favourable is
no matter, so their false-alarm rate holds whatever its error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from compliance.games.baccarat.edges import PairCount, PairReturns, exact_edge, full_shoe, pair_edge
from compliance.stats import hypergeometric_upper

#: the tests of a patron and spot, in words
TESTS = {"placement": "side wagers placed where the cards favour the patron",
         "size": "large side wagers placed where the cards favour the patron"}
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


@dataclass(slots=True)
class Wager:
    """A side wager of a patron: where (the shoe's place in the run, the coup's index), whether the count called the
    coup favourable, the amount, and the shoe left before it."""

    place: tuple  # (ShoeRun, coup index)
    favourable: bool
    amount: Decimal
    left: tuple[int, ...]


FAVOURABLE, WAGERED = 1, 2


@dataclass
class Line:
    """One patron's chances at one side wager over the run, in the run's order: a byte a chance (``FAVOURABLE``
    where the count called the coup favourable, ``WAGERED`` where the patron placed the wager), and the wagers."""

    patron: str
    spot: str
    back: tuple
    flags: bytearray = field(default_factory=bytearray)
    wagers: list[Wager] = field(default_factory=list)

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


def tests_of(line: Line) -> list[Test]:
    n = len(line.wagers)
    if not n:
        return []
    flags = line.flags
    x = flags.count(FAVOURABLE | WAGERED)
    t, f = len(flags), flags.count(FAVOURABLE) + x
    out = [Test(line, "placement", x, n, f, t, hypergeometric_upper(x, t, f, n) if x else 1.0)]
    cut = line.large()
    big = [w for w in line.wagers if w.amount > cut]
    y = sum(w.favourable for w in big)
    out.append(Test(line, "size", y, len(big), x, n, hypergeometric_upper(y, n, x, len(big)) if y else 1.0))
    return out


def decisive(test: Test, threshold: float) -> Wager:
    """The wager at which the running test (on the chances so far) first fell to ``threshold``; the line's last
    favourable wager if never before the end."""
    line = test.line
    t = f = n = x = 0
    last = None
    if test.kind == "placement":  # every chance is in the population, its wagers drawn
        wagers = iter(line.wagers)
        for flag in line.flags:
            t += 1
            good = flag & FAVOURABLE
            f += good
            if not flag & WAGERED:
                continue
            w = next(wagers)
            n += 1
            x += good
            if good:
                last = w
                if hypergeometric_upper(x, t, f, n) <= threshold:
                    return w
        return last
    cut = line.large()  # size: every wager is in the population, its large ones drawn
    for w in line.wagers:
        t += 1
        f += w.favourable
        if w.amount <= cut:
            continue
        n += 1
        x += w.favourable
        if w.favourable:
            last = w
            if hypergeometric_upper(x, t, f, n) <= threshold:
                return w
    return last


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
