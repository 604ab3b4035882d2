"""GitLab Code Quality (a CodeClimate subset): the findings as merge-request widget entries.

A JSON array; each finding is an issue with ``description``, ``check_name``
(the rule), ``fingerprint``, ``severity`` and ``location`` (the file and its
line; a Markdown block's findings point at the document).  Severities map to
Code Quality's: error ``critical``, warning ``major``, info ``info``.  GitLab
needs each fingerprint to be unique: the finding's own (rule, category,
transcript, table, coup, event) is, unless two findings of one rule share an
event, which then get the same key with their number among those.  A transcript
judged on partial evidence (rules not judged for want of evidence) adds one ``info``
entry, ``check_name`` ``not-judged``, saying which rules and why.
"""

from __future__ import annotations

import hashlib
import json

from compliance.printable import json_safe
from compliance.report.model import Report

SEVERITY = {"error": "critical", "warning": "major", "info": "info"}


def document(report: Report) -> list[dict]:
    seen: dict[str, int] = {}
    issues = []
    for f in report.findings:
        n = seen[f.fingerprint] = seen.get(f.fingerprint, 0) + 1
        fingerprint = f.fingerprint if n == 1 else hashlib.sha256(f"{f.fingerprint}:{n}".encode()).hexdigest()[:32]
        coup = f"coup {f.coup}" if f.coup is not None else "coup ?"
        event = f" event {f.event}" if f.event is not None else ""
        cite = f" ({f.citation})" if f.citation else ""
        issues.append({
            "check_name": f.rule,
            "description": f"{f.rule} [{f.category}] {coup}{event}: {f.message}{cite}",
            "fingerprint": fingerprint,
            "severity": SEVERITY[f.severity],
            "location": {"path": f.transcript.split("#L", 1)[0], "lines": {"begin": f.line or 1}},
        })
    for view in report.transcripts:  # a transcript judged on partial evidence: one info entry, never nothing
        if view.not_judged:
            issues.append({
                "check_name": "not-judged",
                "description": report.transcript_partial(view),
                "fingerprint": hashlib.sha256(f"not-judged:{view.result.transcript}".encode()).hexdigest()[:32],
                "severity": "info",
                "location": {"path": view.document, "lines": {"begin": 1}},
            })
        if view.result.versions:  # a ruleset with a history: the versions that judged its coups
            lines = [line for line in report.versions_applied() if line.startswith(f"{view.result.transcript}: ")]
            issues.append({
                "check_name": "rules-in-force",
                "description": "; ".join(lines),
                "fingerprint": hashlib.sha256(f"rules-in-force:{view.result.transcript}".encode()).hexdigest()[:32],
                "severity": "info",
                "location": {"path": view.document, "lines": {"begin": 1}},
            })
    return issues


def render(report: Report) -> str:
    return json_safe(json.dumps(document(report), indent=2, ensure_ascii=False)) + "\n"
