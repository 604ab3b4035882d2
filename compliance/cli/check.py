"""``baccarat-audit check``: the auditor's command.

    settings (defaults < configuration file < flags)
      -> inputs (files, directories, Markdown blocks)
      -> the driver (compliance.driver): each transcript, or chunks of a large one, on the runner -j or --dask
         asks for (progress bar on a terminal), then the integrity stage over the whole run (shoes, tables, dealers)
      -> Report (waivers, baseline)
      -> renderers: standard output and every --output file, written atomically
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

import typer

from compliance import cachedir, config, limits
from compliance import outputs as outputs_file
from compliance import progress as progress_bar
from compliance.categories import SEVERITIES
from compliance.cli.app import BUNDLED, a_day, app, fail
from compliance.context import RunContext
from compliance.errors import UserError
from compliance.inputs import STDIN, STDIN_NAME, Exclude, Input, collect, spool_stdin
from compliance.printable import printable
from compliance.report.model import Report
from compliance.report.text import render_statistics
from compliance.selection import Selection

#: the choices of --format and --fail-on: the report formats (config.FORMATS) and the severities
Format = Enum("Format", {f: f for f in config.FORMATS}, type=str, module=__name__)
Severity = Enum("Severity", {s: s for s in SEVERITIES}, type=str, module=__name__)
JunitCases = Enum("JunitCases", {c: c for c in config.JUNIT_CASES}, type=str, module=__name__)


def _use_rich() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


@dataclass(frozen=True)
class RenderOptions:
    """How the reports of a run are drawn, beside the report itself."""

    quiet: bool = False  # text: the findings only
    junit_cases: str = "rule"  # junit: a test case per transcript and rule, or per coup


def render(report: Report, fmt: str, terminal: bool = False, stdout: bool = False,
           options: RenderOptions = RenderOptions()) -> str:
    """The report in one format; ``terminal``: text for a colour terminal (rich); ``stdout``: the text
    report leaves out the inputs that could not be checked, each already said once on standard error."""
    renderer = importlib.import_module(f"compliance.report.{fmt}")  # one module a format
    if fmt == "text":
        errors = not stdout
        return (renderer.render_rich(report, errors=errors, quiet=options.quiet) if terminal
                else renderer.render_plain(report, errors, quiet=options.quiet))
    if fmt == "junit":
        return renderer.render(report, per_coup=options.junit_cases == "coup")
    return renderer.render(report)


def parse_outputs(specs: list[str], default: str | None) -> list[tuple[str, Path]]:
    """``FORMAT=FILE`` or ``FILE`` (format from --format, else from the file's extension, else text)."""
    return [(fmt, Path(file)) for fmt, file in (config.output_format(spec, default) for spec in specs)]


def run_date(timestamp: str | None) -> dt.datetime:
    """The run's date and time: --timestamp, else SOURCE_DATE_EPOCH, else now (UTC).

    It is the report's generation time and the day waivers are judged on;
    fixing it makes reports byte-identical across runs.
    """
    value = timestamp or os.environ.get("SOURCE_DATE_EPOCH")
    if not value:
        return dt.datetime.now(dt.UTC).replace(microsecond=0)
    try:
        if value.strip().lstrip("-").isdigit():
            return dt.datetime.fromtimestamp(int(value), dt.UTC)
        when = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except (ValueError, OverflowError):
        raise UserError(f"bad timestamp {value!r}: give ISO 8601 (2026-11-29T18:00:00Z) or seconds since 1970",
                        "--timestamp" if timestamp else "SOURCE_DATE_EPOCH") from None
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).astimezone(dt.UTC)


class Progress(progress_bar.Progress):
    """check's bar on standard error: the share of the transcripts' bytes checked (so the time left), and the
    coups so far; with ``-j``, what the worker processes have checked (:mod:`compliance.progress`)."""

    def __init__(self, inputs: list[Input], enabled: bool, console=None):
        super().__init__(sum(max(i.size, 1) for i in inputs), enabled and bool(inputs), "checking", console)
        self.finished_coups = self.finished_bytes = 0  # of the transcripts checked to the end
        self.size = 1  # of the transcript being checked in this process

    def start(self, inp: Input) -> None:
        self.describe(inp.name)
        self.size = max(inp.size, 1)

    def on_coup(self, coups: int, nbytes: int) -> None:
        """The engine's report, in this process: ``coups`` and about ``nbytes`` of the transcript so far."""
        if coups & 255 == 0:
            self.set(self.finished_coups + coups, self.finished_bytes + min(nbytes, self.size))

    def finished(self, inp: Input, coups: int) -> None:
        self.finished_coups += coups
        self.finished_bytes += max(inp.size, 1)
        if self.shared is None:  # with workers, the bar shows their counters
            self.set(self.finished_coups, self.finished_bytes)


