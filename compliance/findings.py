"""Findings: one breach of one rule, where it happened and what it cites."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from compliance.categories import SEVERITY_RANK


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

    @property
    def fingerprint(self) -> str:
        """Stable logical key: same breach, same fingerprint, wherever its line moves."""
        key = "\x1f".join(str(x) for x in (self.rule, self.category, self.transcript, self.table, self.coup, self.event))
        return hashlib.sha256(key.encode()).hexdigest()[:32]

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
        }
