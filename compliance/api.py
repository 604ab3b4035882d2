"""The public API: one check of transcripts, as ``baccarat-audit check`` runs it (docs/api.md).

    outcome = check(CheckRequest(paths=["night.json"], outputs=["json=report.json"]))
    outcome.exit_code, outcome.report.findings, outcome.stdout

Everything else in the package is internal and may change from one version to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from compliance import __version__
from compliance.config import FORMATS  # the report formats (``format``, and the FORMAT of ``outputs``)
from compliance.errors import UserError

if TYPE_CHECKING:
    from compliance.report.model import Report

__all__ = ["FORMATS", "CheckRequest", "Message", "Outcome", "UserError", "__version__", "check"]


@dataclass(frozen=True)
class CheckRequest:
    """What to check, and how: the options of ``baccarat-audit check``, each ``None`` (or empty) where not
    given, so that a configuration file's value applies (defaults < configuration file < request)."""

    paths: Sequence[str | Path] = ()  # transcripts, Markdown documents, directories; "-": ``stdin``
    ruleset: str | None = None  # a ruleset id or YAML path (default: each transcript's table.jurisdiction)
    format: str | None = None  # the format of standard output (``Outcome.stdout``; default text)
    outputs: Sequence[str] = ()  # reports to write, "[FORMAT=]FILE"; they replace standard output; FORMAT=- is it
    fail_on: str | None = None  # the least severity that fails the run: error (default), warning, info
    select: Sequence[str] = ()  # report only these rules' findings (ids, categories, globs)
    ignore: Sequence[str] = ()  # do not report these rules' findings
    exclude: Sequence[str] = ()  # skip files and directories matching these globs
    waivers: str | Path | None = None  # a YAML file of approved deviations
    baseline: str | Path | None = None  # report only findings not in this baseline
    write_baseline: str | Path | None = None  # write every finding to this baseline (the run then succeeds)
    config: str | Path | None = None  # the configuration file, instead of the one found upward from here
    isolated: bool = False  # read no configuration file at all
    timestamp: str | None = None  # the run's time (ISO 8601 or epoch seconds; default SOURCE_DATE_EPOCH, else now)
    quiet: bool = False  # the findings only: no notes, waived findings or summary
    statistics: bool = False  # standard output gets the counts by rule instead of the report
    junit_cases: str | None = None  # JUnit reports: a test case per transcript and "rule" (default), or "coup"
    stdin: BinaryIO | None = None  # what "-" reads (default: the process's standard input)
    stdin_filename: str | None = None  # the name "-" goes by in reports; its extension says what it holds
    progress: bool | None = None  # a progress bar on standard error (default: when it is a terminal, unless quiet)
    terminal: bool = False  # standard output's text report drawn for a colour terminal
    jobs: int = 0  # processes that check in parallel (0: every core; 1: this process)
    dask: str | None = None  # the address of a Dask scheduler to check on
    require_evidence: Sequence[str] = ()  # evidence every coup's record must hold (names, or "all")
    as_of: str | None = None  # judge every coup by the rules in force on this day (YYYY-MM-DD)
    no_cache: bool = False  # use nothing of the user's cache directory


@dataclass(frozen=True)
class Message:
    """A line for standard error: ``kind`` is note, error, warning, notice or summary."""

    kind: str
    text: str

    def line(self) -> str:
        """The line as the command line prints it."""
        from compliance.printable import printable

        if self.kind == "summary":
            return self.text
        label = f"{self.kind}: " if self.kind in ("note", "warning") else ""
        return f"baccarat-audit: {label}{printable(self.text)}"


@dataclass
class Outcome:
    """What a check gives: the report, what goes to standard output and standard error, and the exit status
    (0 clean, 1 findings at or above ``fail_on``, 2 an input could not be checked or nothing was judged)."""

    report: Report
    exit_code: int
    stdout: str = ""  # the report(s) and statistics for standard output ("" when every report went to a file)
    messages: list[Message] = field(default_factory=list)  # standard error during the run, in order
    closing: list[Message] = field(default_factory=list)  # standard error after standard output

    @property
    def findings(self) -> list[Any]:
        """The findings the reports show (selected, not waived, not in the baseline)."""
        return self.report.findings