def draw_cited_coups(inputs: list[Input], results: list, context: RunContext, rulesets=None) -> None:
    """The cards of every coup a finding cites, for the reports that draw the coups (HTML): a finding of whole
    shoes or runs (the integrity stage) cites the coup at which it became decisive, whose cards the check kept
    only where a rule of its own found something in it.  The transcripts that hold such coups are replayed
    again, each up to the last of them; one that cannot be read now keeps the cards it has.  ``rulesets``: the
    run's (:class:`compliance.engine.RulesetCache`), not loaded again."""
    from compliance.engine import Checker

    by_name = {inp.name: inp for inp in inputs}
    checker = None
    for r in results:
        if r.states is None or r.transcript not in by_name:
            continue
        kept = {c.number for c in r.states}
        wanted = {f.coup for f in r.findings if f.coup is not None and f.coup not in kept}
        if not wanted:
            continue
        checker = checker or Checker(context, judge=False, rulesets=rulesets)
        try:
            r.states.extend(checker.cards_of(by_name[r.transcript].open(context.limits), wanted))
        except UserError:  # replaced or removed since it was checked: its report says the cards were not kept
            continue


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
    settings = config.apply_flags(config.load(config_file, isolated=isolated), {
        "ruleset": ruleset, "format": fmt.value if fmt else None, "output": output,
        "fail-on": fail_on.value if fail_on else None, "paths": [str(p) for p in transcripts or []],
        "waivers": str(waivers) if waivers else None, "baseline": str(baseline) if baseline else None,
        "exclude": _listed(exclude), "select": _listed(select), "ignore": _listed(ignore),
        "junit-cases": junit_cases.value if junit_cases else None, "cache": False if no_cache else None,
        "require-evidence": _listed(require_evidence)})
    bounds = limits.Limits.raised(settings.values.get("limits"))
    # --no-cache, cache = false: no cached ruleset, no cached odds; nor a cache directory that is not the user's
    cache = cachedir.usable(settings["cache"] is not False)
    if not settings["paths"]:
        fail("name the transcripts to check (files, directories or Markdown documents), or set `paths` "
             "in the configuration")
    when = run_date(timestamp)
    as_of = a_day(as_of, "--as-of") if as_of else None
    outputs = plan_outputs(settings, format_flag=fmt is not None, output_flag=bool(output))
    formats = {f for f, _ in outputs}
    targets = [outputs_file.resolve(path) for _, path in outputs]  # refused now, before any work, if never written
    baseline_target = outputs_file.resolve(write_baseline) if write_baseline else None
    from compliance.engine import RulesetCache  # imported when a check runs (not for --help)

    # the run's rulesets, each loaded once: for the rules the selection, waivers and baseline may name, for every
    # transcript, in every worker
    loading = RunContext(ruleset=settings["ruleset"], jurisdictions=tuple(settings["jurisdictions"].items()),
                         limits=bounds, cache=cache, config=settings.source(), isolated=isolated, as_of=as_of,
                         shifts=tuple(settings["shifts"]), time_zone=settings["time-zone"])
    rulesets = RulesetCache(loading)
    rulesets.chosen()  # a wrong --ruleset is said once, before any transcript is read
    selection = Selection(tuple(settings["select"]), tuple(settings["ignore"]))
    from compliance.evidence import required

    try:
        require = required(settings["require-evidence"])
    except ValueError as e:
        fail(f"--require-evidence: {e}")
    known, renamed = _known_rules(rulesets) if selection or settings["waivers"] or settings["baseline"] else (None, {})
    notes: list[str] = []  # what names a renamed rule by its old id (compliance.redirects)
    if selection:
        selection, notes = selection.redirected(renamed)
        selection.check_known((r.id, r.category) for r in known)
    waived = in_baseline = None
    if settings["waivers"]:
        from compliance import waivers as waivers_file

        waived = waivers_file.load(settings["waivers"], when.date(), bounds)
        notes += waivers_file.redirect(waived, renamed)
        waivers_file.check_rules(waived, {r.id for r in known})
    if settings["baseline"]:
        from compliance import baseline as baseline_file

        in_baseline = baseline_file.load(settings["baseline"], bounds, renamed, notes)
    if not quiet:
        for note in notes:
            typer.echo(f"baccarat-audit: note: {printable(note)}", err=True)
    if require:  # the run's requirement stands whatever is selected or ignored
        selection = replace(selection, always=("record.evidence-missing",))
    options = RenderOptions(quiet=quiet, junit_cases=settings["junit-cases"])
    # the run's context, built once: the engine, the workers and the integrity stage are handed it
    context = replace(loading, selection=selection, require_evidence=require, keep_states="html" in formats,
                      keep_coups="html" in formats or ("junit" in formats and options.junit_cases == "coup"))

    errors: list[str] = []

    def on_error(e: UserError) -> None:
        errors.append(str(e))
        typer.echo(f"baccarat-audit: {printable(e)}", err=True)

    def on_skip(note: str) -> None:
        if not quiet:
            typer.echo(f"baccarat-audit: note: {printable(note)}", err=True)

    with tempfile.TemporaryDirectory(prefix="baccarat-audit-") as spool:
        stdin = None
        if STDIN in settings["paths"]:
            stdin = (spool_stdin(sys.stdin.buffer, Path(spool), stdin_filename, bounds),
                     stdin_filename or STDIN_NAME)
        inputs = collect(settings["paths"], on_error, excluded(settings), on_skip, stdin, bounds)
        from compliance import driver

        driver.resolve(inputs, rulesets)  # each transcript's ruleset, loaded before any is checked
        reads = files_read(settings, inputs)
        for rs in rulesets.loaded():  # with every file of their extends chains
            for f in rs.files:
                reads.setdefault(f, "a ruleset file")
        writes = targets + ([baseline_target] if baseline_target else [])
        outputs_file.refuse_overwriting(writes, reads)  # before any work: every file the run reads is known
        show_progress = (sys.stderr.isatty() and not quiet) if progress is None else progress
        with Progress(inputs, show_progress) as bar:
            # one driver, whichever runner: in this process, on -j processes, on a Dask cluster; the same report
            results = driver.check(inputs, context, jobs=jobs, dask=dask, on_error=on_error, progress=bar,
                                   rulesets=rulesets)
            bar.complete(bar.finished_coups)
            if context.keep_states:
                draw_cited_coups(inputs, results, context, rulesets)
    report = Report(results, fail_on=settings["fail-on"], errors=errors, generated=when, waivers=waived,
                    baseline=in_baseline, selection=selection, config=settings.source(), isolated=isolated)
    # a ruleset first met in the run (a transcript read from a pipe: its header is read once, by its unit)
    late = {f: "a ruleset file" for r in results for f in r.ruleset.files if f not in reads}
    if late:
        outputs_file.refuse_overwriting(writes, reads | late)
    write_reports(report, outputs, write_baseline, options, statistics=statistics)
    if write_baseline is not None and not report.errors and report.coups:
        raise typer.Exit(0)  # the baseline is what was asked for: writing it is the run's success
    raise typer.Exit(report.exit_code)


