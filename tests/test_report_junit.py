"""JUnit XML for CI: valid against the JUnit XSD, a suite per transcript, a testcase per rule (the failing coups
listed in its failure), or with --junit-cases coup a testcase per coup."""

from __future__ import annotations

from lxml import etree
from reporting import (
    STAMP,
    breaching_transcripts,
    clean_doc,
    junit_schema,
    run,
    sample_into,
    with_unreadable_coup,
    write,
)


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


SAMPLE_FAILING = {"BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING", "BAC-DRAW-PLAYER-MISSING",
                  "BAC-SETTLE-AMOUNT", "BAC-WAGER-LATE"}


def test_one_suite_per_transcript_one_testcase_per_rule(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "clean.json", clean_doc(4))
    code, root = junit("night-shift.json", "clean.json")
    assert code == 1
    night, clean = root.findall("testsuite")
    assert night.get("name") == "night-shift.json" and clean.get("name") == "clean.json"
    from compliance.ruleset.loader import load_ruleset

    rules = {r.id for r in load_ruleset("us-nj").rules}
    assert set(cases(night)) == rules  # every rule the transcript was judged by, passed or failed
    assert {name for name, outcome in cases(night).items() if outcome == "failure"} == SAMPLE_FAILING
    assert (night.get("tests"), night.get("failures"), night.get("errors")) == (str(len(rules)), "5", "0")
    assert set(cases(clean).values()) == {"passed"} and clean.get("tests") == str(len(rules))


def test_a_failure_names_its_coups_and_lists_each_finding_with_its_citation(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    _, root = junit("night-shift.json")
    failure = root.find("testsuite/testcase[@name='BAC-DRAW-BANKER-ILLEGAL']/failure")
    assert failure.get("message") == ("BAC-DRAW-BANKER-ILLEGAL (Banker's Hand draws only when the tableau says draw): "
                                      "2 findings in coups 3, 5")
    assert failure.get("type") == "third-card.banker.illegal"
    lines = failure.text.splitlines()
    assert [line.split(": error ")[0] for line in lines] == ["night-shift.json:241:5", "night-shift.json:399:5"]
    assert all("N.J.A.C. 13:69F-3.9" in line for line in lines)


def test_the_test_cases_follow_the_rules_not_the_number_of_coups(tmp_path, monkeypatch):
    """The size of the report follows the rules and the findings, not the coups."""
    monkeypatch.chdir(tmp_path)
    breaching_transcripts(tmp_path, 2_000, tables=1)
    _, root = junit("table-01.json")
    suite = root.find("testsuite")
    assert len(suite.findall("testcase")) == len(cases(suite)) < 40
    failure = suite.find("testcase[@name='BAC-WAGER-LATE']/failure")
    assert failure.get("message").endswith("500 findings in coups 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, "
                                           "56, 60, 64, 68, 72, 76, 80 and 480 more")
    assert len(failure.text.splitlines()) == 500  # every failing coup, one line each


def test_per_coup_test_cases_on_request(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "clean.json", clean_doc(4))
    code, root = junit("night-shift.json", "clean.json", "--junit-cases", "coup")
    night, clean = root.findall("testsuite")
    assert cases(night) == {"coup 1": "passed", "coup 2": "passed", "coup 3": "failure", "coup 4": "failure",
                            "coup 5": "failure", "coup 6": "failure"}
    assert (night.get("tests"), night.get("failures"), night.get("errors")) == ("6", "4", "0")
    assert set(cases(clean).values()) == {"passed"} and clean.get("tests") == "4"
    coup4 = night.find("testcase[@name='coup 4']/failure")
    assert "BAC-DRAW-BANKER-MISSING" in coup4.text and "BAC-DRAW-PLAYER-MISSING" in coup4.text
    (tmp_path / ".baccarat-audit.yaml").write_text("junit-cases: coup\n")  # or in the configuration
    _, root = junit("night-shift.json")
    assert "coup 3" in cases(root.find("testsuite"))


def test_waived_rules_are_skipped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "w.yaml").write_text(
        "- {rule: BAC-WAGER-LATE, coups: [6], justification: late wager accepted by the pit boss, "
        "approved_by: A. Auditor, expires: 2030-01-01}\n")
    _, root = junit("night-shift.json", "--waivers", "w.yaml")
    suite = root.find("testsuite")
    assert cases(suite)["BAC-WAGER-LATE"] == "skipped"
    assert suite.get("skipped") == "1"
    assert "waiver #1" in suite.find("testcase[@name='BAC-WAGER-LATE']/skipped").get("message")


def test_unreadable_coups_are_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "broken.json", with_unreadable_coup(clean_doc(3), 2))
    code, root = junit("broken.json")
    suite = root.find("testsuite")
    assert {k for k, v in cases(suite).items() if v != "passed"} == {"BAC-TRANSCRIPT"}
    error = suite.find("testcase[@name='BAC-TRANSCRIPT']/error")
    assert error.get("type") == "transcript.unreadable" and error.get("message") == "1 coup could not be read: coup 2"
    _, root = junit("broken.json", "--junit-cases", "coup")
    assert cases(root.find("testsuite")) == {"coup 1": "passed", "coup 2": "error", "coup 3": "passed"}


LENIENT = """id: us-nj-lenient
title: New Jersey, late wagers as warnings
version: "1"
extends: us-nj
overrides:
  BAC-WAGER-LATE: {severity: warning}
"""


def test_findings_below_fail_on_do_not_fail_their_rule(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "lenient.yaml").write_text(LENIENT)
    _, root = junit("night-shift.json", "-r", "lenient.yaml")
    suite = root.find("testsuite")
    assert cases(suite)["BAC-WAGER-LATE"] == "passed"
    assert "warning BAC-WAGER-LATE" in suite.find("system-out").text
    _, root = junit("night-shift.json", "-r", "lenient.yaml", "--fail-on", "warning")
    assert cases(root.find("testsuite"))["BAC-WAGER-LATE"] == "failure"


def test_inputs_that_cannot_be_checked_are_an_error_suite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    code, root = junit("clean.json", "nowhere.json")
    assert code == 2
    errors = root.findall("testsuite")[-1]
    assert errors.get("errors") == "1" and "nowhere.json" in errors.find("testcase/error").get("message")
