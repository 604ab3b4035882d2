"""The auditor's terminal report: a rich table per transcript, grouped by coup.

On a terminal (and without ``NO_COLOR``) it draws rich tables; otherwise it
prints one plain line a finding, ``file:line:column: severity rule [category]
message (citation)``, which CI logs and editors understand.  Both end with
the rulesets the run judged by (id, version and content hash) and the
summary line.

Every string from the input (file names, table ids, messages quoting the
transcript, waivers) goes through :func:`compliance.printable.printable`:
no control or bidirectional character reaches the terminal or the CI log,
so no string can forge a line, a colour or a workflow command.
"""

from __future__ import annotations

import io
import shutil
from typing import TYPE_CHECKING

from compliance.printable import printable, safe_line
from compliance.report.model import Report
from compliance.report.notjudged import NotJudged

if TYPE_CHECKING:
    from rich.table import Table

    from compliance.findings import Finding

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def plain_line(f: Finding, severity: str | None = None) -> str:
    """``file:line:column: severity RULE [category] coup N event M: message (citation)``, safe to print."""
    where = f.transcript
    if f.line is not None:
        where += f":{f.line}:{f.column}"
    coup = f"coup {f.coup}" if f.coup is not None else "coup ?"
    event = f" event {f.event}" if f.event is not None else ""
    text = f"{where}: {severity or f.severity} {f.rule} [{f.category}] {coup}{event}: {f.message}"
    return safe_line(text + (f" ({f.citation})" if f.citation else ""))


def not_judged_line(nj: NotJudged) -> str:
    """``transcript: not judged RULE [category] in every coup (30): calls not recorded (citation)``."""
    text = f"{nj.transcript}: not judged {nj.rule.id} [{nj.rule.category}] {nj.extent}: {nj.reason}"
    return safe_line(text + (f" ({nj.rule.citation_text})" if nj.rule.citation_text else ""))


def render_plain(report: Report, errors: bool = True, quiet: bool = False) -> str:
    """One line a finding; then, unless ``quiet``, waived findings, the rules not judged, warnings, notes,
    the inputs that could not be checked (unless ``errors`` is false: on standard output they are left out,
    standard error has said each once) and the summary."""
    out = io.StringIO()
    for f in report.findings:
        out.write(plain_line(f) + "\n")
    if quiet:
        return out.getvalue()
    for f, e in report.waived:
        out.write(plain_line(f, f"waived {f.severity}") + safe_line(f" [waiver {e.key}]") + "\n")
    for nj in report.not_judged:
        out.write(not_judged_line(nj) + "\n")
    for warning in report.warnings():
        out.write(safe_line(f"warning: {warning}") + "\n")
    for notice in report.notices():
        out.write(safe_line(f"note: {notice}") + "\n")
    for e in report.errors if errors else ():
        out.write(safe_line(f"error: {e}") + "\n")
    hold = report.hold_line()
    if hold is not None:
        out.write(safe_line(hold) + "\n")
    for line in report.judged_by() + report.configured():
        out.write(safe_line(line) + "\n")
    out.write(report.summary_line() + "\n")
    return out.getvalue()


NARROW = 120  # columns: below this the terminal report folds the severity and the citation into other columns


