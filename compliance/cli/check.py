"""``baccarat-audit check``: the auditor's command."""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path

import typer

from compliance.cli import app, fail
from compliance.engine import check_paths
from compliance.errors import UserError
from compliance.report import json as json_report
from compliance.report import text as text_report
from compliance.report.model import Report


class Format(str, Enum):
    text = "text"
    json = "json"


class Severity(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"


def _use_rich() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def render(report: Report, fmt: str) -> str:
    if fmt == "json":
        return json_report.render(report)
    return text_report.render_rich(report) if _use_rich() else text_report.render_plain(report)


@app.command()
def check(
    transcripts: list[Path] = typer.Argument(..., help="Transcript files (.json or .jsonl).", show_default=False),
    ruleset: str = typer.Option(None, "--ruleset", "-r", help="Ruleset id (us-nj, us-in, au-nsw, nz) or YAML path; "
                                "default: each transcript's table.jurisdiction."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="Report format."),
    output: Path = typer.Option(None, "--output", "-o", help="Write the report to this file instead of stdout."),
    fail_on: Severity = typer.Option(Severity.error, "--fail-on", help="Exit 1 when a finding of this severity or above exists."),
):
    """Check transcripts against their jurisdiction's rules; exit 0 clean, 1 findings, 2 could not run."""
    errors: list[str] = []
    results = check_paths(((str(p), str(p)) for p in transcripts), ruleset=ruleset,
                          on_error=lambda e: errors.append(str(e)))
    report = Report(results, fail_on=fail_on.value, errors=errors)
    for e in errors:
        typer.echo(f"baccarat-audit: {e}", err=True)
    text = render(report, fmt.value)
    if output:
        write_atomic(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    raise typer.Exit(report.exit_code)


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file and rename: never a half-written report."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        fail(UserError(f"cannot write report: {e.strerror}", str(path)))
