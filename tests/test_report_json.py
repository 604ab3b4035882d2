"""The JSON report: the spec's contract, run metadata, and its published JSON Schema."""

from __future__ import annotations

import json

import jsonschema
import pytest
from reporting import ROOT, STAMP, clean_doc, run, sample_into, with_unreadable_coup, write

from compliance.report.json import schema
from compliance.ruleset.loader import load_ruleset

CONTRACT = ["rule", "category", "severity", "transcript", "coup", "event", "message", "citation"]


def validate(doc: dict) -> None:
    jsonschema.Draft202012Validator(schema()).validate(doc)


@pytest.fixture
def report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "broken.json", with_unreadable_coup(clean_doc(3)))
    r = run("check", "night-shift.json", "broken.json", "--format", "json", "--timestamp", STAMP)
    assert r.exit_code == 1
    return json.loads(r.stdout)


def test_the_report_validates_against_its_published_schema(report):
    validate(report)


def test_the_published_schema_is_the_generated_one():
    """docs/report-schema.json is `baccarat-audit schema report`; regenerate it when the models change."""
    published = json.loads((ROOT / "docs" / "report-schema.json").read_text())
    assert published == json.loads(json.dumps(schema())), "run: baccarat-audit schema report > docs/report-schema.json"


def test_findings_keep_the_spec_contract_fields(report):
    first = report["findings"][0]
    assert list(first)[:8] == CONTRACT
    assert {k: first[k] for k in CONTRACT} == {
        "rule": "BAC-DRAW-BANKER-ILLEGAL", "category": "third-card.banker.illegal", "severity": "error",
        "transcript": "night-shift.json", "coup": 3, "event": 9,
        "message": "Banker drew 8D on 7 although the Player's third card was 5 (5C); the Banker stands on 7 against a 5",
        "citation": "N.J.A.C. 13:69F-3.9"}
    assert (first["line"], first["column"]) == (241, 5)
    assert set(schema()["$defs"]["FindingOut"]["required"]) >= set(CONTRACT)


def test_counts_per_run_transcript_and_category(report):
    assert report["schema_version"] and report["tool_version"] and report["generated"] == STAMP
    nj = load_ruleset("us-nj")
    assert report["rulesets"] == [{"id": "us-nj", "version": nj.version, "sha256": nj.sha256, "title": nj.title}]
    night, broken = report["transcripts"]
    assert night["findings"] == {"error": 6, "warning": 0, "info": 0}
    assert night["categories"]["third-card.banker.illegal"] == 2
    assert night["ruleset"] == {"id": "us-nj", "version": nj.version, "sha256": nj.sha256}
    assert len(night["sha256"]) == 64
    assert broken["unreadable_coups"] == 1 and broken["coups"] == 3
    assert report["counts"]["transcripts"] == 2 and report["counts"]["coups"] == 9
    assert report["counts"]["findings"] == len(report["findings"]) == 7
    assert report["exit_code"] == 1 and report["fail_on"] == "error"


def test_a_run_that_could_not_read_a_file_still_reports_and_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    r = run("check", "clean.json", "absent.json", "-f", "json")
    doc = json.loads(r.stdout)
    validate(doc)
    assert r.exit_code == 2 and doc["exit_code"] == 2
    assert doc["errors"] == ["absent.json: no such file or directory"]
    assert doc["findings"] == []
