"""Findings: one breach of one rule, where it happened and what it cites."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from compliance.categories import SEVERITY_RANK

_UNREADABLE = "transcript.unreadable"


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
            self.message,
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
        } | self.recorded_context() | self.tested()

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