def excluded(settings: config.Settings) -> Exclude:
    """The run's exclude globs: ``--exclude`` skips what the command line names too; a configuration's
    ``exclude`` only what a directory holds (a file the auditor names is always checked)."""
    origin = settings.origin["exclude"]
    if origin in ("command line", "default"):
        return Exclude(settings["exclude"])
    return Exclude(settings["exclude"], source=f"exclude in {origin}", named=settings.origin["paths"] != "command line")


def _known_rules(loaded) -> tuple[list, dict]:
    """Every rule a run may meet: those of the bundled rulesets (abstract bases too) and of --ruleset, from the
    run's rulesets (``loaded``, :class:`compliance.engine.RulesetCache`: each loaded once); and the rule ids they
    renamed (old id -> :class:`compliance.redirects.Redirect`)."""
    from compliance import redirects
    from compliance.ruleset.loader import bundled_ids

    rulesets = [loaded.load(rid, allow_abstract=True) for rid in bundled_ids()]
    chosen = loaded.chosen()
    if chosen is not None:
        rulesets.append(chosen)
    return [rule for rs in rulesets for rule in rs.rules], redirects.table(rulesets[-1:] + rulesets[:-1])


def files_read(settings: config.Settings, inputs: list[Input]) -> dict[str, str]:
    """Every file the run reads that is known before it starts: path -> what it is (never written over)."""
    from compliance.ruleset.loader import bundled_dir, looks_like_path

    reads: dict[str, str] = {}
    for inp in inputs:
        reads.setdefault(inp.path, "a Markdown document" if inp.block is not None else "a transcript")
    if settings["waivers"]:
        reads[settings["waivers"]] = "the waivers file"
    if settings["baseline"]:
        reads[settings["baseline"]] = "the baseline"
    if settings.file is not None:
        reads[str(settings.file)] = "the configuration file"
    for ref in [settings["ruleset"], *settings["jurisdictions"].values()]:
        if ref and looks_like_path(ref):
            reads[ref] = "a ruleset file"
    for p in bundled_dir().glob("*.yaml"):
        reads[str(p)] = "a bundled ruleset file"
    return reads


