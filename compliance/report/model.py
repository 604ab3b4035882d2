"""The report of a run: what every renderer formats (renderers compute nothing)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from compliance import __version__
from compliance.categories import CATEGORIES, SEVERITIES, SEVERITY_RANK
from compliance.engine import TranscriptResult
from compliance.findings import Finding

SCHEMA_VERSION = "1.0"


@dataclass
class Report:
    results: list[TranscriptResult]
    fail_on: str = "error"
    errors: list[str] = field(default_factory=list)  # files that could not be checked (exit 2)
    tool_version: str = __version__

    def __post_init__(self):
        self.findings: list[Finding] = [f for r in self.results for f in r.findings]
        self.by_severity = Counter(f.severity for f in self.findings)
        self.by_category = Counter(f.category for f in self.findings)
        self.coups = sum(r.coups for r in self.results)
        self.per_transcript = [
            (r, Counter(f.severity for f in r.findings), Counter(f.category for f in r.findings)) for r in self.results
        ]
        threshold = SEVERITY_RANK[self.fail_on]
        self.failing = sum(1 for f in self.findings if SEVERITY_RANK[f.severity] >= threshold)

    @property
    def exit_code(self) -> int:
        if self.errors:
            return 2
        return 1 if self.failing else 0

    def summary_line(self) -> str:
        n = len(self.results)
        parts = ", ".join(f"{self.by_severity[s]} {s}" for s in SEVERITIES if self.by_severity[s])
        text = (f"checked {n} transcript{'s' if n != 1 else ''}, {self.coups:,} coup{'s' if self.coups != 1 else ''}, "
                f"{len(self.findings):,} finding{'s' if len(self.findings) != 1 else ''}")
        if parts:
            text += f": {parts}"
        if self.errors:
            text += f"; {len(self.errors)} file{'s' if len(self.errors) != 1 else ''} could not be checked"
        return text

    def category_counts(self) -> dict[str, int]:
        return {c: self.by_category[c] for c in CATEGORIES if self.by_category[c]}
