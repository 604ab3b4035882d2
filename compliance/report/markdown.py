"""Markdown, for a pull request comment: the summary, a table of findings, waivers and notices.

:func:`render` formats a :class:`~compliance.report.model.Report`; the table shows the
first :data:`MAX_ROWS` findings (a comment is limited in size) and says how many more.
Strings from the input cannot change the document's structure: they are made printable,
HTML-escaped and markup-escaped, and names shown as code are fenced past their backticks.

Why: docs/security.md, "Defences and their tests" and "In more detail".
"""

from __future__ import annotations

import re
from decimal import Decimal

from compliance.categories import SEVERITIES
from compliance.findings import Finding
from compliance.games.common import money
from compliance.printable import printable
from compliance.report.digest import TimeFold
from compliance.report.hold import hold_percent
from compliance.report.model import Report
from compliance.report.money import MONEY_GROUPS, MoneySummary, money_words

MAX_ROWS = 200
MARK = {"error": "🔴 error", "warning": "🟠 warning", "info": "🔵 info"}

_MARKUP = re.compile(r"([\\`*_\[\]~|@])")
_BLOCK_START = re.compile(r"^(\d+)([.)])|^([-+=#])")  # would start a list or a heading in a list item
_TICKS = re.compile(r"`+")


def _cell(text: str) -> str:
    """Text for a table cell or a list item: one line, no HTML, no markup."""
    text = printable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKUP.sub(r"\\\1", text)


def _item(text: str) -> str:
    """Text after a list item's ``* ``: a cell that cannot open a nested list either."""
    return _BLOCK_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", _cell(text), count=1)


