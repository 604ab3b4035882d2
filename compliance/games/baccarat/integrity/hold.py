"""Hold against theory: each table's, shift's, dealer's and day's win beside what the game gives it.

While the engine replays, :class:`HoldData` adds up each spot's handle, what the settlements left the
house and the products of each coup's stakes two by two, in buckets of a quarter of an hour, a dealer and
a deck count.  Once the run is read, :func:`judge` folds the buckets into groups (with the shifts and
time zone of the run's context) and sets each group's win against the exact theoretical win and its
exact variance: a z-score and its p-value.  A finding is raised only where the p-value survives
Benjamini-Hochberg over every group of the run.

What it assumes, and its measured false-alarm rate: docs/integrity.md, "6. Hold against theory".
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import math
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from operator import mul

from compliance.findings import MONEY, Finding, Statistic
from compliance.games.baccarat.edges import PairReturns, Returns, pair_returns, returns
from compliance.games.common import money
from compliance.games.integrity import HoldGroup, HoldView, Slotted
from compliance.stats import benjamini_hochberg, probability_text

HOLD = "integrity.hold"
QUARTER = 900  # seconds a bucket spans: every time zone's offset, and every shift's start, is a whole quarter hour
NAIVE = -(2 ** 15)  # a time recorded without an offset (the table's own clock)
_EPOCH_NAIVE = dt.datetime(1970, 1, 1)
_EXACT = Context(prec=120)  # money added and multiplied without rounding
ZERO = Decimal(0)
#: a coup's stake on one spot from which the products of stakes, added over a run, could pass the 28 digits the
#: default decimal context keeps exactly: such a coup is not judged (no table stakes a trillion)
BIG = Decimal(10) ** 12


#: a spot as its ruleset writes it and the table's naturals -> what a unit on it gives back: worked out once a
#: process, since the transcripts of a run (the blocks of a procedure document) share their spots
_RETURNS: dict[tuple, Returns | PairReturns | None] = {}


def spot_returns(table) -> dict[str, Returns | PairReturns | None]:
    """Each spot of the table -> what a unit staked on it gives back at each end of a coup (a spot settled by the
    result) or each class of the hands' first two cards (a pair); None: neither (its wagers are not judged)."""
    naturals = table.tableau.naturals
    out = {}
    for name, spot in table.spots.items():
        key = (name, spot.spot.model_dump_json(), frozenset(naturals))
        if key not in _RETURNS:
            back = returns(spot, naturals)
            _RETURNS[key] = back if back is not None else pair_returns(spot)
        out[name] = _RETURNS[key]
    return out


