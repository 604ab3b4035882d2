"""Markdown, for a pull request comment: the summary, a table of findings, waivers and notices.

Pull request comments are limited in size (GitHub: 65,536 characters), so
the table shows the first ``MAX_ROWS`` findings and says how many more there are.
"""

from __future__ import annotations

from compliance.categories import SEVERITIES
from compliance.findings import Finding
from compliance.report.model import Report

MAX_ROWS = 200
MARK = {"error": "🔴 error", "warning": "🟠 warning", "info": "🔵 info"}


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _where(f: Finding) -> str:
    return f"`{f.transcript}:{f.line}`" if f.line is not None else f"`{f.transcript}`"


def _row(f: Finding, severity: str) -> str:
    coup = "?" if f.coup is None else str(f.coup)
    return (f"| {severity} | {_where(f)} | {coup} | `{f.rule}`<br>{f.category} | {_cell(f.message)} | "
            f"{_cell(f.citation)} |")


def _table(rows: list[str], total: int) -> list[str]:
    """The table of the first ``MAX_ROWS`` of ``total`` findings (``rows``: those, already cut)."""
    head = ["| severity | where | coup | rule | what happened | regulation |", "|---|---|---:|---|---|---|"]
    out = head + rows
    if total > MAX_ROWS:
        out.append(f"\n… and {total - MAX_ROWS:,} more (see the full report).")
    return out


def render(report: Report) -> str:
    status = "✅ compliant" if not report.findings and not report.errors else (
        "❌ fails" if report.exit_code else "⚠️ findings below the failing severity")
    lines = [f"### baccarat-audit: {status}", "", report.summary_line() + ".", ""]
    lines += ["| transcript | table | ruleset | coups | " + " | ".join(SEVERITIES) + " | waived |",
              "|---|---|---|---:|" + "---:|" * len(SEVERITIES) + "---:|"]
    for t in report.transcripts:
        r = t.result
        counts = " | ".join(str(t.by_severity[s]) for s in SEVERITIES)
        lines.append(f"| `{_cell(r.transcript)}` | {_cell(r.table)} | {r.ruleset.id} {r.ruleset.version} | "
                     f"{r.coups:,} | {counts} | {len(t.waived)} |")
    if report.findings:
        lines += ["", "#### Findings", ""]
        lines += _table([_row(f, MARK[f.severity]) for f in report.findings[:MAX_ROWS]], len(report.findings))
    if report.waived:
        lines += ["", f"<details><summary>{len(report.waived):,} waived</summary>", ""]
        lines += _table([_row(f, f"waived ({e.key})") for f, e in report.waived[:MAX_ROWS]], len(report.waived))
        lines += ["", "</details>"]
    notices = report.notices() + [f"could not check {e}" for e in report.errors]
    if notices:
        lines += ["", "#### Notes", ""] + [f"* {_cell(n)}" for n in notices]
    lines += ["", f"<sub>baccarat-audit {report.tool_version}, fail on {report.fail_on}, "
                  f"{report.generated_iso}</sub>"]
    return "\n".join(lines) + "\n"
