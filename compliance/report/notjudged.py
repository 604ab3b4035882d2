"""The rules of a transcript not judged for want of evidence, each with the coups and the evidence it lacked.

:func:`not_judged` reads a transcript's result; every report format says the verdict rests on partial
evidence where one is listed (docs/architecture.md, "Where each kind of change goes").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from compliance import evidence as evidence_words
from compliance.report.wording import plural

if TYPE_CHECKING:
    from compliance.engine import TranscriptResult
    from compliance.ruleset.models import BoundRule


@dataclass
class NotJudged:
    """A rule of a transcript's ruleset that was not judged in some (or all) of its coups: the evidence it needs
    was not recorded there."""

    transcript: str
    rule: BoundRule
    coups: int  # coups the rule was not judged in
    of: int  # coups of the transcript that could be read
    missing: dict[str, int]  # evidence -> coups that lacked it, in the order of compliance.evidence.EVIDENCE

    @property
    def reason(self) -> str:
        """"calls not recorded"; where coups lack different evidence, each with its coups."""
        by_count: dict[int, list[str]] = {}
        for name, n in self.missing.items():
            by_count.setdefault(n, []).append(name)
        if len(by_count) == 1:
            return evidence_words.reason(tuple(self.missing))
        parts = []
        for n, names in sorted(by_count.items(), key=lambda kv: -kv[0]):
            count = "every coup" if n == self.of else plural(n, "coup")
            parts.append(f"{evidence_words.reason(tuple(names))} ({count})")
        return "; ".join(parts)

    @property
    def extent(self) -> str:
        """"in every coup (120)", "in 3 of 120 coups"."""
        if self.coups == self.of:
            return f"in every coup ({self.of:,})" if self.of != 1 else "in its one coup"
        return f"in {self.coups:,} of {plural(self.of, 'coup')}"


def not_judged(result: TranscriptResult) -> list[NotJudged]:
    """The rules of a transcript not judged for want of evidence, in the order of its ruleset."""
    by_rule: dict[str, dict[tuple, int]] = {}
    for (rule_id, lacking), n in result.not_judged.items():
        by_rule.setdefault(rule_id, {})[lacking] = n
    out = []
    order = list(evidence_words.EVIDENCE)
    for rule in result.ruleset.rules:
        found = by_rule.get(rule.id)
        if not found:
            continue
        missing: dict[str, int] = {}
        for lacking, n in found.items():
            for name in lacking:
                missing[name] = missing.get(name, 0) + n
        missing = {name: missing[name] for name in sorted(missing, key=order.index)}
        out.append(NotJudged(result.transcript, rule, sum(found.values()), result.coups - result.unreadable, missing))
    return out
