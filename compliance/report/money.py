"""The money of wrong settlements, exact: by finding, in total and by table, dealer, hour and patron.

:func:`money_summary` adds up the reported findings' money (:class:`MoneySummary`, one currency each, never
added across currencies); :func:`money_words` says one finding's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from compliance.findings import MONEY, Finding, amount_text
from compliance.games.common import money
from compliance.report.groups import NOT_RECORDED, hour_of

ZERO = Decimal(0)


@dataclass
class MoneyTotal:
    """Wrong settlements added up, exact: what the patrons got beyond what was due, what the house kept beyond
    it, and the net (the first less the second)."""

    to_patrons: Decimal = ZERO
    to_house: Decimal = ZERO
    findings: int = 0

    @property
    def net(self) -> Decimal:
        return MONEY.subtract(self.to_patrons, self.to_house)

    def as_dict(self) -> dict:
        return {"net": amount_text(self.net), "to_patrons": amount_text(self.to_patrons),
                "to_house": amount_text(self.to_house), "findings": self.findings}

    def add(self, gain: Decimal) -> None:
        self.findings += 1
        if gain > 0:
            self.to_patrons = MONEY.add(self.to_patrons, gain)
        elif gain < 0:
            self.to_house = MONEY.subtract(self.to_house, gain)

    @classmethod
    def together(cls, totals) -> MoneyTotal:
        """Several totals added up (of one currency)."""
        out = cls()
        for t in totals:
            out.to_patrons = MONEY.add(out.to_patrons, t.to_patrons)
            out.to_house = MONEY.add(out.to_house, t.to_house)
            out.findings += t.findings
        return out


@dataclass
class MoneySummary:
    """The reported findings' money (findings.Money) in one currency (None: the transcripts name none), in
    total and by table, dealer, hour and patron; a finding that sums others (settlement drift) is not counted
    again.  Amounts of different currencies are never added: a run that has several gives one summary each
    (``currencies``) and no total."""

    currency: str | None
    total: MoneyTotal | None
    table: dict[str, MoneyTotal] = field(default_factory=dict)
    dealer: dict[str, MoneyTotal] = field(default_factory=dict)
    hour: dict[str, MoneyTotal] = field(default_factory=dict)
    patron: dict[str, MoneyTotal] = field(default_factory=dict)
    currencies: dict[str, MoneySummary] | None = None  # several currencies: one summary each

    def as_dict(self) -> dict:
        """The summary as the JSON report (and SARIF's run properties) write it: exact decimal strings."""
        if self.currencies is not None:
            return {"currencies": {code: one.as_dict() for code, one in self.currencies.items()}}
        return {"currency": self.currency} | self.total.as_dict() | {
            name: {key: t.as_dict() for key, t in getattr(self, name).items()}
            for name in ("table", "dealer", "hour", "patron")}

    def net_words(self) -> str:
        """"net 50 USD paid to patrons beyond what was due" (several currencies: each)."""
        if self.currencies is not None:
            return "; ".join(s.net_words() for s in self.currencies.values())
        net = self.total.net
        amount = money(abs(net)) + (f" {self.currency}" if self.currency else "")
        if net > 0:
            return f"net {amount} paid to patrons beyond what was due"
        if net < 0:
            return f"net {amount} kept by the house beyond what was due"
        return "net nothing either way in wrong settlements"


def money_words(m) -> str:
    """A finding's money for a reader: "due 950, paid 1,000 USD: 50 in the patron's favour"."""
    unit = f" {m.currency}" if m.currency else ""
    gain = m.gain
    said = (f"{money(abs(gain))}{unit} in the patron's favour" if gain > 0 else
            f"{money(-gain)}{unit} in the house's favour" if gain < 0 else "no difference in money")
    head = f"{m.sums:,} settlements together: " if m.sums is not None else ""
    return f"{head}due {money(m.expected)}, paid {money(m.paid)}{unit}: {said}"


MONEY_GROUPS = (("table", "table"), ("dealer", "dealer"), ("hour", "hour"), ("patron", "patron"))


def patron_key(f: Finding) -> str:
    """Whose money a finding is, across the run: the patron's id where recorded, else the table's seat or box."""
    who = f.money.patron or NOT_RECORDED
    if who.startswith(("seat ", "box ")):
        return f"{f.table or NOT_RECORDED} {who}"
    return who


def money_summary(findings: list[Finding]) -> MoneySummary | None:
    """The money of the reported findings; None when no finding has any."""
    counted = [f for f in findings if f.money is not None and f.money.sums is None]
    if not counted:
        return None
    by_currency: dict[str | None, list[Finding]] = {}
    for f in counted:
        by_currency.setdefault(f.money.currency, []).append(f)
    if len(by_currency) > 1:
        return MoneySummary(None, None, currencies={
            str(c): _summary(c, fs) for c, fs in sorted(by_currency.items(), key=lambda kv: str(kv[0]))})
    (currency, fs), = by_currency.items()
    return _summary(currency, fs)


def _summary(currency: str | None, findings: list[Finding]) -> MoneySummary:
    s = MoneySummary(currency, MoneyTotal())
    for f in findings:
        gain = f.money.gain
        s.total.add(gain)
        for group, key in ((s.table, f.table or NOT_RECORDED), (s.dealer, f.dealer or NOT_RECORDED),
                           (s.hour, hour_of(f.at) or NOT_RECORDED), (s.patron, patron_key(f))):
            total = group.get(key)
            if total is None:
                total = group[key] = MoneyTotal()
            total.add(gain)
    for name in ("table", "dealer", "hour", "patron"):
        setattr(s, name, dict(sorted(getattr(s, name).items(), key=lambda kv: (kv[0] == NOT_RECORDED, kv[0]))))
    return s