def plan_outputs(settings: config.Settings, format_flag: bool, output_flag: bool) -> list[tuple[str, Path]]:
    """Every report to write, as (format, path); path ``-`` is standard output.

    ``--output`` replaces standard output (``FORMAT=-`` asks for it too); a
    ``--format`` flag still prints beside the reports the configuration writes.
    """
    try:
        outputs = parse_outputs(settings["output"], settings["format"])
    except UserError as e:
        origin = settings.origin["output"]
        raise UserError(e.message, e.where if origin in ("command line", "default") else origin) from None
    if not outputs or (format_flag and not output_flag):
        outputs.append((settings["format"] or "text", Path("-")))
    return outputs


def write_reports(report: Report, outputs: list[tuple[str, Path]], baseline: Path | None,
                  options: RenderOptions = RenderOptions(), statistics: bool = False) -> None:
    """Render each report once, files atomically (compliance.outputs: never through a link, never over
    a device; a missing directory made); the summary on standard error unless the text report on standard
    output has it. ``statistics``: standard output gets the counts by rule instead of the report."""
    to_stdout = None
    for out_format, path in outputs:
        if outputs_file.resolve(path).kind == "stdout":
            if statistics:
                continue
            to_stdout = out_format
            sys.stdout.write(render(report, out_format, terminal=out_format == "text" and _use_rich(), stdout=True,
                                    options=options))
            sys.stdout.flush()
        else:
            outputs_file.make_directory(path, "the report's")
            outputs_file.write(path, render(report, out_format, options=options).encode("utf-8"),
                               "cannot write report")
    if statistics:
        as_json = any(f == "json" and outputs_file.resolve(p).kind == "stdout" for f, p in outputs)
        sys.stdout.write(_statistics_json(report) if as_json else render_statistics(report))
        sys.stdout.flush()
    if baseline:
        from compliance import baseline as baseline_file

        outputs_file.make_directory(baseline, "the report's")
        outputs_file.write(baseline, baseline_file.render(report.all_findings, report.tool_version).encode("utf-8"),
                           "cannot write baseline")
    if options.quiet:  # quiet, but never silent about a run that judged nothing or a configuration that judged none
        for warning in report.loud_warnings():
            typer.echo(f"baccarat-audit: warning: {printable(warning)}", err=True)
    if options.quiet and report.not_judged:  # quiet, but never silent about a verdict on partial evidence
        typer.echo(f"baccarat-audit: {report.rules_not_judged:,} rule{'' if report.rules_not_judged == 1 else 's'} "
                   "not judged for want of evidence", err=True)
    if to_stdout != "text" and not options.quiet:  # the text report ends with them; else tell the terminal
        for warning in report.warnings():
            typer.echo(f"baccarat-audit: warning: {printable(warning)}", err=True)
        for notice in report.notices():
            typer.echo(f"baccarat-audit: {printable(notice)}", err=True)
        typer.echo(report.summary_line(), err=True)


def _statistics_json(report: Report) -> str:
    """``--statistics -f json``: the counts by rule, and the money of the wrong settlements (its net first) where
    a finding has any, as the JSON report writes it."""
    doc: dict = {"rules": [{"rule": c.rule, "category": c.category, "severity": c.severity, "count": c.count,
                            "coups": c.coups, "title": c.title} for c in report.statistics()]}
    if report.money is not None:
        doc["money"] = report.money.as_dict()
    return json.dumps(doc, indent=2) + "\n"
