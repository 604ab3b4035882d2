"""JUnit XML (the Apache Ant schema CI systems read): a testsuite per transcript, a testcase per rule.

:func:`render` formats a :class:`~compliance.report.model.Report`: by default a testcase
per rule the transcript was judged by (failure, error, skipped for waived or not judged),
or, with ``per_coup`` (``--junit-cases coup``), a testcase per coup.  Times are ``0`` so
that the same input gives the same bytes; every string from the input is made printable
(:func:`compliance.printable.printable`) before it reaches a CI log.

What each testcase and status means: docs/reports.md, "Formats" (the ``junit`` row).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from compliance.printable import printable
from compliance.report.model import CoupView, Report, RuleGroup, TranscriptView
from compliance.report.text import plain_line

_NOT_XML = re.compile(r"[\ufffe\uffff]")


def _clean(text: str) -> str:
    """One line, safe to print: control and format characters made visible, and the two characters XML 1.0
    cannot carry that are not among them replaced."""
    return _NOT_XML.sub("\ufffd", printable(text))


def _lines(lines) -> str:
    """A body of several lines: each made safe, then joined."""
    return "\n".join(_clean(line) for line in lines)


def _case_name(cv: CoupView, taken: dict[str, int]) -> str:
    if cv.number is None:
        base = f"unreadable coup at line {cv.line}" if cv.line is not None else "unreadable coup"
    else:
        base = f"coup {cv.number}"
    taken[base] = taken.get(base, 0) + 1
    return base if taken[base] == 1 else f"{base} ({taken[base]})"


def _testcase(suite: ET.Element, report: Report, view: TranscriptView, cv: CoupView, name: str, out: list[str]):
    case = ET.SubElement(suite, "testcase", name=_clean(name), classname=_clean(view.result.transcript), time="0")
    failing = [f for f in cv.findings if report.fails(f)]
    out.extend(plain_line(f) for f in cv.findings if not report.fails(f))
    lines = [plain_line(f) for f in failing] + [plain_line(f, f"waived {f.severity}") + f" [waiver {e.key}]"
                                                for f, e in cv.waived]
    body = _lines(lines)
    unreadable = [f for f in cv.findings if f.category == "transcript.unreadable"]
    if unreadable:
        el = ET.SubElement(case, "error", message=_clean(unreadable[0].message), type="transcript.unreadable")
        el.text = _lines(plain_line(f) for f in cv.findings)
        return "error"
    if failing:
        first = failing[0]
        more = f" (+{len(failing) - 1} more)" if len(failing) > 1 else ""
        el = ET.SubElement(case, "failure", message=_clean(f"{first.rule}: {first.message}{more}"), type=first.category)
        el.text = body
        return "failure"
    if cv.waived and not cv.findings:
        keys = ", ".join(dict.fromkeys(e.key for _, e in cv.waived))
        el = ET.SubElement(case, "skipped", message=_clean(f"waived by waiver {keys}"))
        el.text = body
        return "skipped"
    return "passed"


_COUPS_NAMED = 20  # a failure's message names this many coups, then says how many more (its text lists them all)


def _coups(numbers: list[int | None]) -> str:
    shown = ", ".join("?" if n is None else str(n) for n in numbers[:_COUPS_NAMED])
    more = f" and {len(numbers) - _COUPS_NAMED:,} more" if len(numbers) > _COUPS_NAMED else ""
    return f"coup {shown}" if len(numbers) == 1 else f"coups {shown}{more}"


def _rule_case(suite: ET.Element, report: Report, view: TranscriptView, group: RuleGroup, out: list[str],
               not_judged=None) -> str:
    case = ET.SubElement(suite, "testcase", name=_clean(group.rule), classname=_clean(view.result.transcript),
                         time="0")
    failing = [f for f in group.findings if report.fails(f)]
    out.extend(plain_line(f) for f in group.findings if not report.fails(f))
    waived = [plain_line(f, f"waived {f.severity}") + f" [waiver {e.key}]" for f, e in group.waived]
    if group.findings and group.findings[0].category == "transcript.unreadable":
        n = len(group.findings)
        el = ET.SubElement(case, "error", type="transcript.unreadable",
                           message=_clean(f"{n:,} coup{'' if n == 1 else 's'} could not be read: "
                                          f"{_coups(group.coups)}"))
        el.text = _lines(plain_line(f) for f in group.findings)
        return "error"
    if failing:
        coups = list(dict.fromkeys(f.coup for f in failing))
        n = len(failing)
        title = f" ({group.bound.title})" if group.bound is not None else ""
        el = ET.SubElement(case, "failure", type=failing[0].category,
                           message=_clean(f"{group.rule}{title}: {n:,} finding{'' if n == 1 else 's'} in "
                                          f"{_coups(coups)}"))
        el.text = _lines([plain_line(f) for f in failing] + waived)
        return "failure"
    if group.waived and not group.findings:
        keys = ", ".join(dict.fromkeys(e.key for _, e in group.waived))
        el = ET.SubElement(case, "skipped", message=_clean(f"waived by waiver {keys}"))
        el.text = _lines(waived)
        return "skipped"
    if not_judged is not None and not group.findings:  # judged in no coup: the evidence it needs was not recorded
        el = ET.SubElement(case, "skipped", message=_clean(f"not judged {not_judged.extent}: {not_judged.reason}"))
        el.text = _clean(f"{group.rule} [{not_judged.rule.category}] ({not_judged.rule.citation_text}): the "
                         "evidence it needs was not recorded")
        return "skipped"
    return "passed"


def _suite(root: ET.Element, report: Report, view: TranscriptView, index: int, per_coup: bool) -> None:
    r = view.result
    suite = ET.SubElement(root, "testsuite", name=_clean(r.transcript), package=_clean(r.transcript), id=str(index),
                          timestamp=report.generated_iso.removesuffix("Z"), hostname="localhost",
                          tests="0", failures="0", errors="0", skipped="0", time="0")
    props = ET.SubElement(suite, "properties")
    for name, value in (("table", r.table), ("jurisdiction", r.jurisdiction or ""), ("game", r.game),
                        ("ruleset", r.ruleset.id), ("ruleset.version", r.ruleset.version),
                        ("ruleset.sha256", r.ruleset.sha256), ("sha256", r.sha256),
                        ("coups", str(r.coups)), ("fail-on", report.fail_on), ("tool.version", report.tool_version)):
        ET.SubElement(props, "property", name=name, value=_clean(value))
    for i, use in enumerate(r.versions):  # a ruleset with a history: each version that judged coups
        words = f"in force {use.ruleset.period.words()}: {use.coups} coups ({use.first}-{use.last})"
        ET.SubElement(props, "property", name=f"ruleset.version.{i + 1}", value=_clean(words))
    counts = {"failure": 0, "error": 0, "skipped": 0, "passed": 0}
    out: list[str] = []
    if per_coup:
        taken: dict[str, int] = {}
        cases = report.coups_of(view)
        for cv in cases:
            counts[_testcase(suite, report, view, cv, _case_name(cv, taken), out)] += 1
        apart = view.not_judged
    else:
        cases = report.rules_of(view)
        whole = {nj.rule.id: nj for nj in view.not_judged if nj.coups >= nj.of}
        for group in cases:
            counts[_rule_case(suite, report, view, group, out, whole.get(group.rule))] += 1
        apart = [nj for nj in view.not_judged if nj.rule.id not in whole]
    for nj in apart:  # a rule not judged in some coups: a testcase of its own, skipped, saying where and why
        case = ET.SubElement(suite, "testcase", name=_clean(f"{nj.rule.id} (not judged)" if not per_coup
                                                             else f"rule {nj.rule.id} (not judged)"),
                             classname=_clean(r.transcript), time="0")
        el = ET.SubElement(case, "skipped", message=_clean(f"not judged {nj.extent}: {nj.reason}"))
        el.text = _clean(f"{nj.rule.id} [{nj.rule.category}] ({nj.rule.citation_text}): the evidence it needs "
                         f"was not recorded")
        counts["skipped"] += 1
    suite.set("tests", str(len(cases) + len(apart)))
    suite.set("failures", str(counts["failure"]))
    suite.set("errors", str(counts["error"]))
    suite.set("skipped", str(counts["skipped"]))
    ET.SubElement(suite, "system-out").text = _lines(out)
    ET.SubElement(suite, "system-err").text = ""


def _errors_suite(root: ET.Element, report: Report, index: int) -> None:
    suite = ET.SubElement(root, "testsuite", name="inputs that could not be checked", package="baccarat-audit",
                          id=str(index), timestamp=report.generated_iso.removesuffix("Z"), hostname="localhost",
                          tests=str(len(report.errors)), failures="0", errors=str(len(report.errors)), skipped="0",
                          time="0")
    ET.SubElement(suite, "properties")
    for i, e in enumerate(report.errors, 1):
        case = ET.SubElement(suite, "testcase", name=f"input {i}", classname="baccarat-audit", time="0")
        ET.SubElement(case, "error", message=_clean(e), type="input").text = _clean(e)
    ET.SubElement(suite, "system-out").text = ""
    ET.SubElement(suite, "system-err").text = ""


def render(report: Report, per_coup: bool = False) -> str:
    """The run as JUnit XML: a test case per transcript and rule, or with ``per_coup`` per coup."""
    root = ET.Element("testsuites")
    for i, view in enumerate(report.transcripts):
        _suite(root, report, view, i, per_coup)
    if report.errors:
        _errors_suite(root, report, len(report.transcripts))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
