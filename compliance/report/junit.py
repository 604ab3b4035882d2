"""JUnit XML (the Apache Ant schema CI systems read): a testsuite per transcript, a testcase per coup.

* a coup with a reported finding at or above ``--fail-on`` is a ``failure``
  carrying its findings (type: the category of the first);
* a coup whose findings are all waived is ``skipped``, naming the waivers;
* an unreadable coup is an ``error`` (type ``transcript.unreadable``);
* findings below ``--fail-on`` do not fail their coup; they are listed in the
  suite's ``system-out``;
* a rule not judged for want of evidence (a recording that holds less than a
  whole transcript) is a testcase of its own, ``skipped`` with the reason
  ("calls not recorded").

Testcase names are unique in their suite (``coup 17``; a repeated number gets
`` (2)``).  Times are not measured (``0``) so that the report is the same
bytes for the same input; the timestamp is the run's (``--timestamp``).

CI systems print these messages in their logs and test views, so every
string from the input has its control and format characters made visible
(:func:`compliance.printable.printable`; the lines of a body are each made
safe, then joined): no CR, LF or ESC of a transcript reaches the log.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from compliance.printable import printable
from compliance.report.model import CoupView, Report, TranscriptView
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


def _suite(root: ET.Element, report: Report, view: TranscriptView, index: int) -> None:
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
    counts = {"failure": 0, "error": 0, "skipped": 0, "passed": 0}
    taken: dict[str, int] = {}
    out: list[str] = []
    coups = report.coups_of(view)
    for cv in coups:
        counts[_testcase(suite, report, view, cv, _case_name(cv, taken), out)] += 1
    for nj in view.not_judged:
        case = ET.SubElement(suite, "testcase", name=_clean(f"rule {nj.rule.id} (not judged)"),
                             classname=_clean(r.transcript), time="0")
        el = ET.SubElement(case, "skipped", message=_clean(f"not judged {nj.extent}: {nj.reason}"))
        el.text = _clean(f"{nj.rule.id} [{nj.rule.category}] ({nj.rule.citation_text}): the evidence it needs "
                         f"was not recorded")
        counts["skipped"] += 1
    suite.set("tests", str(len(coups) + len(view.not_judged)))
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


def render(report: Report) -> str:
    root = ET.Element("testsuites")
    for i, view in enumerate(report.transcripts):
        _suite(root, report, view, i)
    if report.errors:
        _errors_suite(root, report, len(report.transcripts))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