def check(request: CheckRequest, on_message: Callable[[Message], None] | None = None) -> Outcome:
    """Check the transcripts ``request`` names, write the reports it asks for, and return the outcome.

    ``on_message`` is told each message of the run as it happens (notes; inputs that could not be checked);
    they are in ``Outcome.messages`` too.  A user's error (a bad ruleset, configuration, waivers file or
    option; an output that would overwrite an input) raises :class:`UserError`.
    """
    import tempfile

    from compliance import cachedir, config, limits, outputs
    from compliance._internal import run
    from compliance._internal.inputs import STDIN, STDIN_NAME, collect, spool_stdin
    from compliance.context import RunContext, a_day
    from compliance.evidence import required
    from compliance.report.model import Report
    from compliance.selection import Selection

    messages: list[Message] = []

    def say(kind: str, text: str) -> None:
        message = Message(kind, text)
        messages.append(message)
        if on_message is not None:
            on_message(message)

    settings = config.apply_flags(config.load(_path(request.config), isolated=request.isolated), {
        "ruleset": request.ruleset, "format": request.format, "output": list(request.outputs),
        "fail-on": request.fail_on, "paths": [str(p) for p in request.paths],
        "waivers": _text(request.waivers), "baseline": _text(request.baseline), "exclude": list(request.exclude),
        "select": list(request.select), "ignore": list(request.ignore), "junit-cases": request.junit_cases,
        "cache": False if request.no_cache else None, "require-evidence": list(request.require_evidence)})
    bounds = limits.Limits.raised(settings.values.get("limits"))
    # no cache: no cached ruleset, no cached odds; nor a cache directory that is not the user's
    cache = cachedir.usable(settings["cache"] is not False)
    if not settings["paths"]:
        raise UserError("name the transcripts to check (files, directories or Markdown documents), or set "
                        "`paths` in the configuration")
    when = run.run_date(request.timestamp)
    as_of = a_day(request.as_of, "--as-of") if request.as_of else None
    planned = run.plan_outputs(settings, format_given=request.format is not None, output_given=bool(request.outputs))
    formats = {f for f, _ in planned}
    targets = [outputs.resolve(path) for _, path in planned]  # refused now, before any work, if never written
    write_baseline = _path(request.write_baseline)
    baseline_target = outputs.resolve(write_baseline) if write_baseline else None
    from compliance.engine import RulesetCache

    # the run's rulesets, each loaded once: for the rules the selection, waivers and baseline may name, for every
    # transcript, in every worker
    loading = RunContext(ruleset=settings["ruleset"], jurisdictions=tuple(settings["jurisdictions"].items()),
                         limits=bounds, cache=cache, config=settings.source(), isolated=request.isolated,
                         as_of=as_of, shifts=tuple(settings["shifts"]), time_zone=settings["time-zone"])
    rulesets = RulesetCache(loading)
    rulesets.chosen()  # a wrong ruleset is said once, before any transcript is read
    selection = Selection(tuple(settings["select"]), tuple(settings["ignore"]))
    try:
        require = required(settings["require-evidence"])
    except ValueError as e:
        raise UserError(f"--require-evidence: {e}") from None
    known, renamed = (run.known_rules(rulesets) if selection or settings["waivers"] or settings["baseline"]
                      else (None, {}))
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
    if not request.quiet:
        for note in notes:
            say("note", note)
    if require:  # the run's requirement stands whatever is selected or ignored
        selection = replace(selection, always=("record.evidence-missing",))
    options = run.RenderOptions(quiet=request.quiet, junit_cases=settings["junit-cases"])
    # the run's context, built once: the engine, the workers and the integrity stage are handed it
    context = replace(loading, selection=selection, require_evidence=require, keep_states="html" in formats,
                      keep_coups="html" in formats or ("junit" in formats and options.junit_cases == "coup"))

    errors: list[str] = []

    def on_error(e: UserError) -> None:
        errors.append(str(e))
        say("error", str(e))

    def on_skip(note: str) -> None:
        if not request.quiet:
            say("note", note)

    with tempfile.TemporaryDirectory(prefix="baccarat-audit-") as spool:
        stdin = None
        if STDIN in settings["paths"]:
            stream = request.stdin if request.stdin is not None else run.stdin_stream()
            stdin = (spool_stdin(stream, Path(spool), request.stdin_filename, bounds),
                     request.stdin_filename or STDIN_NAME)
        inputs = collect(settings["paths"], on_error, run.excluded(settings), on_skip, stdin, bounds)
        from compliance._internal import driver

        driver.resolve(inputs, rulesets)  # each transcript's ruleset, loaded before any is checked
        reads = run.files_read(settings, inputs)
        for rs in rulesets.loaded():  # with every file of their extends chains
            for f in rs.files:
                reads.setdefault(f, "a ruleset file")
        writes = targets + ([baseline_target] if baseline_target else [])
        outputs.refuse_overwriting(writes, reads)  # before any work: every file the run reads is known
        show_progress = run.stderr_is_terminal() and not request.quiet if request.progress is None else request.progress
        with run.Progress(inputs, show_progress) as bar:
            # one driver, whichever runner: in this process, on processes, on a Dask cluster; the same report
            results = driver.check(inputs, context, jobs=request.jobs, dask=request.dask, on_error=on_error,
                                   progress=bar, rulesets=rulesets)
            bar.complete(bar.finished_coups)
            if context.keep_states:
                run.draw_cited_coups(inputs, results, context, rulesets)
    report = Report(results, fail_on=settings["fail-on"], errors=errors, generated=when, waivers=waived,
                    baseline=in_baseline, selection=selection, config=settings.source(), isolated=request.isolated)
    # a ruleset first met in the run (a transcript read from a pipe: its header is read once, by its unit)
    late = {f: "a ruleset file" for r in results for f in r.ruleset.files if f not in reads}
    if late:
        outputs.refuse_overwriting(writes, reads | late)
    stdout, to_stdout = run.write_reports(report, planned, write_baseline, options, statistics=request.statistics,
                                          terminal=request.terminal)
    closing = [Message(kind, text) for kind, text in run.closing(report, to_stdout, request.quiet)]
    # writing the baseline asked for is the run's success, where every input was checked
    wrote_baseline = write_baseline is not None and not report.errors and report.coups
    return Outcome(report, 0 if wrote_baseline else report.exit_code, stdout, messages, closing)


def _path(value: str | Path | None) -> Path | None:
    return Path(value) if value is not None else None


def _text(value: str | Path | None) -> str | None:
    return str(value) if value else None