class Bucket(Slotted):
    """The coups of one quarter hour, dealer and deck count at one table: their handle, the house's net and the
    stakes' products two by two, by spot; where the first and last of them are.  A coup's stakes wait in
    ``pending`` (the spots staked, in order -> each coup's stakes on them) until they are added up a few hundred
    coups at a time (:meth:`fold`), in C's loops rather than a product a coup.  (``pending``'s spots are in the
    order the coup staked them: the products are kept by the two spots in order of name.)"""

    __slots__ = ("coups", "_handle", "_net", "kept", "_moments", "first", "last", "pending", "dropped")

    def __init__(self, first: tuple):
        self.coups = 0
        self._handle: dict[str, Decimal] = {}
        self._net: dict[str, Decimal] = {}
        self.kept = ZERO  # the house's net on the spots judged (net[""])
        self.dropped = 0  # coups whose stakes are too large to add up exactly, found by the last folds
        self._moments: dict[tuple[str, str], Decimal] = {}
        self.first = first  # (coup number, line, column, its time as ISO 8601 or None)
        self.last = first
        self.pending: dict[tuple[str, ...], list[tuple[Decimal, ...]]] = {}

    @property
    def handle(self) -> dict[str, Decimal]:
        self.fold()
        return self._handle

    @property
    def net(self) -> dict[str, Decimal]:
        """What the coups left the house: on the spots judged (and commissions) under "", a spot judged by none
        apart."""
        self._net[""] = self.kept
        return self._net

    @property
    def moments(self) -> dict[tuple[str, str], Decimal]:
        self.fold()
        return self._moments

    def fold(self) -> None:
        """Add the waiting coups' stakes to the handle and their products two by two to the moments, exactly."""
        if not self.pending:
            return
        handle, moments = self._handle, self._moments
        with localcontext(MONEY):
            for spots, rows in self.pending.items():
                columns = list(zip(*rows))
                if max(map(max, columns)) >= BIG:  # beyond what 28 digits add up exactly over a run: not judged
                    fit = [row for row in rows if max(row) < BIG]
                    self.dropped += len(rows) - len(fit)
                    if not fit:
                        continue
                    columns = list(zip(*fit))
                for i, a in enumerate(spots):
                    x = columns[i]
                    handle[a] = handle.get(a, ZERO) + sum(x, ZERO)
                    for j in range(i, len(spots)):
                        c = spots[j]
                        k = (a, c) if a <= c else (c, a)
                        moments[k] = moments.get(k, ZERO) + sum(map(mul, x, columns[j]), ZERO)
        self.pending.clear()

    def join(self, other: Bucket) -> None:
        self.coups += other.coups
        for mine, theirs in ((self.handle, other.handle), (self.net, other.net), (self.moments, other.moments)):
            for k, v in theirs.items():
                mine[k] = _EXACT.add(mine.get(k, ZERO), v)
        self.kept = self._net[""]
        self.dropped += other.dropped
        self.last = other.last


#: coups whose stakes wait to be added up (Bucket.pending), at most
FOLD = 512


class Stretch(Slotted):
    """The coups of one transcript dealt under one version of its ruleset: its spots' payouts and tableau (what
    their theory reads), its hold rule, and their buckets."""

    __slots__ = ("version", "spots", "tableau", "rule", "buckets")

    def __init__(self, version: str | None, spots: dict, tableau, rule):
        self.version = version  # the first day of the version (its period's start; None: the first, or no history)
        self.spots = spots  # spot -> Returns, PairReturns or None (spot_returns)
        self.tableau = tableau  # None: the transcript's ruleset's
        self.rule = rule  # the version's hold rule (its citation), where known
        self.buckets: dict[tuple, Bucket] = {}


