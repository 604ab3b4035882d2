"""``baccarat-audit check``: the auditor's command. It parses the options into a
:class:`compliance.api.CheckRequest`, calls :func:`compliance.api.check` (the run: docs/api.md), prints what
it gives and exits with its status.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path

import typer

from compliance import api, config
from compliance.categories import SEVERITIES
from compliance.cli.app import BUNDLED, app

#: the choices of --format and --fail-on: the report formats (config.FORMATS) and the severities
Format = Enum("Format", {f: f for f in config.FORMATS}, type=str, module=__name__)
Severity = Enum("Severity", {s: s for s in SEVERITIES}, type=str, module=__name__)
JunitCases = Enum("JunitCases", {c: c for c in config.JUNIT_CASES}, type=str, module=__name__)


def _use_rich() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _listed(values: list[str] | None) -> list[str]:
    """Repeated options, each of which may also be a comma-separated list (``--select A,B``)."""
    return [v.strip() for value in values or [] for v in value.split(",") if v.strip()]


def _complete_ruleset(incomplete: str) -> list[str]:
    from compliance.ruleset.loader import bundled_ids

    return [rid for rid in bundled_ids() if rid.startswith(incomplete)]


@app.command()
def check(
    transcripts: list[Path] = typer.Argument(
        None, metavar="PATH", show_default=False,
        help="Transcripts (.json, .jsonl), Markdown documents with ```baccarat-transcript blocks, directories of "
             "them, or - for standard input."),
    ruleset: str = typer.Option(None, "--ruleset", "-r", metavar="ID|FILE", shell_complete=None,
                                autocompletion=_complete_ruleset,
                                help=f"Ruleset id ({BUNDLED}) or YAML path [default: each transcript's "
                                     "table.jurisdiction]."),
    fmt: Format = typer.Option(None, "--format", "-f", metavar="FORMAT", case_sensitive=False, show_default=False,
                               help=f"Report format on standard output: {', '.join(config.FORMATS)} [default: text; "
                                    "rich on a terminal, plain otherwise or with NO_COLOR]."),
    output: list[str] = typer.Option(None, "--output", "-o", metavar="[FORMAT=]FILE", show_default=False,
                                     help="Write a report to a file instead of standard output; the format from "
                                          "FORMAT=, else --format, else the file's extension (.json .sarif .xml .md "
                                          ".html .txt). Repeat for several; FORMAT=- is standard output."),
    fail_on: Severity = typer.Option(None, "--fail-on", metavar="SEVERITY", case_sensitive=False,
                                     show_default=False, help="Exit 1 when a reported finding of this severity or "
                                     "above exists: error, warning or info [default: error]."),
    select: list[str] = typer.Option(None, "--select", metavar="RULE|CATEGORY", show_default=False,
                                     help="Report only these rules' findings (every rule is still judged): ids or "
                                          "categories, globs and prefixes allowed (BAC-DRAW, settlement.*); repeat or "
                                          "separate with commas."),
    ignore: list[str] = typer.Option(None, "--ignore", metavar="RULE|CATEGORY", show_default=False,
                                     help="Do not report these rules' findings (as --select names them). Unreadable "
                                          "coups are always reported."),
    exclude: list[str] = typer.Option(None, "--exclude", metavar="GLOB", show_default=False,
                                      help="Skip files and directories matching GLOB (a name such as "
                                           "'*.injected.json' or 'archive', or a path such as 'recordings/2019/*'); "
                                           "repeat for several."),
    waivers: Path = typer.Option(None, "--waivers", metavar="FILE", show_default=False,
                                 help="YAML file of approved deviations (waived findings do not fail the run)."),
    baseline: Path = typer.Option(None, "--baseline", metavar="FILE", show_default=False,
                                  help="Report only findings not in this baseline."),
    write_baseline: Path = typer.Option(None, "--write-baseline", metavar="FILE", show_default=False,
                                        help="Write every finding of this run to a baseline file; the run then "
                                             "exits 0 (2 if an input could not be checked)."),
    config_file: Path = typer.Option(None, "--config", metavar="FILE", show_default=False,
                                     help="Configuration file to use instead of the one found upward from here "
                                          "(.baccarat-audit.yaml or pyproject.toml)."),
    isolated: bool = typer.Option(False, "--isolated", help="Read no configuration file at all: neither one found "
                                  "upward from here nor --config (the reports say which one a run used)."),
    timestamp: str = typer.Option(None, "--timestamp", metavar="WHEN", show_default=False,
                                  help="The run's date and time (ISO 8601 or epoch seconds) [default: "
                                       "SOURCE_DATE_EPOCH, else now]: shown in reports, judges waiver expiry."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print the findings only: no notes, warnings, "
                               "waived findings or summary (errors still go to standard error)."),
    statistics: bool = typer.Option(False, "--statistics", help="Print the number of findings of each rule instead "
                                    "of the findings (text, or JSON with --format json); --output files are still "
                                    "written."),
    junit_cases: JunitCases = typer.Option(None, "--junit-cases", metavar="rule|coup", case_sensitive=False,
                                           show_default=False, help="JUnit reports: a test case per transcript and "
                                           "rule, its failure listing the coups [default: rule], or one per coup."),
    stdin_filename: str = typer.Option(None, "--stdin-filename", metavar="NAME", show_default=False,
                                       help="The name standard input (-) goes by in reports; its extension "
                                            "(.json, .jsonl, .md) says what it holds [default: <stdin>, told "
                                            "from its first line]."),
    progress: bool = typer.Option(None, "--progress/--no-progress", show_default=False,
                                  help="Progress bar on standard error [default: on a terminal]."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, metavar="N", show_default=False,
                             help="Processes that check transcripts, and chunks of a large .jsonl, in parallel; the "
                                  "report is the same as with -j 1 [default: 0, every core]."),
    dask: str = typer.Option(None, "--dask", metavar="ADDRESS", show_default=False,
                             help="Check on a Dask distributed cluster (scheduler address, e.g. tcp://10.0.0.5:8786); "
                                  "the workers must read the transcripts and rulesets at the same absolute paths. "
                                  "Needs: pip install 'baccarat-audit[dask]'."),
    require_evidence: list[str] = typer.Option(
        None, "--require-evidence", metavar="LIST", show_default=False,
        help="Evidence every coup's record must hold: names of the transcript format's `recorded` (cards, calls, "
             "wagers, ...) separated by commas, or all; a coup lacking it is an error finding "
             "(record.evidence-missing), once a transcript and kind of evidence."),
    as_of: str = typer.Option(None, "--as-of", metavar="DATE", show_default=False,
                              help="Judge every coup by the rules in force on DATE (YYYY-MM-DD) [default: each "
                                   "coup's own time, else the transcript's date, else the current rules]."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Use nothing of the user's cache directory: load the "
                                  "rulesets from their YAML and work out the exact odds of a shoe again (also: "
                                  "BACCARAT_AUDIT_NO_CACHE=1, or cache = false in the configuration)."),
):
    """Check transcripts against their jurisdiction's rules; exit 0 clean, 1 findings, 2 could not run."""
    request = api.CheckRequest(
        paths=transcripts or [], ruleset=ruleset, format=fmt.value if fmt else None, outputs=output or [],
        fail_on=fail_on.value if fail_on else None, select=_listed(select), ignore=_listed(ignore),
        exclude=_listed(exclude), waivers=waivers, baseline=baseline, write_baseline=write_baseline,
        config=config_file, isolated=isolated, timestamp=timestamp, quiet=quiet, statistics=statistics,
        junit_cases=junit_cases.value if junit_cases else None, stdin_filename=stdin_filename, progress=progress,
        terminal=_use_rich(), jobs=jobs, dask=dask, require_evidence=_listed(require_evidence), as_of=as_of,
        no_cache=no_cache)
    outcome = api.check(request, on_message=_say)
    if outcome.stdout:
        sys.stdout.write(outcome.stdout)
        sys.stdout.flush()
    for message in outcome.closing:
        _say(message)
    raise typer.Exit(outcome.exit_code)


def _say(message: api.Message) -> None:
    typer.echo(message.line(), err=True)
