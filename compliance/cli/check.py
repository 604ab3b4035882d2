"""``baccarat-audit check``: the auditor's command.

    settings (defaults < configuration file < flags)
      -> inputs (files, directories, Markdown blocks)
      -> Checker, one transcript at a time (progress bar on a terminal)
      -> Report (waivers, baseline)
      -> renderers: standard output and every --output file, written atomically
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import sys
from enum import Enum
from pathlib import Path

import typer

from compliance import baseline as baseline_file
from compliance import config, limits
from compliance import outputs as outputs_file
from compliance import waivers as waivers_file
from compliance.categories import SEVERITIES
from compliance.cli.app import app, fail
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.inputs import Input, collect
from compliance.printable import printable
from compliance.report.model import Report

#: the choices of --format and --fail-on: the report formats (config.FORMATS) and the severities
Format = Enum("Format", {f: f for f in config.FORMATS}, type=str, module=__name__)
Severity = Enum("Severity", {s: s for s in SEVERITIES}, type=str, module=__name__)


#: a report file's format, from its name, when --output gives none
SUFFIX_FORMAT = {".json": "json", ".sarif": "sarif", ".xml": "junit", ".md": "markdown", ".html": "html",
                 ".htm": "html", ".txt": "text"}


def _use_rich() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def render(report: Report, fmt: str, terminal: bool = False, stdout: bool = False) -> str:
    """The report in one format; ``terminal``: text for a colour terminal (rich); ``stdout``: the text
    report leaves out the inputs that could not be checked, each already said once on standard error."""
    renderer = importlib.import_module(f"compliance.report.{fmt}")  # one module a format
    if fmt == "text":
        errors = not stdout
        return renderer.render_rich(report, errors=errors) if terminal else renderer.render_plain(report, errors)
    return renderer.render(report)


def parse_outputs(specs: list[str], default: str | None) -> list[tuple[str, Path]]:
    """``FORMAT=FILE`` or ``FILE`` (format from --format, else from the file's suffix, else text)."""
    out = []
    for spec in specs:
        fmt, file = config.split_output(spec)
        out.append((fmt or default or SUFFIX_FORMAT.get(Path(file).suffix.lower(), "text"), Path(file)))
    return out


def run_date(timestamp: str | None) -> dt.datetime:
    """The run's date and time: --timestamp, else SOURCE_DATE_EPOCH, else now (UTC).

    It is the report's generation time and the day waivers are judged on;
    fixing it makes reports byte-identical across runs.
    """
    value = timestamp or os.environ.get("SOURCE_DATE_EPOCH")
    if not value:
        return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    try:
        if value.strip().lstrip("-").isdigit():
            return dt.datetime.fromtimestamp(int(value), dt.timezone.utc)
        when = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except (ValueError, OverflowError):
        raise UserError(f"bad timestamp {value!r}: give ISO 8601 (2026-11-29T18:00:00Z) or seconds since 1970",
                        "--timestamp" if timestamp else "SOURCE_DATE_EPOCH") from None
    return (when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)).astimezone(dt.timezone.utc)


class Progress:
    """A rich progress bar on standard error, only on a terminal: transcripts, bytes and coups so far."""

    def __init__(self, inputs: list[Input], enabled: bool):
        self.bar = None
        if not enabled or len(inputs) == 0:
            return
        from rich.console import Console
        from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as Bar

        self.bar = Bar(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[coups]:,} coups"),
                       TimeElapsedColumn(), console=Console(file=sys.stderr), transient=True)
        self.total = sum(max(i.size, 1) for i in inputs)
        self.task = self.bar.add_task("checking", total=self.total, coups=0)
        self.done_bytes = self.coups = 0

    def __enter__(self):
        if self.bar:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        if self.bar:
            self.bar.__exit__(*exc)

    def start(self, inp: Input):
        if self.bar:
            self.bar.update(self.task, description=inp.name)

    def on_coup(self, n: int):
        if n % 512 == 0:
            self.bar.update(self.task, coups=self.coups + n)

    def finished(self, inp: Input, coups: int):
        if self.bar:
            self.done_bytes += max(inp.size, 1)
            self.coups += coups
            self.bar.update(self.task, completed=self.done_bytes, coups=self.coups)


def check_inputs(inputs: list[Input], ruleset: str | None, keep_states: bool, keep_coups: bool,
                 on_error, progress: Progress, jurisdictions: dict[str, str] | None = None):
    """Check each input in order; one that cannot be read goes to ``on_error`` and the others still run."""
    checker = Checker(ruleset, keep_states=keep_states, keep_coups=keep_coups, jurisdictions=jurisdictions)
    results = []
    for inp in inputs:
        progress.start(inp)
        try:
            result = inp.check(checker, progress.on_coup if progress.bar else None)
        except UserError as e:
            on_error(e)
            continue
        results.append(result)
        progress.finished(inp, result.coups)
    return results


