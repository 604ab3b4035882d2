"""JUnit XML for CI: valid against the JUnit XSD, a suite per transcript, a testcase per coup."""

from __future__ import annotations

from lxml import etree
from reporting import STAMP, clean_doc, junit_schema, run, sample_into, with_unreadable_coup, write


def junit(*args) -> tuple[int, etree._Element]:
    r = run("check", *args, "--format", "junit", "--timestamp", STAMP)
    root = etree.fromstring(r.stdout.encode())
    schema = junit_schema()
    assert schema.validate(root), schema.error_log
    return r.exit_code, root


def cases(suite) -> dict[str, str]:
    """testcase name -> failure, error, skipped or passed."""
    out = {}
    for case in suite.findall("testcase"):
        child = next(iter(case), None)
        out[case.get("name")] = child.tag if child is not None else "passed"
    return out


def test_one_suite_per_transcript_one_testcase_per_coup(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "clean.json", clean_doc(4))
    code, root = junit("night-shift.json", "clean.json")
    assert code == 1
    night, clean = root.findall("testsuite")
    assert night.get("name") == "night-shift.json" and clean.get("name") == "clean.json"
    assert cases(night) == {"coup 1": "passed", "coup 2": "passed", "coup 3": "failure", "coup 4": "failure",
                            "coup 5": "failure", "coup 6": "failure"}
    assert (night.get("tests"), night.get("failures"), night.get("errors")) == ("6", "4", "0")
    assert set(cases(clean).values()) == {"passed"} and clean.get("tests") == "4"


def test_failures_carry_the_findings_and_their_citations(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    _, root = junit("night-shift.json")
    coup4 = root.find("testsuite/testcase[@name='coup 4']/failure")
    assert "BAC-DRAW-BANKER-MISSING" in coup4.text and "BAC-DRAW-PLAYER-MISSING" in coup4.text
    assert "N.J.A.C. 13:69F-3.9" in coup4.text
    assert coup4.get("type") == "third-card.banker.missing"


def test_waived_coups_are_skipped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "w.yaml").write_text(
        "- {rule: BAC-WAGER-LATE, coups: [6], justification: late wager accepted by the pit boss, "
        "approved_by: A. Auditor, expires: 2030-01-01}\n")
    _, root = junit("night-shift.json", "--waivers", "w.yaml")
    suite = root.find("testsuite")
    assert cases(suite)["coup 6"] == "skipped"
    assert suite.get("skipped") == "1"
    assert "waiver #1" in suite.find("testcase[@name='coup 6']/skipped").get("message")


def test_unreadable_coups_are_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "broken.json", with_unreadable_coup(clean_doc(3), 2))
    code, root = junit("broken.json")
    suite = root.find("testsuite")
    assert cases(suite) == {"coup 1": "passed", "coup 2": "error", "coup 3": "passed"}
    assert suite.find("testcase[@name='coup 2']/error").get("type") == "transcript.unreadable"


LENIENT = """id: us-nj-lenient
title: New Jersey, late wagers as warnings
version: "1"
extends: us-nj
overrides:
  BAC-WAGER-LATE: {severity: warning}
"""


def test_findings_below_fail_on_do_not_fail_their_coup(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "lenient.yaml").write_text(LENIENT)
    _, root = junit("night-shift.json", "-r", "lenient.yaml")
    suite = root.find("testsuite")
    assert cases(suite)["coup 6"] == "passed"
    assert "warning BAC-WAGER-LATE" in suite.find("system-out").text
    _, root = junit("night-shift.json", "-r", "lenient.yaml", "--fail-on", "warning")
    assert cases(root.find("testsuite"))["coup 6"] == "failure"


def test_inputs_that_cannot_be_checked_are_an_error_suite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    code, root = junit("clean.json", "nowhere.json")
    assert code == 2
    errors = root.findall("testsuite")[-1]
    assert errors.get("errors") == "1" and "nowhere.json" in errors.find("testcase/error").get("message")
