"""The few probability tails the integrity tests need, and the Benjamini-Hochberg procedure.

Pure functions of numbers: :func:`binomial_two_sided` (with :func:`binomial_tails` and
:func:`binomial_band`), :func:`longest_run_tail`, :func:`sign_test`, :func:`hypergeometric_upper` and
:func:`stratified_hypergeometric_upper`, :func:`benjamini_hochberg`, and :func:`probability_text` (a
probability for a report, one far below a float's range kept as a Fraction).  The per-coup
probabilities come from the game's exact analysis, never from a table written here.

Which test uses which, what each assumes and its measured false-alarm rate: docs/integrity.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

#: terms of a tail below this share of the sum so far are not added (they cannot change a printed digit)
_NEGLIGIBLE = 1e-18


def _log_pmf(k: int, n: int, p: float) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def _tail_sum(k: int, n: int, p: float, upward: bool) -> float:
    """P(X >= k) (``upward``) or P(X <= k), X ~ Binomial(n, p), summed from k outward."""
    if upward and k <= 0 or not upward and k >= n:
        return 1.0
    if upward and k > n or not upward and k < 0:
        return 0.0
    if p <= 0.0:
        return 1.0 if not upward else 0.0
    if p >= 1.0:
        return 1.0 if upward else 0.0
    term = math.exp(_log_pmf(k, n, p))
    total = term
    ratio = p / (1.0 - p)
    j = k
    if upward:
        while j < n:
            term *= (n - j) / (j + 1) * ratio
            j += 1
            total += term
            if term <= total * _NEGLIGIBLE and j > n * p:
                break
    else:
        while j > 0:
            term *= j / (n - j + 1) / ratio
            j -= 1
            total += term
            if term <= total * _NEGLIGIBLE and j < n * p:
                break
    return min(total, 1.0)


@lru_cache(maxsize=65536)
def binomial_tails(k: int, n: int, p: float) -> tuple[float, float]:
    """(P(X <= k), P(X >= k)) for X ~ Binomial(n, p); the tail on the far side of the mean is 1 minus the other."""
    mean = n * p
    if k <= mean:
        lower = _tail_sum(k, n, p, upward=False)
        upper = 1.0 - _tail_sum(k - 1, n, p, upward=False) if k > 0 else 1.0
    else:
        upper = _tail_sum(k, n, p, upward=True)
        lower = 1.0 - _tail_sum(k + 1, n, p, upward=True) if k < n else 1.0
    return max(lower, 0.0), max(upper, 0.0)


def binomial_two_sided(k: int, n: int, p: float) -> float:
    """Two-sided p-value of ``k`` successes in ``n`` trials of probability ``p``: twice the smaller tail, at most 1."""
    if n <= 0:
        return 1.0
    lower, upper = binomial_tails(k, n, p)
    return min(1.0, 2.0 * min(lower, upper))


@lru_cache(maxsize=4096)
def binomial_band(n: int, p: float, coverage: float = 0.95) -> tuple[int, int]:
    """The counts ``lo..hi`` a fair ``n`` coups land in with at least ``coverage``: the chance of a count below
    ``lo``, and of one above ``hi``, each at most half of the rest."""
    if n <= 0:
        return 0, 0
    half = (1.0 - coverage) / 2
    mode = min(n, max(0, int(n * p)))
    lo = mode
    while lo > 0 and binomial_tails(lo - 1, n, p)[0] > half:
        lo -= 1
    hi = mode
    while hi < n and binomial_tails(hi + 1, n, p)[1] > half:
        hi += 1
    return lo, hi


@lru_cache(maxsize=65536)
def longest_run_tail(length: int, trials: int, q: float) -> float:
    """P(the longest streak of either kind is at least ``length``) in ``trials`` independent trials, each of the
    first kind with probability ``q`` and of the second otherwise."""
    if length <= 1:
        return 1.0 if trials >= 1 and length == 1 else (1.0 if length <= 0 else 0.0)
    if trials < length:
        return 0.0
    r = 1.0 - q
    a = [0.0] * length  # a[i]: in a streak of the first kind of length i, none has reached `length`
    b = [0.0] * length
    a[1], b[1] = q, r
    reached = 0.0
    for _ in range(trials - 1):
        sa, sb = sum(a), sum(b)
        reached += q * a[length - 1] + r * b[length - 1]
        a = [0.0, q * sb] + [q * a[i] for i in range(1, length - 1)]
        b = [0.0, r * sa] + [r * b[i] for i in range(1, length - 1)]
    return min(1.0, reached)


def sign_test(k: int, n: int) -> Fraction:
    """Two-sided p-value of ``k`` of ``n`` falling one way when each falls either way with probability 1/2 (exact)."""
    if n <= 0:
        return Fraction(1)
    extreme = max(k, n - k)
    tail = sum(math.comb(n, j) for j in range(extreme, n + 1))
    return min(Fraction(1), Fraction(2 * tail, 2 ** n))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def hypergeometric_upper(x: int, population: int, marked: int, drawn: int) -> float | Fraction:
    """P(X >= x) for X the marked items among ``drawn`` taken without replacement from ``population`` of which
    ``marked`` are marked (the hypergeometric law): the chance that a choice blind to the marks takes ``x`` or
    more of them.  Summed from ``x`` up in double precision (log-space terms), stopping once the terms no longer
    count; a tail too small for a double (below 1e-300) is summed exactly in integers (a fraction)."""
    lo, hi = max(0, drawn - (population - marked)), min(drawn, marked)
    if x <= lo:
        return 1.0
    if x > hi:
        return 0.0
    base = _log_comb(population, drawn)
    total = 0.0
    first = None
    for j in range(x, hi + 1):
        log_term = _log_comb(marked, j) + _log_comb(population - marked, drawn - j) - base
        if first is None:
            first = log_term
        term = math.exp(log_term - first)
        total += term
        if term <= total * _NEGLIGIBLE:
            break
    if first + math.log(total) < -690:  # below 1e-300: exactly
        return Fraction(sum(math.comb(marked, j) * math.comb(population - marked, drawn - j) for j in range(x, hi + 1)),
                        math.comb(population, drawn))
    return min(1.0, total * math.exp(first))


def stratified_hypergeometric_upper(x: int, strata) -> float | Fraction:
    """P(X >= x) for X the sum of independent hypergeometric counts, one a stratum ``(population, marked, drawn)``:
    the chance that choices blind to the marks within each stratum take ``x`` or more marked items in all (a
    patron's wagers placed by habit at each shoe depth, blind to the cards).  Exact up to double precision: each
    stratum's law convolved in turn, tilted towards ``x`` (each law's terms times ``e^(theta k)``, undone in the
    sum) so the tail keeps its digits however small; a tail below 1e-300 as a fraction of its leading digits.  A
    count at most one standard deviation above its mean gives 1.0 (a bound: far above any level a test uses)."""
    strata = [(t, f, n) for t, f, n in strata if n]
    mean = var = 0.0
    lo_sum = hi_sum = 0
    for t, f, n in strata:
        r = f / t
        mean += n * r
        var += n * r * (1 - r) * (t - n) / (t - 1) if t > 1 else 0.0
        lo_sum += max(0, n - (t - f))
        hi_sum += min(n, f)
    if x <= lo_sum:
        return 1.0
    if x > hi_sum:
        return 0.0
    if x <= mean + math.sqrt(var):
        return 1.0
    total_n = sum(n for _, _, n in strata)
    theta = max(0.0, math.log((x + 0.5) / (total_n - x + 0.5)) - math.log((mean + 0.5) / (total_n - mean + 0.5)))
    dist, offset, log_scale = [1.0], 0, 0.0
    for t, f, n in strata:
        lo, hi = max(0, n - (t - f)), min(n, f)
        if lo == hi:
            offset += lo
            continue
        base = _log_comb(t, n)
        logs = [_log_comb(f, k) + _log_comb(t - f, n - k) - base + theta * k for k in range(lo, hi + 1)]
        top = max(logs)
        law = [math.exp(v - top) for v in logs]
        out = [0.0] * (len(dist) + len(law) - 1)
        for i, a in enumerate(dist):
            if a:
                for j, b in enumerate(law):
                    out[i + j] += a * b
        peak = max(out)
        dist = [v / peak for v in out]
        log_scale += top + math.log(peak)
        offset += lo
    k = x - offset
    tail = sum(v * math.exp(-theta * (i - k)) for i, v in enumerate(dist) if i >= k)
    if tail <= 0:
        return 0.0
    log_p = math.log(tail) + log_scale - theta * x
    if log_p >= -690:
        return min(1.0, math.exp(log_p))
    exponent = math.floor(log_p / math.log(10))
    digits = round(10 ** (log_p / math.log(10) - exponent + 12))
    return Fraction(digits, 10 ** (12 - exponent))


def benjamini_hochberg(pvalues: Sequence[float], q: float, m: int | None = None) -> float:
    """The Benjamini-Hochberg threshold at false discovery rate ``q``: every p-value at or below it is a finding
    (0.0: none is).  With the p-values sorted ascending, ``R`` is the largest rank ``i`` with
    p_(i) <= i q / m; the threshold is the critical value R q / m (no p-value falls between p_(R) and it).
    ``m``: the number of tests, where it is more than the p-values given: each test left out has p = 1."""
    given = len(pvalues)
    m = given if m is None else m
    if m < given:
        raise ValueError(f"{given} p-values for {m} tests")
    rejected = 0
    for i, p in enumerate(sorted(pvalues), start=1):
        if p <= i * q / m:
            rejected = i
    if m > given and q >= 1:  # the tests left out (p = 1) fall at or below q at the last rank
        rejected = m
    return rejected * q / m if rejected else 0.0


def probability_text(x: float | Fraction, bound: bool = False) -> str:
    """A probability for a report: two significant digits ('0.00012', '3.1e-640'); ``bound``: '<= ...'."""
    prefix = "<= " if bound else ""
    if isinstance(x, Fraction):
        if x == 0:
            return prefix + "0"
        with localcontext() as ctx:
            ctx.prec = 2
            ctx.Emin = -999_999_999
            d = Decimal(x.numerator) / Decimal(x.denominator)
        if d >= Decimal("0.0001"):
            return prefix + _plain(float(d))
        return prefix + f"{d:.1e}".replace("e-0", "e-")
    if x == 0:
        return prefix + "0"
    if x >= 0.0001:
        return prefix + _plain(x)
    return prefix + f"{x:.1e}".replace("e-0", "e-")


def _plain(x: float) -> str:
    text = f"{float(f'{x:.2g}'):f}".rstrip("0").rstrip(".")
    return text or "0"