@app.command()
def check(
    transcripts: list[Path] = typer.Argument(None, help="Transcripts (.json, .jsonl), directories of them, or "
                                             "Markdown documents with ```baccarat-transcript blocks.",
                                             show_default=False),
    ruleset: str = typer.Option(None, "--ruleset", "-r", help="Ruleset id (us-nj, us-in, au-nsw, nz) or YAML path; "
                                "default: each transcript's table.jurisdiction."),
    fmt: Format = typer.Option(None, "--format", "-f", help="Report format on standard output "
                               "[default: text; rich on a terminal, plain otherwise or with NO_COLOR]."),
    output: list[str] = typer.Option(None, "--output", "-o", help="Write a report to a file instead of standard "
                                     "output: FILE, or FORMAT=FILE; repeat for several."),
    fail_on: Severity = typer.Option(None, "--fail-on", help="Exit 1 when a reported finding of this severity or "
                                     "above exists [default: error]."),
    waivers: Path = typer.Option(None, "--waivers", help="YAML file of approved deviations (waived findings "
                                 "do not fail the run)."),
    baseline: Path = typer.Option(None, "--baseline", help="Report only findings not in this baseline."),
    write_baseline: Path = typer.Option(None, "--write-baseline", help="Write every finding of this run to a "
                                        "baseline file."),
    config_file: Path = typer.Option(None, "--config", help="Configuration file to use instead of the one found "
                                     "upward from here (.baccarat-audit.yaml or pyproject.toml)."),
    timestamp: str = typer.Option(None, "--timestamp", help="The run's date and time (ISO 8601 or epoch seconds; "
                                  "default SOURCE_DATE_EPOCH, else now): shown in reports, judges waiver expiry."),
    progress: bool = typer.Option(None, "--progress/--no-progress", help="Progress bar on standard error "
                                  "[default: on a terminal]."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, help="Processes that check transcripts, and chunks of a "
                             "large .jsonl, in parallel; the report is the same as with -j 1 [default: 0, every core]."),
    dask: str = typer.Option(None, "--dask", metavar="ADDRESS", help="Check on a Dask distributed cluster "
                             "(scheduler address, e.g. tcp://10.0.0.5:8786); the workers must read the transcripts "
                             "and rulesets at the same absolute paths. Needs: pip install 'baccarat-audit[dask]'."),
):
    """Check transcripts against their jurisdiction's rules; exit 0 clean, 1 findings, 2 could not run."""
    settings = config.apply_flags(config.load(config_file), {
        "ruleset": ruleset, "format": fmt.value if fmt else None, "output": output,
        "fail-on": fail_on.value if fail_on else None, "paths": [str(p) for p in transcripts or []],
        "waivers": str(waivers) if waivers else None, "baseline": str(baseline) if baseline else None})
    limits.configure({kind: mb * limits.MB for kind, mb in settings.values.get("limits", {}).items()})
    if not settings["paths"]:
        fail("name the transcripts to check (files, directories or Markdown documents), or set `paths` "
             "in the configuration")
    when = run_date(timestamp)
    outputs = plan_outputs(settings, format_flag=fmt is not None, output_flag=bool(output))
    formats = {f for f, _ in outputs}
    targets = [outputs_file.resolve(path) for _, path in outputs]  # refused now, before any work, if never written
    baseline_target = outputs_file.resolve(write_baseline) if write_baseline else None
    waived = waivers_file.load(settings["waivers"], when.date()) if settings["waivers"] else None
    known = baseline_file.load(settings["baseline"]) if settings["baseline"] else None

    errors: list[str] = []

    def on_error(e: UserError) -> None:
        errors.append(str(e))
        typer.echo(f"baccarat-audit: {printable(e)}", err=True)

    inputs = collect(settings["paths"], on_error)
    reads = files_read(settings, inputs)
    outputs_file.refuse_overwriting(targets + ([baseline_target] if baseline_target else []), reads)
    jurisdictions = settings["jurisdictions"]
    show_progress = sys.stderr.isatty() if progress is None else progress
    with Progress(inputs, show_progress) as bar:
        keep_states, keep_coups = "html" in formats, bool(formats & {"junit", "html"})
        if jobs == 1 and not dask:
            results = check_inputs(inputs, settings["ruleset"], keep_states=keep_states, keep_coups=keep_coups,
                                   on_error=on_error, progress=bar, jurisdictions=jurisdictions)
        else:  # same report, made on several processes (compliance.parallel)
            from compliance import parallel

            run = parallel.Settings(settings["ruleset"], keep_states, keep_coups, tuple(jurisdictions.items()),
                                    limits=limits.current().items())
            if dask:  # the workers may run in another directory: every path they read is made absolute
                inputs, run = parallel.absolute(inputs, run)
            results = parallel.check_parallel(inputs, run, jobs or parallel.default_jobs(), on_error, bar, dask)
    report = Report(results, fail_on=settings["fail-on"], errors=errors, generated=when, waivers=waived,
                    baseline=known)
    for r in results:  # the rulesets actually loaded, with every file of their extends chains
        reads.update({f: "a ruleset file" for f in r.ruleset.files})
    outputs_file.refuse_overwriting(targets + ([baseline_target] if baseline_target else []), reads)
    write_reports(report, outputs, write_baseline)
    raise typer.Exit(report.exit_code)


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
    outputs = parse_outputs(settings["output"], settings["format"])
    if not outputs or (format_flag and not output_flag):
        outputs.append((settings["format"] or "text", Path("-")))
    return outputs


def write_reports(report: Report, outputs: list[tuple[str, Path]], baseline: Path | None) -> None:
    """Render each report once, files atomically (compliance.outputs: never through a link, never over
    a device); the summary on standard error unless the text report on standard output has it."""
    to_stdout = None
    for out_format, path in outputs:
        if outputs_file.resolve(path).kind == "stdout":
            to_stdout = out_format
            sys.stdout.write(render(report, out_format, terminal=out_format == "text" and _use_rich(), stdout=True))
            sys.stdout.flush()
        else:
            outputs_file.write(path, render(report, out_format).encode("utf-8"), "cannot write report")
    if baseline:
        outputs_file.write(baseline, baseline_file.render(report.all_findings, report.tool_version).encode("utf-8"),
                           "cannot write baseline")
    if to_stdout != "text":  # the text report ends with them; elsewhere tell the person at the terminal
        for notice in report.notices():
            typer.echo(f"baccarat-audit: {printable(notice)}", err=True)
        typer.echo(report.summary_line(), err=True)
