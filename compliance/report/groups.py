"""The reported findings counted by dealer, table and hour, with the coups each dealer dealt.

:func:`group_findings` builds :class:`Groups`; :func:`hour_of` is the hour every report groups a time by.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from compliance.findings import Finding

NOT_RECORDED = "(not recorded)"


@dataclass(frozen=True)
class DealerRest:
    """Dealers a page does not list one by one, added up (:meth:`Groups.together`)."""

    counts: Counter
    coups: int
    rate: Decimal | None
    whole: int


@dataclass
class Groups:
    """The reported findings counted by dealer, by table and by hour (where the transcripts record them); each
    dealer who dealt is listed (with or without findings), with the coups they dealt (``dealer_coups``) and how
    many of their findings judged whole shoes or runs (``dealer_whole``: an integrity finding counts against the
    dealer of its decisive coup, and is shown apart)."""

    dealer: dict[str, Counter]
    table: dict[str, Counter]
    hour: dict[str, Counter]
    dealer_coups: dict[str, int] = field(default_factory=dict)
    dealer_whole: dict[str, int] = field(default_factory=dict)

    def rate(self, dealer: str) -> Decimal | None:
        """The dealer's findings per 100 coups dealt, to two places (None: no coup of theirs is known)."""
        coups = self.dealer_coups.get(dealer, 0)
        if not coups:
            return None
        return (Decimal(sum(self.dealer[dealer].values()) * 100) / coups).quantize(Decimal("0.01"), ROUND_HALF_UP)

    def together(self, dealers: list[str]) -> DealerRest:
        """Several dealers in one line: their findings, the coups they dealt, the rate over those coups, the
        findings on whole shoes."""
        counts = sum((self.dealer[d] for d in dealers), Counter())
        coups = sum(self.dealer_coups.get(d, 0) for d in dealers)
        rate = (Decimal(sum(counts.values()) * 100) / coups).quantize(Decimal("0.01"), ROUND_HALF_UP) if coups else None
        return DealerRest(counts, coups, rate, sum(self.dealer_whole.get(d, 0) for d in dealers))

    def dealers_by_rate(self) -> list[str]:
        """The dealers, the highest rate of findings first (then by name; unknown rates last)."""
        return sorted(self.dealer, key=lambda d: (self.rate(d) is None, -(self.rate(d) or 0), d == NOT_RECORDED, d))


def hour_of(at: str | None) -> str | None:
    """The hour of an ISO 8601 timestamp as recorded, its offset kept: ``2026-11-29T20:00+10:00``; None if it is
    not one."""
    if at is None or len(at) < 10 or not at[:4].isdigit():
        return None
    try:
        when = dt.datetime.fromisoformat(at)
    except ValueError:
        return None
    offset = when.strftime("%z")
    zone = "" if not offset else ("Z" if offset == "+0000" else f"{offset[:3]}:{offset[3:5]}")
    return when.strftime("%Y-%m-%dT%H:00") + zone


def group_findings(findings: list[Finding], results: list | None = None) -> Groups | None:
    """Counts by dealer, table and hour, and the coups each dealer dealt; None when no transcript names a dealer
    and no finding records a dealer or a time (nothing to group by beyond the tables every report lists
    already)."""
    coups: Counter = Counter()
    for r in results or ():
        dealt = getattr(r, "dealt", None) or {}
        coups.update(dealt)
        if sum(dealt.values()) < r.coups:
            coups[NOT_RECORDED] += r.coups - sum(dealt.values())
    named = any(k != NOT_RECORDED for k in coups)
    if not named and not any(f.staff or f.at for f in findings):
        return None
    dealer: dict[str, Counter] = {name: Counter() for name in coups} if named else {}
    whole: Counter = Counter()
    table: dict[str, Counter] = {}
    hour: dict[str, Counter] = {}
    for f in findings:
        who = f.dealer or NOT_RECORDED
        dealer.setdefault(who, Counter())[f.severity] += 1
        if f.statistics is not None:  # judged over whole shoes or runs: against the dealer of its decisive coup
            whole[who] += 1
        table.setdefault(f.table or NOT_RECORDED, Counter())[f.severity] += 1
        hour.setdefault(hour_of(f.at) or NOT_RECORDED, Counter())[f.severity] += 1
    ordered = [dict(sorted(g.items(), key=lambda kv: (kv[0] == NOT_RECORDED, kv[0]))) for g in (dealer, table, hour)]
    return Groups(*ordered, dealer_coups={d: coups[d] for d in ordered[0] if named},
                  dealer_whole={d: whole[d] for d in ordered[0]})
