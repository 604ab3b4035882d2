"""Outcomes no fair shoe gives: counts and streaks against the exact odds of the ruleset's game.

For a group of coups (a shoe, a table, a dealer, the run), the counts of Banker, Player and Tie wins and
of naturals are compared with the exact odds of one coup from a full shoe (two-sided binomial tests), and
a shoe's longest streak with the chance of one as long.  A coup dealt against the tableau counts at the
outcome the tableau gives its cards (:func:`~.collect.counted_outcomes`); a coup whose outcome the record
does not let the counts read is taken at its worst.  Every p-value of a rule goes through
Benjamini-Hochberg; a finding names the first coup at which it was decisive.

Why, what it assumes, and its measured false-alarm rate: docs/integrity.md, "2. Outcomes no fair shoe gives".
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.games.integrity import CountBand
from compliance.stats import binomial_band, binomial_two_sided, longest_run_tail

COUNTS = (("banker", "Banker", b"Bb"), ("player", "Player", b"Pp"), ("tie", "Tie", b"Tt"),
          ("naturals", "naturals", b"bpt"))


@dataclass(slots=True)
class Segment:
    """Coups ``start`` to ``end - 1`` of one shoe record, all of one group."""

    shoe: object  # the ShoeRun (judge.py): its record, its transcript, its place in the run
    start: int
    end: int
    odds: dict[str, float]  # banker, player, tie, naturals: the chance of each in one coup of this shoe


@dataclass(slots=True)
class Group:
    kind: str  # shoe, table, dealer, run
    name: str  # "shoe S0003 (table T1)", "table T1", ...
    rule: object  # the rule that judges it
    segments: list[Segment]


@dataclass(slots=True)
class Test:
    """One statistic of one group: what was counted, of how many, against what chance, and its p-value."""

    group: Group
    statistic: str  # "banker", "player", "tie", "naturals" or "streak"
    k: int  # the count (a streak: its length)
    n: int  # the coups compared (a streak: the Banker-or-Player coups)
    chance: float  # of one coup (a streak: of a Banker win among Banker-or-Player coups)
    p_value: float
    side: str = ""  # a streak's: B or P
    unread: int = 0  # coups set aside (``?``), counted at their worst (for a count: ``k`` and ``n`` include them)

    @property
    def words(self) -> str:
        return "longest streak" if self.statistic == "streak" else f"{WORDS[self.statistic]} count"

    @property
    def value(self) -> str:
        if self.statistic == "streak":
            name = "Banker" if self.side == "B" else "Player"
            return f"{self.k} {name} wins in a row in {self.n} Banker or Player coups" + self._unread
        return f"{self.k:,} of {self.n:,} (fair: {self.n * self.chance:,.1f} on average)" + self._unread

    @property
    def _unread(self) -> str:
        return (f" ({self.unread:,} coups not read among them, counted as fair play would best explain)"
                if self.unread else "")


WORDS = {stat: words for stat, words, _ in COUNTS}


def letters(seg: Segment) -> bytes:
    return seg.shoe.counted[seg.start:seg.end]


def _count(text: bytes, of: bytes) -> int:
    return sum(text.count(c) for c in of)


def tests_of(group: Group, wanted: list[str]) -> list[Test]:
    """The group's tests: the binomial test of each count, and a shoe's longest streak."""
    return [Test(group, *t) for t in statistics_of([letters(s) for s in group.segments],
                                                   [s.odds for s in group.segments], group.kind == "shoe", wanted)]


UNREAD = 63  # "?": a coup dealt whose outcome the counts cannot read


def worst(k: int, n: int, unread: int, p: float) -> tuple[int, float]:
    """(the count, the p-value) of ``k`` of ``n`` coups read, and ``unread`` more whose outcome is not known, at the
    outcome of those most like fair play: the largest p-value over every count they could add (``n + unread``
    coups in all).  A p-value at least that of the truth, whatever it was."""
    if not unread:
        return k, binomial_two_sided(k, n, p)
    total = n + unread
    best = round(total * p) - k
    candidates = {min(max(j, 0), unread) for j in (best - 1, best, best + 1)} | {0, unread}
    return max(((k + j, binomial_two_sided(k + j, total, p)) for j in candidates), key=lambda x: (x[1], -x[0]))


def statistics_of(texts: list[bytes], odds: list[dict[str, float]], shoe: bool, wanted: list[str]) -> list[tuple]:
    """The tests of the coups ``texts`` (segments, each with its ``odds``), as :class:`Test`'s fields after its
    group: (statistic, k, n, chance, p-value, side, unread); ``shoe``: one shoe's, its longest streak tested too.
    Coups set aside (``?``) are counted at their worst (:func:`worst`)."""
    sizes = [len(t) - t.count(b"-") for t in texts]
    n = sum(sizes)
    if n == 0:
        return []
    unread = sum(t.count(b"?") for t in texts)
    out = []
    for stat, _, of in COUNTS:
        if stat not in wanted:
            continue
        p = sum(o[stat] * k for o, k in zip(odds, sizes)) / n
        k, p_value = worst(sum(_count(t, of) for t in texts), n - unread, unread, p)
        out.append((stat, k, n, p, p_value, "", unread))
    if shoe and "streak" in wanted:
        side, length, _, m = streak(texts[0])
        if m:
            q = odds[0]["banker"] / (odds[0]["banker"] + odds[0]["player"])
            out.append(("streak", length, m, q, longest_run_tail(length, m, q), side, unread))
    return out


def decisive(test: Test, threshold: float) -> tuple[Segment, int]:
    """The first coup at which the test on the coups so far is at or below ``threshold``: coup by coup in a
    shoe; for a group of several segments (a table's shoes, a dealer's stretches) taken at the end of each
    segment, then coup by coup within the first segment whose end is decisive."""
    segments = test.group.segments
    if test.statistic == "streak":
        seg = segments[0]
        run, last, resolved, best = 0, None, 0, 0
        for i, c in enumerate(letters(seg)):
            if c == UNREAD:  # at its worst: a break, and one more coup
                resolved += 1
                run, last = 0, None
                continue
            s = "B" if c in b"Bb" else "P" if c in b"Pp" else None
            if s is None:
                continue
            resolved += 1
            run = run + 1 if s == last else 1
            last = s
            best = max(best, run)
            if longest_run_tail(best, resolved, test.chance) <= threshold:
                return seg, seg.start + i
        return seg, seg.end - 1
    of = dict((stat, of) for stat, _, of in COUNTS)[test.statistic]
    p = test.chance
    k = n = u = 0
    for seg in segments:
        text = letters(seg)
        size, unread = len(text) - text.count(b"-") - text.count(b"?"), text.count(b"?")
        if seg is not segments[-1] and worst(k + _count(text, of), n + size, u + unread, p)[1] > threshold:
            k, n, u = k + _count(text, of), n + size, u + unread
            continue
        for i, c in enumerate(text):
            if c == 45:  # "-": not compared
                continue
            if c == UNREAD:
                u += 1
            else:
                n += 1
                k += c in of
            if worst(k, n, u, p)[1] <= threshold:
                return seg, seg.start + i
        return seg, seg.end - 1
    return segments[-1], segments[-1].end - 1


def streak(text: bytes) -> tuple[str, int, int, int]:
    """(side, length, index of the coup that reached it, Banker-or-Player coups) of the longest streak."""
    best = ("B", 0, -1)
    side, run, m = None, 0, 0
    for i, c in enumerate(text):
        if c in b"Bb":
            s = "B"
        elif c in b"Pp":
            s = "P"
        elif c == UNREAD:  # at its worst: a break, in one coup more
            m += 1
            run, side = 0, None
            continue
        else:
            continue
        m += 1
        run = run + 1 if s == side else 1
        side = s
        if run > best[1]:
            best = (s, run, i)
    return best[0], best[1], best[2], m


def bands(text: bytes, odds: dict[str, float]) -> list[CountBand]:
    """The shoe's counts against the band a fair shoe lands in 95 times in 100."""
    n = len(text) - text.count(b"-") - text.count(b"?")
    out = []
    for stat, words, of in COUNTS:
        p = odds[stat]
        k = _count(text, of)
        lo, hi = binomial_band(n, p)
        out.append(CountBand(words, k, n * p, lo, hi, binomial_two_sided(k, n, p)))
    return out