def rich_renderables(report: Report, errors: bool = True, quiet: bool = False, width: int = NARROW):
    from rich.console import Group  # only the terminal's report needs rich (the plain lines do not)
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    narrow = width < NARROW
    parts = []
    for view in report.transcripts:
        r = view.result
        title = Text.assemble((printable(r.transcript), "bold"),
                              printable(f"  table {r.table}  ruleset {r.ruleset.id} {r.ruleset.version}  "),
                              (f"{r.coups:,} coups", "dim"))
        hidden = []
        if view.waived:
            hidden.append(f"{len(view.waived):,} waived")
        if view.baselined:
            hidden.append(f"{view.baselined:,} in the baseline")
        subtitle = Text(", ".join(hidden), style="dim") if hidden else None
        if not view.findings and not view.waived:
            if quiet:
                continue
            parts.append(Panel(Text("no findings", style="green"), title=title, title_align="left",
                               subtitle=subtitle, subtitle_align="left"))
            continue
        table = Table(show_lines=False, expand=True, pad_edge=False)
        if narrow:  # an 80-column terminal: severity under the rule, the citation under the message
            table.add_column("coup", justify="right", no_wrap=True)
            table.add_column("ev", justify="right", no_wrap=True)
            table.add_column("rule", no_wrap=True)
            table.add_column("what happened / what the rule requires (regulation)", ratio=1)
        else:
            table.add_column("coup", justify="right", no_wrap=True)
            table.add_column("event", justify="right", no_wrap=True)
            table.add_column("rule", no_wrap=True)
            table.add_column("severity", no_wrap=True)
            table.add_column("what happened / what the rule requires", ratio=3)
            table.add_column("citation", ratio=1)
        start = last = object()
        rows = [(f, None) for f in view.findings] + view.waived  # waived ones last, dimmed
        for f, waiver in rows:
            if (f.coup != last or waiver is not None) and last is not start:
                table.add_section()
            coup = "" if f.coup == last and waiver is None else ("?" if f.coup is None else str(f.coup))
            last = f.coup if waiver is None else start
            severity = Text(f.severity, style=STYLE[f.severity])
            message = Text(printable(f.message))  # a Text, never markup: messages quote keys such as "[/b]"
            if waiver is not None:
                severity = Text(f"waived {f.severity}", style="dim")
                message = Text.assemble((printable(f.message), "dim"), "\n",
                                        (printable(waiver.describe()), "dim italic"))
            rule = Text.assemble(printable(f.rule), "\n", (f.category, "dim"))
            event = "" if f.event is None else str(f.event)
            if narrow:
                table.add_row(coup, event, Text.assemble(rule, "\n", severity),
                              Text.assemble(message, "\n", (printable(f.citation), "dim")) if f.citation else message)
            else:
                table.add_row(coup, event, rule, severity, message, Text(printable(f.citation), style="dim"))
        parts.append(Panel(table, title=title, title_align="left", subtitle=subtitle, subtitle_align="left"))
    if quiet:
        return Group(*parts)
    for view in report.transcripts:
        if view.not_judged:
            parts.append(_not_judged_table(view))
    for warning in report.warnings():
        parts.append(Text(printable(f"warning: {warning}"), style="bold yellow"))
    for notice in report.notices():
        parts.append(Text(printable(f"note: {notice}"), style="yellow"))
    for e in report.errors if errors else ():
        parts.append(Text(printable(f"error: {e}"), style="bold red"))
    hold = report.hold_line()
    if hold is not None:
        parts.append(Text(printable(hold)))
    for line in report.judged_by() + report.configured():
        parts.append(Text(printable(line), style="dim"))
    parts.append(Text(report.summary_line(), style="bold"))
    return Group(*parts)


def _not_judged_table(view) -> Table:
    """The rules of a transcript not judged for want of evidence, and why."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=printable(f"{view.result.transcript}: rules not judged (the evidence they need was not "
                                  "recorded)"), title_justify="left", expand=True, pad_edge=False)
    table.add_column("rule", no_wrap=True)
    table.add_column("not judged", no_wrap=True)
    table.add_column("why", ratio=3)
    table.add_column("citation", ratio=1)
    for nj in view.not_judged:
        table.add_row(Text.assemble(printable(nj.rule.id), "\n", (nj.rule.category, "dim")), nj.extent,
                      Text(nj.reason), Text(printable(nj.rule.citation_text), style="dim"))
    return table


def render_rich(report: Report, width: int | None = None, errors: bool = True, quiet: bool = False) -> str:
    """The tables at ``width`` columns, by default the terminal's (``COLUMNS`` if set)."""
    from rich.console import Console

    width = width or shutil.get_terminal_size().columns
    console = Console(record=True, width=width, force_terminal=True, file=io.StringIO())
    console.print(rich_renderables(report, errors, quiet, width))
    return console.export_text(styles=True)


def render_statistics(report: Report) -> str:
    """``--statistics``: the reported findings counted by rule, the most frequent first; then the net of the wrong
    settlements, where a finding has money."""
    rows = [(f"{c.count:,}", f"{c.coups:,}", c.rule, c.category, c.severity, c.title) for c in report.statistics()]
    if not rows:
        return "no findings\n"
    net = "" if report.money is None else f"money: {safe_line(report.money.net_words())}\n"
    head = ("findings", "coups", "rule", "category", "severity", "title")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = []
    for r in [head, *rows]:
        cells = [r[0].rjust(widths[0]), r[1].rjust(widths[1])] + [r[i].ljust(widths[i]) for i in range(2, 5)] + [r[5]]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n" + net
