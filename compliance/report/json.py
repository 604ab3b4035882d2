"""The JSON report: the spec's contract (``findings``) plus run metadata."""

from __future__ import annotations

import json

from compliance.categories import SEVERITIES
from compliance.report.model import SCHEMA_VERSION, Report


def render(report: Report) -> str:
    doc = {
        "schema_version": SCHEMA_VERSION,
        "tool": "baccarat-audit",
        "tool_version": report.tool_version,
        "findings": [f.as_dict() for f in report.findings],
        "transcripts": [
            {
                "transcript": r.transcript,
                "table": r.table,
                "jurisdiction": r.jurisdiction,
                "game": r.game,
                "ruleset": {"id": r.ruleset.id, "version": r.ruleset.version},
                "sha256": r.sha256,
                "coups": r.coups,
                "unreadable_coups": r.unreadable,
                "findings": {s: sev[s] for s in SEVERITIES},
                "categories": {c: n for c, n in sorted(cat.items())},
            }
            for r, sev, cat in report.per_transcript
        ],
        "counts": {
            "transcripts": len(report.results),
            "coups": report.coups,
            "findings": len(report.findings),
            "severities": {s: report.by_severity[s] for s in SEVERITIES},
            "categories": report.category_counts(),
        },
        "errors": report.errors,
        "fail_on": report.fail_on,
        "exit_code": report.exit_code,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
