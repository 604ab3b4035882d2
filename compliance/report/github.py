"""GitHub Actions workflow commands: one annotation a finding, shown on the file in the pull request.

    ::error file=recordings/night.json,line=241,col=5,title=BAC-DRAW-BANKER-ILLEGAL::coup 3 event 9: ...

:func:`render` writes an ``error``, ``warning`` or ``notice`` line a finding (none for a
waived one), notices for the run's notes and for a transcript judged on partial
evidence, and ``error`` lines for inputs that could not be checked.  Every string from
the input is made printable, then escaped (:func:`escape_data`, :func:`escape_property`).

Why, and what a transcript could forge otherwise: docs/security.md, "In more detail".
"""

from __future__ import annotations

from compliance.findings import Finding
from compliance.printable import printable
from compliance.report.model import Report

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **properties) -> str:
    props = ",".join(f"{k}={escape_property(str(v))}" for k, v in properties.items() if v is not None)
    return f"::{level}{' ' + props if props else ''}::{escape_data(message)}"


def annotation(f: Finding) -> str:
    coup = f"coup {f.coup}" if f.coup is not None else "coup ?"
    event = f" event {f.event}" if f.event is not None else ""
    cite = f" ({f.citation})" if f.citation else ""
    return command(LEVEL[f.severity], f"{coup}{event}: {f.message}{cite}", file=f.transcript.split("#L", 1)[0],
                   line=f.line, col=f.column, title=f"{f.rule} [{f.category}]")


def render(report: Report) -> str:
    lines = [annotation(f) for f in report.findings]
    lines += [command("warning", w, title="baccarat-audit") for w in report.warnings()]
    lines += [command("notice", n, title="baccarat-audit") for n in report.notices() + report.versions_applied()]
    lines += [command("notice", report.transcript_partial(view), file=view.document, title="baccarat-audit: not judged")
              for view in report.transcripts if view.not_judged]
    lines += [command("error", f"could not check {e}", title="baccarat-audit") for e in report.errors]
    return "".join(line + "\n" for line in lines)
