"""A configuration file planted beside the evidence, and a look-alike ruleset, never narrow a verdict unseen
(issue 24, sections 6 and 7).

* Every report format names the configuration file the run used (its path and hash) and the rules it turned
  off; a configuration that turns off every rule of a ruleset is a warning; ``--isolated`` reads none, and the
  sample's 6 errors come back.
* A ruleset loaded from a file is named as such in every format, with what it changes of the bundled ruleset
  whose id it takes; ``ruleset lint`` warns when a file takes a bundled id.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compliance.cli import app
from compliance.ruleset.lint import lint_file

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
FORMATS = ("text", "json", "sarif", "html", "markdown")
#: the five rules the look-alike turns off: the sample's breaches among them
TURNED_OFF = ["BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING", "BAC-DRAW-PLAYER-ILLEGAL",
              "BAC-DRAW-PLAYER-MISSING", "BAC-SETTLE-AMOUNT"]


def check(*args: str):
    return CliRunner().invoke(app, ["check", *args, "--timestamp", "2026-11-29T00:00:00Z", "-j", "1"])


@pytest.fixture
def evidence(tmp_path, monkeypatch) -> Path:
    """An evidence folder shipping a configuration that ignores every rule; the auditor works inside it."""
    folder = tmp_path / "evidence"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "night-shift.json")
    (folder / ".baccarat-audit.yaml").write_text("ignore: ['*']\n")
    monkeypatch.chdir(folder)
    return folder


def test_every_format_names_the_planted_configuration_and_what_it_turned_off(evidence):
    digest = hashlib.sha256((evidence / ".baccarat-audit.yaml").read_bytes()).hexdigest()
    for fmt in FORMATS:
        r = check("night-shift.json", "-f", fmt)
        assert r.exit_code == 0, fmt  # what the configuration asks for: every rule off ...
        out = r.stdout
        assert ".baccarat-audit.yaml" in out and digest in out, fmt  # ... and every report says which file
        assert "BAC-DRAW-BANKER-ILLEGAL" in out, fmt  # and names the rules it turned off
    doc = json.loads(check("night-shift.json", "-f", "json").stdout)
    assert doc["configuration"]["sha256"] == digest
    assert set(TURNED_OFF) <= set(doc["configuration"]["turns_off"])
    sarif = json.loads(check("night-shift.json", "-f", "sarif").stdout)
    assert sarif["runs"][0]["properties"]["configuration"]["sha256"] == digest


def test_a_configuration_turning_off_every_rule_of_a_ruleset_is_a_warning(evidence):
    text = check("night-shift.json").stdout
    assert "warning: the configuration" in text and "turns off every rule of the ruleset us-nj" in text
    for fmt in ("markdown", "html", "sarif"):
        assert "turns off every rule of the ruleset us-nj" in check("night-shift.json", "-f", fmt).stdout, fmt


def test_isolated_reads_no_configuration_and_the_six_errors_come_back(evidence):
    r = check("night-shift.json", "--isolated", "-f", "json")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [f["severity"] for f in doc["findings"]] == ["error"] * 6
    assert doc["configuration"] == {"isolated": True}
    assert "configuration: none read (--isolated)" in check("night-shift.json", "--isolated").stdout


def test_isolated_with_a_configuration_file_named_is_one_clear_error(evidence):
    r = check("night-shift.json", "--isolated", "--config", ".baccarat-audit.yaml")
    assert r.exit_code == 2 and "--isolated reads no configuration file" in r.output and "Traceback" not in r.output


def test_a_configuration_that_turns_nothing_off_is_named_and_the_verdict_stands(evidence):
    (evidence / ".baccarat-audit.yaml").write_text("fail-on: error\n")
    r = check("night-shift.json", "-f", "json")
    assert r.exit_code == 1 and len(json.loads(r.stdout)["findings"]) == 6
    assert json.loads(r.stdout)["configuration"]["turns_off"] == []


def test_without_a_configuration_file_the_reports_are_as_before(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = json.loads(check(str(SAMPLE), "-f", "json").stdout)
    assert "configuration" not in doc and all("origin" not in rs for rs in doc["rulesets"])
    assert "configuration" not in check(str(SAMPLE)).stdout


# ------------------------------------------------------------------ a look-alike ruleset


@pytest.fixture
def lookalike(tmp_path) -> Path:
    """``id: us-nj``, the same title and version 2026.11, five rules turned off."""
    text = (ROOT / "rulesets" / "us-nj.yaml").read_text(encoding="utf-8")
    for rid in TURNED_OFF:
        text = text.replace(f"  {rid}: {{citation:", f"  {rid}: {{enabled: false, citation:", 1)
    assert text.count("enabled: false") == 5
    path = tmp_path / "us-nj.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_format_names_a_lookalike_ruleset_as_a_file_and_what_it_changes(lookalike, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for fmt in FORMATS:
        out = check(str(SAMPLE), "-r", str(lookalike), "-f", fmt).stdout
        assert "us-nj.yaml" in out, fmt  # the file (relative to the working directory, where it is)
        if fmt in ("text", "markdown", "html"):
            assert "loaded from the file us-nj.yaml" in out, fmt
            assert "5 rules turned off" in out and "the bundled ruleset of the same id" in out, fmt
    doc = json.loads(check(str(SAMPLE), "-r", str(lookalike), "-f", "json").stdout)
    (rs,) = doc["rulesets"]
    assert rs["id"] == "us-nj" and rs["origin"]["takes_bundled_id"] is True and rs["origin"]["file"] == "us-nj.yaml"
    assert rs["origin"]["disabled"] == sorted(TURNED_OFF) and rs["origin"]["base"] == "us-nj"
    sarif = json.loads(check(str(SAMPLE), "-r", str(lookalike), "-f", "sarif").stdout)
    assert sarif["runs"][0]["properties"]["rulesets"][0]["origin"]["disabled"] == sorted(TURNED_OFF)


def test_a_house_ruleset_is_named_with_what_it_changes_of_the_ruleset_it_extends(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    house = ROOT / "fixtures" / "rulesets" / "harbour-casino.yaml"
    doc = json.loads(check(str(SAMPLE), "-r", str(house), "-f", "json").stdout)
    origin = doc["rulesets"][0]["origin"]
    assert origin["base"] == "au-nsw" and origin["takes_bundled_id"] is False and origin["changed"]


def test_lint_warns_when_a_file_takes_a_bundled_id(lookalike):
    codes = [(d.severity, d.code) for d in lint_file(lookalike)]
    assert ("warning", "bundled-id") in codes
    assert "bundled-id" not in [d.code for d in lint_file(ROOT / "rulesets" / "us-nj.yaml")]
    house = [d.code for d in lint_file(ROOT / "fixtures" / "rulesets" / "harbour-casino.yaml")]
    assert "bundled-id" not in house