def _code(text: str) -> str:
    """A name as an inline code span in a table cell: one line, its pipes escaped (GitHub tables), fenced by
    more backticks than any run of them in it."""
    text = printable(text).replace("|", "\\|")
    fence = "`" * (max((len(m) for m in _TICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _where(f: Finding) -> str:
    return _code(f"{f.transcript}:{f.line}") if f.line is not None else _code(f.transcript)


def _row(f: Finding, severity: str) -> str:
    coup = "?" if f.coup is None else str(f.coup)
    what = _cell(f.message) + (f"<br>💰 {_cell(money_words(f.money))}" if f.money is not None else "")
    return (f"| {severity} | {_where(f)} | {coup} | {_code(f.rule)}<br>{_cell(f.category)} | {what} | "
            f"{_cell(f.citation)} |")


def _money(summary: MoneySummary, time: TimeFold | None = None) -> list[str]:
    """The wrong settlements' money: net, each way, and by table, dealer and hour (patrons: in the full report);
    by the day, month or year where the report's time view folds the hours (``time``)."""
    if summary.currencies is not None:
        return [line for one in summary.currencies.values() for line in _money(one, time)]
    unit = f" ({_cell(summary.currency)})" if summary.currency else ""
    t = summary.total
    words = _cell(summary.net_words())
    total = (f"{words[:1].upper()}{words[1:]}: {money(t.to_patrons)} to patrons, {money(t.to_house)} to the house, "
             f"over {t.findings:,} finding{'' if t.findings == 1 else 's'}.")
    out = ["", f"#### Money{unit}", "", total, "",
           "| by | who | findings | to patrons | to the house | net |", "|---|---|---:|---:|---:|---:|"]
    rows = []
    for name, title in MONEY_GROUPS:
        if name == "patron":
            continue
        group = getattr(summary, name)
        if name == "hour" and time is not None and time.folded:
            title, group = time.unit, time.money(group)
        rows += [f"| {title} | {_cell(key)} | {g.findings:,} | {money(g.to_patrons)} | {money(g.to_house)} | "
                 f"{money(g.net)} |" for key, g in group.items()]
    return out + _table_rows(rows)


def _hold(view) -> list[str]:
    """Hold against theory: one row a group (outside the band: marked, with which way)."""
    level = f"{view.confidence * 100:g}%"
    shifts = ", ".join(view.shifts) if view.shifts else "none (the day from midnight)"
    zone = view.time_zone or "each time at its recorded offset"
    out = ["", "#### Hold against theory", "",
           f"Shifts {_cell(shifts)}; time zone {_cell(zone)}; band at {level}; findings where a group survives "
           f"Benjamini-Hochberg at {view.false_discovery_rate:g}.", ""]
    if view.groups:
        out += ["| group | coups | handle | win | theoretical win | hold | theoretical hold | band | z | p | |",
                "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
        rows = []
        for g in view.groups:
            mark = (("🔵 finding: " if g.flagged else "outside: ") + g.direction if g.outside else
                    "" if g.judged else "too few coups to judge")
            unit = f" {_cell(g.currency)}" if g.currency else ""
            rows.append(f"| {_cell(g.name)} | {g.coups:,} | {money(g.handle)}{unit} | {money(g.win)} | "
                        f"{money(g.theoretical_win.quantize(Decimal('0.01')))} | {hold_percent(g.hold)} | "
                        f"{hold_percent(g.theoretical_hold)} | {hold_percent(g.low)} to {hold_percent(g.high)} | "
                        f"{g.z:.2f} | {g.p_value:.2g} | {mark} |")
        out += _table_rows(rows)
    out += [f"\nNot judged: table {_cell(t)}: {_cell(why)}." for t, why in view.not_judged]
    return out


def _table_rows(rows: list[str]) -> list[str]:
    return rows[:MAX_ROWS] + ([f"\n… and {len(rows) - MAX_ROWS:,} more (see the full report)."]
                              if len(rows) > MAX_ROWS else [])


def _table(rows: list[str], total: int) -> list[str]:
    """The table of the first ``MAX_ROWS`` of ``total`` findings (``rows``: those, already cut)."""
    head = ["| severity | where | coup | rule | what happened | regulation |", "|---|---|---:|---|---|---|"]
    out = head + rows
    if total > MAX_ROWS:
        out.append(f"\n… and {total - MAX_ROWS:,} more (see the full report).")
    return out


def render(report: Report) -> str:
    partial = report.partial_evidence()
    status = ("❌ fails" if report.exit_code else
              f"⚠️ no finding, on partial evidence ({report.rules_not_judged:,} not judged)" if partial
              and not report.findings else "✅ compliant" if not report.findings else
              "⚠️ findings below the failing severity")
    lines = [f"### baccarat-audit: {status}", "", report.summary_line() + ".", ""]
    if partial:
        lines[-1:] = ["", f"**{partial[0].upper() + partial[1:]}** (see *Not judged*).", ""]
    lines += ["| transcript | table | ruleset | coups | " + " | ".join(SEVERITIES) + " | waived |",
              "|---|---|---|---:|" + "---:|" * len(SEVERITIES) + "---:|"]
    for t in report.transcripts:
        r = t.result
        counts = " | ".join(str(t.by_severity[s]) for s in SEVERITIES)
        lines.append(f"| {_code(r.transcript)} | {_cell(r.table)} | {_cell(f'{r.ruleset.id} {r.ruleset.version}')} | "
                     f"{r.coups:,} | {counts} | {len(t.waived)} |")
    if report.rulesets:
        lines += [""] + [f"Judged by {_cell(line)}." for line in report.judged_by()]
    lines += [f"\n{_cell(line[0].upper() + line[1:])}." for line in report.configured()]
    if report.money is not None:
        lines += _money(report.money, report.time)
    if report.hold is not None:
        lines += _hold(report.hold)
    if report.findings:
        lines += ["", "#### Findings", ""]
        lines += _table([_row(f, MARK[f.severity]) for f in report.findings[:MAX_ROWS]], len(report.findings))
    if report.waived:
        lines += ["", f"<details><summary>{len(report.waived):,} waived</summary>", ""]
        lines += _table([_row(f, f"waived ({_cell(e.key)})") for f, e in report.waived[:MAX_ROWS]],
                        len(report.waived))
        lines += ["", "</details>"]
    if report.not_judged:
        lines += ["", "#### Not judged", "",
                  "Rules that gave no finding because the evidence they need was not recorded.", "",
                  "| transcript | rule | not judged | why | regulation |", "|---|---|---|---|---|"]
        lines += [f"| `{_cell(nj.transcript)}` | `{nj.rule.id}`<br>{nj.rule.category} | {_cell(nj.extent)} | "
                  f"{_cell(nj.reason)} | {_cell(nj.rule.citation_text)} |" for nj in report.not_judged[:MAX_ROWS]]
        if len(report.not_judged) > MAX_ROWS:
            lines.append(f"\n… and {len(report.not_judged) - MAX_ROWS:,} more (see the full report).")
    notices = ([f"warning: {w}" for w in report.warnings()] + report.notices()
               + [f"could not check {e}" for e in report.errors])
    if notices:
        lines += ["", "#### Notes", ""] + [f"* {_item(n)}" for n in notices]
    lines += ["", f"<sub>baccarat-audit {report.tool_version}, fail on {report.fail_on}, "
                  f"{report.generated_iso}</sub>"]
    return "\n".join(lines) + "\n"