class HoldData(Slotted):
    """What the hold test keeps of one transcript: the table's spots and the buckets of its settled coups, by the
    version of the ruleset each coup was dealt under (:class:`Stretch`; :meth:`switch`)."""

    __slots__ = ("spots", "_buckets", "unjudged", "_too_large", "_waiting", "_dirty", "_stretches", "_stretch")

    def __init__(self, spots: dict, tableau=None, version: str | None = None, rule=None):
        self._too_large = 0  # coups whose stakes are too large to add up exactly (none at any real table)
        self._stretches: dict[str | None, Stretch] = {}
        self._waiting = 0  # coups whose stakes wait in the buckets' ``pending``
        self._dirty: list[Bucket] = []  # the buckets with coups waiting
        self._stretch = None
        self.switch((version, spots, tableau, rule))

    def switch(self, period: tuple) -> None:
        """The coups from here on: those of the version ``period`` = (its first day, its spots' returns, its tableau,
        its hold rule)."""
        version = period[0]
        if self._stretch is not None and self._stretch.version == version:
            return
        st = self._stretches.get(version)
        if st is None:
            st = self._stretches[version] = Stretch(*period)
        self._stretch = st
        self.spots = st.spots  # the current version's
        self.unjudged = frozenset(name for name, back in st.spots.items() if back is None)
        # (decks, dealer, quarter hour since 1970 or None, offset in minutes or NAIVE) -> Bucket
        self._buckets = st.buckets

    def stretches(self) -> list[Stretch]:
        """Every version's coups, in the order of their versions."""
        self._fold()
        return sorted(self._stretches.values(), key=lambda st: st.version or "")

    @property
    def too_large(self) -> int:
        """Coups whose stakes are too large to add up exactly (none at any real table)."""
        self._fold()
        return self._too_large

    @property
    def buckets(self) -> dict[tuple, Bucket]:
        self._fold()
        return self._buckets

    def _fold(self) -> None:
        for b in self._dirty:
            b.fold()
            self._too_large += b.dropped
            b.dropped = 0
        self._dirty.clear()
        self._waiting = 0

    def extend(self, other: HoldData) -> None:
        self._fold()
        self._too_large += other.too_large
        for theirs in other.stretches():
            st = self._stretches.get(theirs.version)
            if st is None:
                self._stretches[theirs.version] = theirs
                continue
            for key, b in theirs.buckets.items():
                mine = st.buckets.get(key)
                if mine is None:
                    st.buckets[key] = b
                else:
                    mine.join(b)

    def add(self, s, decks: int, dealer: str | None, seconds: int | None, zone: int | None, where: tuple) -> None:
        """One coup ``s`` whose wagers were settled: the wagers as they stood when settlement began (a wager never
        settled is still staked), and what every settlement and commission left the house, by spot.  Every coup
        with wagers comes here: kept lean (amounts added with the operators, exact for any amount a table handles;
        the stakes by spot left to wait, :meth:`Bucket.fold`).  ``seconds``: the coup's time, since 1970 (None:
        not recorded), at the offset ``zone`` in minutes (NAIVE: none recorded); ``where``: (its number, line,
        column, seconds, zone)."""
        key = (decks, dealer, None if seconds is None else seconds // QUARTER, zone)
        b = self._buckets.get(key)
        if b is None:
            b = self._buckets[key] = Bucket(where)
        b.coups += 1
        b.last = where
        kept = b.kept  # the house's net on the spots judged ("" in the bucket), a spot judged by none apart
        unjudged = self.unjudged
        if unjudged:
            net = b.net
            for _, _, spot, out, amount in s.settlements:
                if out == "lose":
                    if spot in unjudged:
                        net[spot] = net.get(spot, ZERO) + amount
                    else:
                        kept += amount
                elif out == "win":
                    if spot in unjudged:
                        net[spot] = net.get(spot, ZERO) - amount
                    else:
                        kept -= amount
        else:
            for _, _, _, out, amount in s.settlements:
                if out == "lose":
                    kept += amount
                elif out == "win":
                    kept -= amount
        for cm in s.commissions:
            kept += cm.amount
        b.kept = kept
        basis = s.stakes_at_settlement
        if basis is None:
            basis = s.stakes
        if not basis:
            return
        n = len(basis)
        if n == 1:
            for (_, spot), stake in basis.items():
                spots, stakes = (spot,), (stake,)
        elif n == 2:
            ((_, a), x), ((_, c), y) = basis.items()
            if a == c:
                spots, stakes = (a,), (x + y,)
            else:
                spots, stakes = (a, c), (x, y)
        else:
            by_spot: dict[str, Decimal] = {}
            for (_, spot), stake in basis.items():
                if spot in by_spot:
                    by_spot[spot] += stake
                else:
                    by_spot[spot] = stake
            spots, stakes = tuple(by_spot), tuple(by_spot.values())
        pending = b.pending
        rows = pending.get(spots)
        if rows is None:
            if not pending:
                self._dirty.append(b)
            rows = pending[spots] = []
        rows.append(stakes)
        self._waiting += 1
        if self._waiting >= FOLD:
            self._fold()


# ------------------------------------------------------------------ the exact distribution of one coup


class Theory:
    """What a unit staked on each spot leaves the house in one coup from a full shoe: its mean (the house edge) and
    the covariances of two spots, exact fractions.  Spots settled by the result read the ends of a coup
    (:mod:`..odds`), pairs the classes of the hands' first two cards; the two families are taken as independent."""

    def __init__(self, ends: list[tuple[int, int]], classes: list[tuple[int, int]], spots: dict):
        self.ends = ends  # (index into ENDS, deals ending so), every end
        self.classes = classes  # (4 * Player's class + Banker's, deals), every cell
        self.spots = spots
        self._mean: dict[str, Fraction] = {}
        self._cov: dict[tuple[str, str], Fraction] = {}

    def _cells(self, back):
        return self.ends if isinstance(back, Returns) else self.classes

    def mean(self, spot: str) -> Fraction:
        m = self._mean.get(spot)
        if m is None:
            back = self.spots[spot]
            cells = self._cells(back)
            total = sum(n for _, n in cells)
            m = self._mean[spot] = sum((n * (1 - back[i]) for i, n in cells), Fraction(0)) / total
        return m

    def cov(self, a: str, b: str) -> Fraction:
        key = (a, b) if a <= b else (b, a)
        c = self._cov.get(key)
        if c is None:
            x, y = self.spots[a], self.spots[b]
            if isinstance(x, Returns) != isinstance(y, Returns):
                c = Fraction(0)
            else:
                cells = self._cells(x)
                total = sum(n for _, n in cells)
                both = sum((n * (1 - x[i]) * (1 - y[i]) for i, n in cells), Fraction(0)) / total
                c = both - self.mean(a) * self.mean(b)
            self._cov[key] = c
        return c


def pair_cells(decks: int) -> list[tuple[int, int]]:
    """(4 * Player's class + Banker's class, deals) of the four first cards of a full shoe (classes of
    :data:`~compliance.games.baccarat.edges.CLASSES`: ranks differ, mixed, coloured, suited pair)."""
    from compliance.games.baccarat.analyze import first_four

    def cls(two) -> int:
        a, b = two
        return 3 if a == b else 2 if a[:2] == b[:2] else 1 if a[0] == b[0] else 0

    cells: dict[int, int] = {}
    for player, banker, n in first_four(decks):
        i = 4 * cls(player) + cls(banker)
        cells[i] = cells.get(i, 0) + n
    return sorted(cells.items())


def theory(tableau, decks: int, spots: dict, cache: bool = True) -> Theory:
    """The :class:`Theory` of a table's judged spots, for a full shoe of ``decks`` decks under ``tableau``."""
    from compliance.games.baccarat.odds import tableau_key

    return _theory(tableau_key(tableau), decks, tuple(sorted(spots.items())), cache)


@functools.lru_cache(maxsize=64)
def _theory(key: tuple, decks: int, spots: tuple, cache: bool) -> Theory:
    """One :class:`Theory` a process for each tableau, deck count and spots (its means and covariances kept)."""
    from compliance.games.baccarat.odds import end_index, shoe_counts

    ends = [(end_index(*end), n) for end, n in shoe_counts(key, decks, cache)]
    judged = dict(spots)
    classes = pair_cells(decks) if any(isinstance(b, PairReturns) for b in judged.values()) else []
    return Theory(ends, classes, judged)


# ------------------------------------------------------------------ the groups of a run


def shift_starts(shifts) -> list[int]:
    """The shifts' starts, minutes after midnight, in order."""
    return sorted(int(h) * 60 + int(m) for h, m in (s.split(":") for s in shifts))


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def shift_names(starts: list[int]) -> list[str]:
    return [f"{_clock(a)}-{_clock(starts[(i + 1) % len(starts)])}" for i, a in enumerate(starts)]


def day_and_shift(quarter, zone, starts: list[int], names: list[str], tz) -> tuple[str | None, str | None]:
    """The gaming day (ISO date: the day its shift began) and the shift of a bucket's quarter hour."""
    if quarter is None:
        return None, None
    seconds = quarter * QUARTER
    if zone == NAIVE:
        local = _EPOCH_NAIVE + dt.timedelta(seconds=seconds)
    else:
        local = dt.datetime.fromtimestamp(seconds, tz if tz is not None else
                                          dt.timezone(dt.timedelta(minutes=zone)))
    if not starts:
        return local.date().isoformat(), None
    m = local.hour * 60 + local.minute
    i = bisect.bisect_right(starts, m) - 1
    day = local.date()
    if i < 0:  # before the day's first shift: the last shift of the day before
        i = len(starts) - 1
        day -= dt.timedelta(days=1)
    return day.isoformat(), names[i]


class _Sum:
    """One group's money as it is folded: by deck count (its theory), the spots' handle, net and moments."""

    __slots__ = ("coups", "by_decks", "net", "first", "last", "unjudged")

    def __init__(self):
        self.coups = 0
        self.by_decks: dict[tuple, tuple[dict, dict]] = {}  # (theory key) -> (handle, moments)
        self.net: Decimal = ZERO
        self.first = self.last = None  # (place of the result in the run, result, (number, line, column, when))
        self.unjudged: Decimal = ZERO  # handle on spots neither settled by the result nor a pair

    def add(self, tkey, spots: dict, b: Bucket, place: int, result, rule=None) -> None:
        add = _EXACT.add
        self.coups += b.coups
        handle, moments = self.by_decks.setdefault(tkey, ({}, {}))
        for spot, v in b.handle.items():
            if spots.get(spot) is None:
                self.unjudged = add(self.unjudged, v)
            else:
                handle[spot] = add(handle.get(spot, ZERO), v)
        for spot, v in b.net.items():
            if spots.get(spot, True) is not None:  # (a commission apart from any spot counts)
                self.net = add(self.net, v)
        for k, v in b.moments.items():
            if spots.get(k[0]) is not None and spots.get(k[1]) is not None:
                moments[k] = add(moments.get(k, ZERO), v)
        if self.first is None or (place, b.first[0]) < (self.first[0], self.first[2][0]):
            self.first = (place, result, b.first)
        if self.last is None or (place, b.last[0]) > (self.last[0], self.last[2][0]):
            self.last = (place, result, b.last, rule)  # (rule: of the version in force at that coup)


def _decimal(x: Fraction, places: int) -> Decimal:
    q = Decimal(1).scaleb(-places)
    return (_EXACT.divide(Decimal(x.numerator), Decimal(x.denominator))).quantize(q, context=_EXACT)


def figures(total: _Sum, theories: dict) -> tuple:
    """(handle by spot, handle, the win, the theoretical win, its variance) of a group, exact."""
    by_spot: dict[str, Fraction] = {}
    theo = Fraction(0)
    var = Fraction(0)
    for tkey, (handle, moments) in total.by_decks.items():
        t = theories[tkey]
        for spot, v in handle.items():
            f = Fraction(v)
            by_spot[spot] = by_spot.get(spot, 0) + f
            theo += f * t.mean(spot)
        for (a, b), v in moments.items():
            c = t.cov(a, b)
            var += Fraction(v) * c * (1 if a == b else 2)
    return by_spot, sum(by_spot.values(), Fraction(0)), Fraction(total.net), theo, var


def _fold_in(r, st: Stretch, place: int, theories: dict, group, starts, names, tz, untimed: dict, nodealer: dict,
             cache: bool) -> None:
    """Fold the buckets of one version's coups of the transcript ``r`` into the run's groups."""
    table, currency = r.table, r.integrity.currency
    judged = {k: v for k, v in st.spots.items() if v is not None}
    tableau = st.tableau if st.tableau is not None else r.ruleset.game.tableau
    for (decks, dealer, quarter, zone), b in st.buckets.items():
        tkey = (id(r.ruleset), r.game, st.version, decks)
        if tkey not in theories:
            theories[tkey] = theory(tableau, decks, judged, cache)
        day, shift = day_and_shift(quarter, zone, starts, names, tz)
        keys = [("table", table, None, None, None, currency)]
        if day is None:
            untimed[table] = untimed.get(table, 0) + b.coups
        else:
            keys.append(("table-day", table, None, day, None, currency))
            keys.append(("day", None, None, day, None, currency))
            if shift is not None:
                keys.append(("table-shift", table, shift, None, None, currency))
        if dealer is None:
            nodealer[table] = nodealer.get(table, 0) + b.coups
        else:
            keys.append(("dealer", None, None, None, dealer, currency))
        for key in keys:
            group(key).add(tkey, st.spots, b, place, r, st.rule)


def judge(results: list, context) -> list[tuple[object, Finding]]:
    """Fold every transcript's buckets into the run's groups, set each beside theory, leave the run's
    :class:`HoldView` on every transcript's integrity data, and return the findings (result, finding)."""
    # a table's record: not an example in a Markdown document (as the tests of runs of shoes take them)
    mine = [r for r in results if getattr(getattr(r, "integrity", None), "hold", None) is not None
            and "#L" not in r.transcript]
    if not mine:
        return []
    rule = mine[0].integrity.rules[HOLD]
    p = rule.params
    shifts = tuple(getattr(context, "shifts", ()) or ())
    zone_name = getattr(context, "time_zone", None)
    tz = None
    if zone_name:
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(zone_name)
    starts = shift_starts(shifts)
    names = shift_names(starts) if starts else []
    cache = context.cache if context is not None else True
    theories: dict[tuple, Theory] = {}
    groups: dict[tuple, _Sum] = {}
    view_unjudged: list[tuple[str, str]] = []
    untimed: dict[str, int] = {}
    nodealer: dict[str, int] = {}

    def group(key) -> _Sum:
        g = groups.get(key)
        if g is None:
            g = groups[key] = _Sum()
        return g

    for place, r in enumerate(mine):
        data = r.integrity.hold
        table = r.table
        currency = r.integrity.currency
        stretches = [st for st in data.stretches() if st.buckets]
        if not stretches:
            view_unjudged.append((table, "no wager settled in its record (wagers and settlements not recorded)"))
            continue
        for st in stretches:  # each version's coups by its own spots' payouts and tableau
            _fold_in(r, st, place, theories, group, starts, names, tz, untimed, nodealer, cache)
    for r in mine:
        n = r.integrity.hold.too_large
        if n:
            view_unjudged.append((r.table, f"{n:,} coups whose stakes are too large to add up exactly"))
    for table, n in untimed.items():
        view_unjudged.append((table, f"days and shifts: {n:,} coups without a time recorded"))
    for table, n in nodealer.items():
        if len(nodealer) and any(k[0] == "dealer" for k in groups):
            view_unjudged.append((table, f"dealers: {n:,} coups without a dealer recorded"))
    order = {"table": 0, "table-shift": 1, "table-day": 2, "dealer": 3, "day": 4}
    keys = sorted(groups, key=lambda k: (order[k[0]], *(("" if x is None else x) for x in k[1:])))
    from statistics import NormalDist

    wide = NormalDist().inv_cdf((1 + p.confidence) / 2)
    made = []
    for key in keys:
        total = groups[key]
        by_spot, handle, win, theo, var = figures(total, theories)
        if handle == 0:
            continue
        sd = math.sqrt(var) if var > 0 else 0.0
        z = float(win - theo) / sd if sd > 0 else 0.0
        pv = math.erfc(abs(z) / math.sqrt(2)) if sd > 0 else 1.0
        band = Fraction(wide) * Fraction(sd)
        low, high = (theo - band) / handle, (theo + band) / handle
        made.append((key, total, by_spot, handle, win, theo, var, sd, z, pv, low, high))
    tested = [m for m in made if m[1].coups >= p.min_coups]
    cut = benjamini_hochberg([m[9] for m in tested], p.false_discovery_rate) if tested else 0.0
    out_groups, findings = [], []
    for key, total, by_spot, handle, win, theo, var, sd, z, pv, low, high in made:
        kind, table, shift, day, dealer, currency = key
        judged = total.coups >= p.min_coups
        outside = judged and pv < 1 - p.confidence
        direction = None if win == theo else "toward the house" if win > theo else "toward the patrons"
        flagged = judged and cut > 0 and pv <= cut
        g = HoldGroup(kind=kind, table=table, shift=shift, day=day, dealer=dealer, currency=currency,
                      coups=total.coups, handle_by_spot=tuple((s, _decimal(v, 2)) for s, v in sorted(by_spot.items())),
                      handle=_decimal(handle, 2), win=_decimal(win, 2), theoretical_win=_decimal(theo, 4),
                      hold=_decimal(win / handle, 6), theoretical_hold=_decimal(theo / handle, 6),
                      variance=_decimal(var, 4), spread=_decimal(Fraction(sd), 4), z=round(z, 4), p_value=pv,
                      low=_decimal(low, 6), high=_decimal(high, 6), outside=outside, direction=direction,
                      flagged=flagged, judged=judged, unjudged_handle=total.unjudged)
        out_groups.append(g)
        if flagged:
            findings.append(_finding(rule, g, total, cut, len(tested), p))
    view = HoldView(confidence=p.confidence, false_discovery_rate=p.false_discovery_rate, shifts=tuple(names),
                    time_zone=zone_name, groups=out_groups, not_judged=view_unjudged, rule=rule.id,
                    category=rule.category)
    for r in results:
        if getattr(r, "integrity", None) is not None:
            r.integrity.hold_view = view
    return findings


def _finding(rule, g: HoldGroup, total: _Sum, cut: float, m: int, p) -> tuple[object, Finding]:
    """The group's finding, at its last coup, citing the hold rule of the version in force there (its
    thresholds are the run's: ``rule``'s)."""
    _, result, (number, line, column, seconds, zone), cited = total.last
    cited = cited or rule
    at = None
    if seconds is not None:
        at = (_EPOCH_NAIVE + dt.timedelta(seconds=seconds)).isoformat() if zone == NAIVE else \
            dt.datetime.fromtimestamp(seconds, dt.timezone(dt.timedelta(minutes=zone))).isoformat()
    name = g.name
    unit = f" {g.currency}" if g.currency else ""
    message = (f"{name}: hold {_pct(g.hold)} against a theoretical {_pct(g.theoretical_hold)} on a handle of "
               f"{money(g.handle)}{unit} over {g.coups:,} coups (win {money(g.win)} against "
               f"{money(g.theoretical_win)} in theory, spread {money(g.spread)}): {abs(g.z):.2f} standard "
               f"deviations {g.direction}, p = {probability_text(g.p_value)} (Benjamini-Hochberg over {m:,} "
               f"group{'' if m == 1 else 's'} at "
               f"{probability_text(p.false_discovery_rate)}: decisive at p <= {probability_text(cut)})")
    severity = rule.severity
    if p.error_at is not None and g.p_value <= p.error_at and severity != "error":
        severity = "error"
        message += f"; an error, as p = {probability_text(g.p_value)} is at or below {probability_text(p.error_at)}"
    stat = Statistic(name, "win against theory (normal)", "z-score", f"{g.z:.4f}", probability_text(g.p_value),
                     f"{probability_text(cut)} (Benjamini-Hochberg, {m} groups at "
                     f"{probability_text(p.false_discovery_rate)})", number)
    staff = (("dealer", g.dealer),) if g.dealer is not None else ()
    f = Finding(rule=rule.id, category=rule.category, severity=severity, transcript=result.transcript,
                coup=number, event=None, message=message, citation=cited.cite_for(result.game),
                line=line or None, column=column or None, table=g.table, staff=staff, at=at,
                statistics=(stat,))
    return result, f


def _pct(x: Decimal) -> str:
    return f"{(x * 100).quantize(Decimal('0.01'))}%"
