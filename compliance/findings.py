"""Findings: one breach of one rule, where it happened and what it cites."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal

from compliance.categories import SEVERITY_RANK

_UNREADABLE = "transcript.unreadable"

#: the context money is added, subtracted and multiplied in: 400 digits, where the default keeps 28, so that every
#: sum of amounts a transcript may hold (below 1E+40, to 28 places: compliance.figures.money_figure), and their
#: products with odds and commission rates (28 digits each), is exact.  The engine checks each transcript in it.
MONEY = Context(prec=400, Emax=MAX_EMAX, Emin=MIN_EMIN)


def fingerprint(rule: str, category: str, transcript: str, coup: int | None, event: int | None, message: str) -> str:
    """The key a baseline knows a finding by: its logical identity and the facts it judged.

    The identity is the rule, the category, the transcript (its path as
    reported), the coup and the event; the facts are the message, which
    names the amounts, cards, seats and calls the finding is about.  So a
    finding whose payout amount changes is a new finding, and a baseline
    never hides a finding it does not hold.  The line is left out (editing a
    transcript elsewhere moves it), except for an unreadable coup without a
    number, which has no other identity: its message names its line.  An
    unreadable coup with a number is known by its number, not its line.
    """
    facts = message
    if category == _UNREADABLE and coup is not None:
        facts = re.sub(r"^coup cannot be read \(" + re.escape(transcript) + r":\d+\): ", "coup cannot be read: ", facts)
    key = "\x1f".join(str(x) for x in (rule, category, transcript, coup, event, facts))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Statistic:
    """One test a finding on a whole shoe or run of shoes rests on (the ``integrity.*`` categories): what it
    judged, the test and its statistic's value, the chance of a value as extreme under fair play (a p-value, or
    a bound on it), the level at which it is decisive, and the first coup from which it was."""

    group: str  # what was judged: "shoe S0003 (table T1)", "table T1", "dealer D-07", "the run"
    test: str  # the test, in words
    statistic: str  # what is measured
    value: str  # its value
    p_value: str  # chance under fair play, written "0.00012" or "<= 3.1e-640" (a bound)
    threshold: str  # decisive at or below this
    decisive_coup: int  # the first coup at which the test was decisive

    def as_dict(self) -> dict:
        return {"group": self.group, "test": self.test, "statistic": self.statistic, "value": self.value,
                "p_value": self.p_value, "threshold": self.threshold, "decisive_coup": self.decisive_coup}


def amount_text(amount: Decimal) -> str:
    """An exact amount as the machine-readable reports write it: a plain decimal string, no exponent, no
    trailing zeros, no sign on zero ("950", "12.5", "-100", "0")."""
    if not amount:
        return "0"
    text = f"{amount:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


@dataclass(frozen=True, slots=True)
class Money:
    """What a wrong settlement was worth, exact (``Decimal``), as the check worked it out from the replayed coup.

    ``expected`` and ``paid`` are values to the patron: winnings paid count plus, a stake or a commission
    collected counts minus, a push nothing.  So ``paid - expected`` is what the patron got beyond what was due
    (negative: what the house kept beyond it), whatever the mistake was (a wrong payout, a loss collected short,
    commission not collected or collected when none was owed, a wager settled twice or never).  A finding that
    sums other findings' settlements (``integrity.settlement-drift``) gives the totals and ``sums``, the number
    of settlements it rests on; the report's money counts it no second time."""

    expected: Decimal
    paid: Decimal
    currency: str | None = None  # the table's currency (its header's table.currency), where recorded
    patron: str | None = None  # who the settlement was with: the patron's id where recorded, else "seat N"
    sums: int | None = None  # a finding over many settlements: how many

    @property
    def gain(self) -> Decimal:
        """The patron's gain beyond what was due: the signed difference (negative: the house's)."""
        return MONEY.subtract(self.paid, self.expected)

    @property
    def favours(self) -> str:
        gain = self.gain
        return "patron" if gain > 0 else "house" if gain < 0 else "neither"

    def as_dict(self) -> dict:
        out = {"expected": amount_text(self.expected), "paid": amount_text(self.paid),
               "difference": amount_text(abs(self.gain)), "favours": self.favours, "currency": self.currency}
        if self.patron is not None:
            out["patron"] = self.patron
        if self.sums is not None:
            out["sums"] = self.sums
        return out


_DIGITS = re.compile(r"(\d+)")


def _in_number_order(message: str) -> tuple:
    """A message's sort key with its numbers as numbers: rows of a log at lines 9, 10 and 100 in that order."""
    parts = _DIGITS.split(message)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts))


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    category: str
    severity: str
    transcript: str
    coup: int | None
    event: int | None
    message: str
    citation: str
    line: int | None = None
    column: int | None = None
    table: str | None = None
    staff: tuple[tuple[str, str], ...] = ()  # who ran the table in the coup, where recorded: (role, name) pairs
    at: str | None = None  # the event's timestamp (else the coup's first), where recorded
    statistics: tuple[Statistic, ...] | None = None  # integrity findings: the tests they rest on
    money: Money | None = None  # settlement findings (and integrity findings with an amount): what it was worth

    @property
    def dealer(self) -> str | None:
        return next((name for role, name in self.staff if role == "dealer"), None)

    @property
    def fingerprint(self) -> str:
        """What the finding is, wherever its line moves: see :func:`fingerprint`."""
        return fingerprint(self.rule, self.category, self.transcript, self.coup, self.event, self.message)

    def sort_key(self):
        return (
            self.coup if self.coup is not None else -1,
            self.event if self.event is not None else -1,
            -SEVERITY_RANK[self.severity],
            self.rule,
            (self.message,) if self.event is not None else _in_number_order(self.message),
        )

    def as_dict(self) -> dict:
        return {
            "rule": self.rule,
            "category": self.category,
            "severity": self.severity,
            "transcript": self.transcript,
            "coup": self.coup,
            "event": self.event,
            "message": self.message,
            "citation": self.citation,
            "line": self.line,
            "column": self.column,
            "fingerprint": self.fingerprint,
        } | self.recorded_context() | self.tested() | self.valued()

    def valued(self) -> dict:
        """What a settlement finding was worth: the key only on a finding with an amount."""
        return {} if self.money is None else {"money": self.money.as_dict()}

    def tested(self) -> dict:
        """The tests an integrity finding rests on: the key only on such a finding."""
        return {} if self.statistics is None else {"statistics": [s.as_dict() for s in self.statistics]}

    def recorded_context(self) -> dict:
        """Who and when, where the transcript records them (format 1.1): keys only when there is a value."""
        out: dict = {}
        if self.staff:
            out["staff"] = dict(self.staff)
        if self.at is not None:
            out["at"] = self.at
        return out
