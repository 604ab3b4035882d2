"""SARIF 2.1.0 for code scanning: valid, each rule once with its citation, exact locations, stable fingerprints."""

from __future__ import annotations

import json

import pytest
from reporting import STAMP, clean_doc, run, sample_doc, sample_into, sarif_validator, with_unreadable_coup, write


@pytest.fixture
def sarif(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "--format", "sarif", "--timestamp", STAMP)
    assert r.exit_code == 1
    return json.loads(r.stdout)


def test_the_sample_report_is_valid_sarif(sarif):
    errors = sorted(sarif_validator().iter_errors(sarif), key=str)
    assert not errors, errors[0]
    assert sarif["version"] == "2.1.0"


def test_every_rule_is_listed_once_with_its_citation_as_help(sarif):
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids))
    banker = next(r for r in rules if r["id"] == "BAC-DRAW-BANKER-ILLEGAL")
    assert "N.J.A.C. 13:69F-3.9" in banker["help"]["text"]
    assert banker["properties"]["category"] == "third-card.banker.illegal"
    for result in sarif["runs"][0]["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_results_point_at_the_event_line_relative_to_the_working_directory(sarif):
    results = sarif["runs"][0]["results"]
    assert len(results) == 6
    late = next(r for r in results if r["ruleId"] == "BAC-WAGER-LATE")
    where = late["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "night-shift.json"
    assert where["region"] == {"startLine": 453, "startColumn": 5}
    assert late["level"] == "error"
    assert "N.J.A.C. 13:69F-3.7(b)" in late["message"]["text"]


def test_no_security_severity_anywhere(sarif):
    assert "security-severity" not in json.dumps(sarif)


def test_fingerprints_follow_the_logical_finding_not_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.json", sample_doc(), indent=1)
    first = json.loads(run("check", "a.json", "-f", "sarif").stdout)["runs"][0]["results"]
    write(tmp_path / "a.json", sample_doc(), indent=4)  # every line moves
    second = json.loads(run("check", "a.json", "-f", "sarif").stdout)["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"] for r in first] != \
           [r["locations"][0]["physicalLocation"]["region"] for r in second]
    assert [r["partialFingerprints"] for r in first] == [r["partialFingerprints"] for r in second]
    assert len({r["partialFingerprints"]["baccaratFinding/v2"] for r in first}) == len(first)


def test_waived_findings_are_suppressed_results(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "waivers.yaml").write_text(
        "waivers:\n  - id: W-1\n    rule: BAC-WAGER-LATE\n    justification: wager accepted by the pit boss\n"
        "    approved_by: A. Auditor\n    expires: 2030-01-01\n")
    r = run("check", "night-shift.json", "-f", "sarif", "--waivers", "waivers.yaml", "--timestamp", STAMP)
    doc = json.loads(r.stdout)
    assert not list(sarif_validator().iter_errors(doc))
    suppressed = [x for x in doc["runs"][0]["results"] if x.get("suppressions")]
    assert [x["ruleId"] for x in suppressed] == ["BAC-WAGER-LATE"]
    assert suppressed[0]["suppressions"][0]["status"] == "accepted"
    assert "A. Auditor" in suppressed[0]["suppressions"][0]["justification"]


def test_a_clean_run_and_an_unreadable_coup_are_valid_sarif_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    write(tmp_path / "broken.json", with_unreadable_coup(clean_doc(3)))
    r = run("check", "clean.json", "broken.json", "missing.json", "-f", "sarif")
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    assert not list(sarif_validator().iter_errors(doc))
    results = doc["runs"][0]["results"]
    assert [x["properties"]["category"] for x in results] == ["transcript.unreadable"]
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.json"
    invocation = doc["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "missing.json" in invocation["toolExecutionNotifications"][0]["message"]["text"]
