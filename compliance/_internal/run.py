"""The run behind :func:`compliance.api.check`: what a check needs beside the driver, one step a function.

    settings (defaults < configuration file < the request) -> outputs planned and refused before any work
      -> rulesets, selection, waivers, baseline -> inputs (standard input spooled) -> the driver
      -> cited coups replayed for the pictures -> Report -> reports rendered, files written atomically
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from compliance import config
from compliance import outputs as outputs_file
from compliance import progress as progress_bar
from compliance._internal.inputs import Exclude, Input
from compliance.context import RunContext
from compliance.errors import UserError
from compliance.report.model import Report


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
    """``FORMAT=FILE`` or ``FILE`` (format from the default format, else from the file's extension, else text)."""
    return [(fmt, Path(file)) for fmt, file in (config.output_format(spec, default) for spec in specs)]


def run_date(timestamp: str | None) -> dt.datetime:
    """The run's date and time: ``timestamp``, else SOURCE_DATE_EPOCH, else now (UTC): the reports' generation
    time and the day waivers are judged on; fixing it makes reports byte-identical across runs."""
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
    shoes or runs cites the coup at which it became decisive, whose cards the check kept only where a rule of
    its own found something in it.  The transcripts that hold such coups are replayed again, each up to the
    last of them; one that cannot be read now keeps the cards it has.  ``rulesets``: the run's
    (:class:`compliance.engine.RulesetCache`), not loaded again."""
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


def excluded(settings: config.Settings) -> Exclude:
    """The run's exclude globs: the request's skip what it names too; a configuration's ``exclude`` only what
    a directory holds (a file the auditor names is always checked)."""
    origin = settings.origin["exclude"]
    if origin in ("command line", "default"):
        return Exclude(settings["exclude"])
    return Exclude(settings["exclude"], source=f"exclude in {origin}", named=settings.origin["paths"] != "command line")


def known_rules(loaded) -> tuple[list, dict]:
    """Every rule a run may meet: those of the bundled rulesets (abstract bases too) and of the chosen one, from
    the run's rulesets (``loaded``, :class:`compliance.engine.RulesetCache`: each loaded once); and the rule ids
    they renamed (old id -> :class:`compliance.redirects.Redirect`)."""
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


def plan_outputs(settings: config.Settings, format_given: bool, output_given: bool) -> list[tuple[str, Path]]:
    """Every report to write, as (format, path); path ``-`` is standard output.

    Outputs replace standard output (``FORMAT=-`` asks for it too); a format given with the request still
    prints beside the reports the configuration writes.
    """
    try:
        outputs = parse_outputs(settings["output"], settings["format"])
    except UserError as e:
        origin = settings.origin["output"]
        raise UserError(e.message, e.where if origin in ("command line", "default") else origin) from None
    if not outputs or (format_given and not output_given):
        outputs.append((settings["format"] or "text", Path("-")))
    return outputs


def write_reports(report: Report, outputs: list[tuple[str, Path]], baseline: Path | None,
                  options: RenderOptions = RenderOptions(), statistics: bool = False,
                  terminal: bool = False) -> tuple[str, str | None]:
    """Render each report once, files written atomically (compliance.outputs: never through a link, never
    over a device; a missing directory made), and the baseline; return what goes to standard output and its
    format (None: none).  ``statistics``: standard output gets the counts by rule instead of the report."""
    printed: list[str] = []
    to_stdout = None
    for out_format, path in outputs:
        if outputs_file.resolve(path).kind == "stdout":
            if statistics:
                continue
            to_stdout = out_format
            printed.append(render(report, out_format, terminal=out_format == "text" and terminal, stdout=True,
                                  options=options))
        else:
            outputs_file.make_directory(path, "the report's")
            outputs_file.write(path, render(report, out_format, options=options).encode("utf-8"),
                               "cannot write report")
    if statistics:
        from compliance.report.text import render_statistics

        as_json = any(f == "json" and outputs_file.resolve(p).kind == "stdout" for f, p in outputs)
        printed.append(statistics_json(report) if as_json else render_statistics(report))
    if baseline:
        from compliance import baseline as baseline_file

        outputs_file.make_directory(baseline, "the report's")
        outputs_file.write(baseline, baseline_file.render(report.all_findings, report.tool_version).encode("utf-8"),
                           "cannot write baseline")
    return "".join(printed), to_stdout


def closing(report: Report, to_stdout: str | None, quiet: bool) -> list[tuple[str, str]]:
    """What standard error gets after standard output, as (kind, text): the text report on standard output
    ends with the warnings and the summary; else they go here.  Quiet, but never silent about a run that
    judged nothing, a configuration that judged none, or a verdict on partial evidence."""
    out: list[tuple[str, str]] = []
    if quiet:
        out += [("warning", w) for w in report.loud_warnings()]
        if report.not_judged:
            n = report.rules_not_judged
            out.append(("notice", f"{n:,} rule{'' if n == 1 else 's'} not judged for want of evidence"))
    if to_stdout != "text" and not quiet:
        out += [("warning", w) for w in report.warnings()]
        out += [("notice", n) for n in report.notices()]
        out.append(("summary", report.summary_line()))
    return out


def statistics_json(report: Report) -> str:
    """The counts by rule as JSON, and the money of the wrong settlements (its net first) where a finding has
    any, as the JSON report writes it."""
    doc: dict = {"rules": [{"rule": c.rule, "category": c.category, "severity": c.severity, "count": c.count,
                            "coups": c.coups, "title": c.title} for c in report.statistics()]}
    if report.money is not None:
        doc["money"] = report.money.as_dict()
    return json.dumps(doc, indent=2) + "\n"


def stdin_stream():
    """The process's standard input, as bytes."""
    return sys.stdin.buffer


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
