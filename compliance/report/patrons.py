"""The reported findings that name a patron, by patron: their wrong settlements, wagers, net and edge.

:func:`patron_counts` builds one :class:`PatronCounts` a patron (docs/integrity.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from compliance.findings import Finding
from compliance.report.groups import NOT_RECORDED
from compliance.report.money import ZERO, MoneyTotal, patron_key

#: the category whose findings carry a patron's edge: the expected gain of side wagers that follow the cards left
#: in the shoe (its money: ``expected`` their value at a full shoe's odds, ``paid`` given the cards left)
EDGE_CATEGORY = "integrity.advantage-play"


@dataclass
class PatronCounts:
    """One patron's share of the reported findings that name a patron (those with money: wrong settlements,
    collusion, advantage play): by severity; the patron's wrong settlements among them (``settlements``; a
    finding over many, collusion or advantage play, sums others and is not one); the wagers the patron had
    settled in the run (every coup, where the game's integrity stage counted them in every transcript; None
    otherwise); the net of the wrong settlements (as :class:`MoneyTotal` adds them up, None where there are none
    or the findings are in several currencies); and the edge taken, the expected gain of the advantage-play
    findings (None where there is none, or in several currencies)."""

    by_severity: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    settlements: int = 0
    wagers: int | None = None
    money: MoneyTotal | None = None
    edge: Decimal | None = None
    currency: str | None = None

    @property
    def count(self) -> int:
        return len(self.findings)

    @property
    def by_rule(self) -> list[tuple[str, int]]:
        """The patron's findings by rule, the most frequent first."""
        return sorted(Counter(f.rule for f in self.findings).items(), key=lambda kv: (-kv[1], kv[0]))


def finding_patron(f: Finding) -> str | None:
    """The patron a finding names, across the run (:func:`patron_key`): a finding with money (a wrong settlement,
    collusion, advantage play); None for one without, or over many patrons' settlements (a table's drift)."""
    m = f.money
    if m is None or (m.patron is None and m.sums is not None):
        return None
    return patron_key(f)


def patron_wagers(results: list) -> Counter | None:
    """The wagers each patron had settled (:func:`patron_key`'s names), over the run: None unless every
    transcript with a coup was counted (a game's integrity stage counts them: ``integrity.wagered``)."""
    out: Counter = Counter()
    for r in results:
        wagered = getattr(getattr(r, "integrity", None), "wagered", None)
        if wagered is None:
            if r.coups:
                return None
            continue
        for who, n in wagered.items():
            out[f"{r.table} {who}" if who.startswith(("seat ", "box ")) else who] += n
    return out


def patron_counts(findings: list[Finding], results: list = ()) -> dict[str, PatronCounts]:
    """The reported findings that name a patron, by patron (:func:`finding_patron`), with the wagers each had
    settled in the run (``results``' counts): the most findings first, then by name, ``(not recorded)`` last."""
    out: dict[str, PatronCounts] = {}
    currencies: dict[str, set] = {}
    for f in findings:
        key = finding_patron(f)
        if key is None:
            continue
        m = f.money
        p = out.get(key)
        if p is None:
            p = out[key] = PatronCounts()
            currencies[key] = set()
        p.by_severity[f.severity] += 1
        p.findings.append(f)
        p.settlements += m.sums is None
        currencies[key].add(m.currency)
    wagered = patron_wagers(list(results)) if out else None
    for key, p in out.items():
        if wagered is not None and key != NOT_RECORDED:
            p.wagers = wagered[key]
        if len(currencies[key]) != 1:
            continue  # amounts of different currencies are never added
        (p.currency,) = currencies[key]
        settled = [f for f in p.findings if f.money.sums is None]
        if settled:
            p.money = MoneyTotal()
            for f in settled:
                p.money.add(f.money.gain)
        edges = [f.money.gain for f in p.findings if f.category == EDGE_CATEGORY]
        if edges:
            p.edge = sum(edges, ZERO)
    return dict(sorted(out.items(), key=lambda kv: (kv[0] == NOT_RECORDED, -kv[1].count, kv[0])))
