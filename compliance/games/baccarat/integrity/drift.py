"""Systematic settlement drift: a table's or dealer's wrong settlements that run one way.

Every wrong settlement is signed by what the patron gained over what was due, and each table's and
dealer's errors are put to an exact sign test (:func:`compliance.stats.sign_test`); the finding gives
the net amount, exact, and the kind of error that dominates.

How each error is signed, and the test's false-alarm rate: docs/integrity.md, "3. Settlement drift".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from compliance.stats import sign_test

KIND_WORDS = {"commission": "commission not deducted or collected wrong", "payout": "a win or push paid wrong",
              "collection": "a losing wager collected wrong", "no wager": "a wager that did not stand settled"}


@dataclass
class Error:
    place: object  # where it was: (result, shoe record, coup index)
    gain: Decimal
    kind: str
    expected: Decimal = Decimal(0)  # what was due, as its value to the patron (findings.Money)


@dataclass
class DriftGroup:
    kind: str  # table or dealer
    name: str
    rule: object
    errors: list[Error] = field(default_factory=list)

    def judge(self, alpha: float, min_errors: int) -> tuple[Fraction, Error] | None:
        """(final p-value, the error at which the running sign test first fell to ``alpha``), or None."""
        signed = [e for e in self.errors if e.gain]
        up = sum(1 for e in signed if e.gain > 0)
        if len(signed) < min_errors or sign_test(up, len(signed)) > Fraction(alpha):
            return None
        ups = n = 0
        for e in signed:
            n += 1
            ups += e.gain > 0
            if n >= min_errors and sign_test(ups, n) <= Fraction(alpha):
                return sign_test(up, len(signed)), e
        return None  # not reached: the whole run is itself a prefix

    @property
    def net(self) -> Decimal:
        return sum((e.gain for e in self.errors), Decimal(0))

    @property
    def expected(self) -> Decimal:
        """What the wrong settlements were due, together (their values to the patrons)."""
        return sum((e.expected for e in self.errors), Decimal(0))

    def counts(self) -> tuple[int, int, int]:
        """(in the patrons' favour, in the house's, neither)."""
        up = sum(1 for e in self.errors if e.gain > 0)
        down = sum(1 for e in self.errors if e.gain < 0)
        return up, down, len(self.errors) - up - down

    def main_kind(self) -> tuple[str, int]:
        kind, n = Counter(e.kind for e in self.errors).most_common(1)[0]
        return kind, n
