"""SARIF 2.1.0, as GitHub code scanning reads it.

:func:`render` writes every rule of the run's rulesets once (its citation as help), every result with
its physical location and ``partialFingerprints`` from the finding's fingerprint (never its line), waived
findings as suppressed results, a rule not judged for want of evidence as a ``note`` result a
transcript, the money of a wrong settlement in ``properties``, and no ``security-severity`` (these are
compliance findings, not vulnerabilities).

Each field: docs/reports.md, "Formats" (the ``sarif`` row) and "Recordings that hold less than a transcript".
"""

from __future__ import annotations

import hashlib
import json
from pathlib import PurePosixPath
from urllib.parse import quote

from compliance.findings import Finding
from compliance.printable import json_safe
from compliance.report.model import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
FINGERPRINT = "baccaratFinding/v2"  # v2: the facts the finding states are part of it


def uri(path: str) -> str:
    """A relative URI for a path relative to the working directory; ``file://`` for an absolute one."""
    posix = path.replace("\\", "/")
    if PurePosixPath(posix).is_absolute():
        return "file://" + quote(posix)
    return quote(posix.removeprefix("./"))


def _rule(rule_id: str, versions) -> dict:
    if not versions:
        return {"id": rule_id, "shortDescription": {"text": rule_id}}
    _, first = versions[0]
    citations = []
    for rs, rule in versions:
        cite = rule.citation_text or "no citation"
        line = f"{cite} ({rs.id} {rs.version})"
        if line not in citations:
            citations.append(line)
    summary = first.summary or first.title
    help_text = "Regulation: " + "; ".join(citations) + "\n\n" + summary
    help_md = "**Regulation:** " + "; ".join(citations) + "\n\n" + summary + \
              f"\n\nCategory: `{first.category}`"
    return {
        "id": rule_id,
        "name": "".join(p.capitalize() for p in rule_id.replace("_", "-").replace(".", "-").split("-") if p),
        "shortDescription": {"text": first.title},
        "fullDescription": {"text": summary},
        "help": {"text": help_text, "markdown": help_md},
        "defaultConfiguration": {"level": LEVEL[first.severity]},
        "properties": {"category": first.category,  # tagged with the games of the rulesets that define it
                       "tags": [*dict.fromkeys(rs.game_kind for rs, _ in versions), "compliance", first.category],
                       "citations": [rs_rule.citation_text for _, rs_rule in versions]},
    }


def _result(f: Finding, rule_index: dict[str, int], artifact_index: dict[str, int], waiver=None) -> dict:
    region = {}
    if f.line is not None:
        region = {"startLine": f.line}
        if f.column is not None:
            region["startColumn"] = f.column
    physical = {"artifactLocation": {"uri": uri(f.transcript), "index": artifact_index[f.transcript]}}
    if region:
        physical["region"] = region
    where = "/".join(x for x in (f.table or "", f"coup {'?' if f.coup is None else f.coup}",
                                 None if f.event is None else f"event {f.event}") if x)
    text = f.message + (f" ({f.citation})" if f.citation else "")
    out = {
        "ruleId": f.rule,
        "ruleIndex": rule_index[f.rule],
        "level": LEVEL[f.severity],
        "message": {"text": text},
        "locations": [{"physicalLocation": physical, "logicalLocations": [{"fullyQualifiedName": where}]}],
        "partialFingerprints": {FINGERPRINT: f.fingerprint},
        "properties": {"category": f.category, "severity": f.severity, "citation": f.citation, "coup": f.coup,
                       "event": f.event} | f.valued(),
    }
    if waiver is not None:
        w = waiver.waiver
        out["suppressions"] = [{"kind": "external", "status": "accepted",
                                "justification": f"waiver {waiver.key}: {w.justification} (approved by "
                                                 f"{w.approved_by}, until {w.expires.isoformat()})"}]
    return out


def _not_judged_result(nj, rule_index: dict[str, int], artifact_index: dict[str, int]) -> dict:
    """A rule not judged in a transcript for want of evidence: a ``note`` result on the transcript."""
    document = nj.transcript.split("#L", 1)[0]
    key = hashlib.sha256(f"not-judged\x00{nj.rule.id}\x00{nj.transcript}".encode()).hexdigest()
    return {
        "ruleId": nj.rule.id,
        "ruleIndex": rule_index[nj.rule.id],
        "kind": "notApplicable",
        "level": "note",
        "message": {"text": f"{nj.rule.id} not judged {nj.extent}: {nj.reason}; the verdict on this transcript "
                            "rests on partial evidence"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(document),
                                                                 "index": artifact_index[document]}}}],
        "partialFingerprints": {FINGERPRINT: key},
        "properties": {"notJudged": True, "transcript": nj.transcript, "category": nj.rule.category,
                       "citation": nj.rule.citation_text, "coups": nj.coups, "of": nj.of, "missing": nj.missing},
    }


def _notifications(report: Report, rule_index: dict[str, int], artifact_index: dict[str, int]) -> list[dict]:
    out = [{"level": "error", "message": {"text": e}} for e in report.errors]
    out += [{"level": "warning", "message": {"text": n}} for n in report.warnings() + report.notices()]
    out += [{"level": "note", "message": {"text": n}} for n in report.versions_applied()]
    for nj in report.not_judged:
        document = nj.transcript.split("#L", 1)[0]
        out.append({
            "level": "note",
            "message": {"text": f"{nj.rule.id} not judged {nj.extent}: {nj.reason}"},
            "associatedRule": {"id": nj.rule.id, "index": rule_index[nj.rule.id]},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(document),
                                                                     "index": artifact_index[document]}}}],
            "properties": {"notJudged": True, "transcript": nj.transcript, "category": nj.rule.category,
                           "citation": nj.rule.citation_text, "coups": nj.coups, "of": nj.of,
                           "missing": nj.missing},
        })
    return out


def document(report: Report) -> dict:
    rules = report.rules()
    rule_index = {rule_id: i for i, (rule_id, _) in enumerate(rules)}
    artifacts: list[dict] = []
    artifact_index: dict[str, int] = {}
    for view in report.transcripts:
        doc = view.document
        if doc not in artifact_index:
            artifact_index[doc] = len(artifacts)
            entry = {"location": {"uri": uri(doc)}}
            if doc == view.result.transcript:  # a whole file: its hash identifies what was checked
                entry["hashes"] = {"sha-256": view.result.sha256}
            artifacts.append(entry)
    results = [_result(f, rule_index, artifact_index) for f in report.findings]
    results += [_result(f, rule_index, artifact_index, e) for f, e in report.waived]
    results += [_not_judged_result(nj, rule_index, artifact_index) for nj in report.not_judged]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "baccarat-audit",
                "version": report.tool_version,
                "semanticVersion": report.tool_version,
                "rules": [_rule(rule_id, versions) for rule_id, versions in rules],
            }},
            "invocations": [{"executionSuccessful": not report.errors, "exitCode": report.exit_code,
                             "toolExecutionNotifications": _notifications(report, rule_index, artifact_index)}],
            "artifacts": artifacts,
            "results": results,
            "properties": {"rulesets": [{"id": rs.id, "version": rs.version, "sha256": rs.sha256}
                                        | report.origin_dict(rs) for rs in report.rulesets],
                           "failOn": report.fail_on}
                          | report.configuration_dict()
                          | ({} if report.money is None else {"money": report.money.as_dict()}),
        }],
    }


def render(report: Report) -> str:
    """SARIF; control and format characters in its strings are written as ``\\u`` escapes."""
    return json_safe(json.dumps(document(report), indent=2, ensure_ascii=False)) + "\n"
