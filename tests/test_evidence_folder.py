"""A run that judged nothing fails; a configuration found beside the evidence writes nothing.

* a run that judged no coup (standard input that holds no transcript, a transcript whose import rejected every
  row, only empty transcripts) exits 2 with one message, `-q` too;
* a file the auditor names is checked whatever a configuration's `exclude` says;
* a configuration found by searching upward may not name reports to write (it may have come in the folder of
  recordings): refused, exit 2, nothing written; `--config` may name them (docs/security.md).
"""

from __future__ import annotations

import json
from pathlib import Path

from reporting import clean_doc, run, sample_into, write
from typer.testing import CliRunner

from compliance.cli import app


def _with_stdin(args: list[str], text: str):
    result = CliRunner().invoke(app, args, input=text, env={"NO_COLOR": "1"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


# ------------------------------------------------------------------ a run that judged nothing


def test_standard_input_that_holds_no_transcript_fails_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["check", "-"], ["check", "-", "-q"], ["check", "-", "-f", "json"]):
        r = _with_stdin(args, "hello\n")
        assert r.exit_code == 2, r.output
        assert r.stderr.count("<stdin>: not a transcript") == 1


def test_a_named_markdown_document_without_a_transcript_is_not_passed_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "README.md").write_text("# Notes\n\nNo transcript here.\n")
    r = run("check", "night-shift.json", "README.md")
    assert r.exit_code == 2 and "README.md: not a transcript" in r.stderr


def test_a_transcript_whose_import_rejected_every_row_fails_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = {**clean_doc(), "coups": [],
           "rejected_rows": [{"log": "shoe.csv", "line": n, "reason": "not a card", "cells": ["BAC-07", "S1", "x"]}
                             for n in (2, 3)]}
    write(tmp_path / "imported.json", doc)
    for quiet in ([], ["-q"]):
        r = run("check", "imported.json", *quiet)
        assert r.exit_code == 2
        said = r.stdout + r.stderr
        assert said.count("imported.json: holds no coup: nothing was checked") == 1


def test_transcripts_without_a_coup_fail_the_run_in_one_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a.json", "b.json"):
        write(tmp_path / name, {**clean_doc(), "coups": []})
    r = run("check", "a.json", "b.json", "-f", "json")
    assert r.exit_code == 2
    assert r.stderr.count("warning:") == 1
    assert "nothing was checked: none of the 2 transcripts holds a coup (a.json, b.json)" in r.stderr
    sarif = run("check", "a.json", "b.json", "-f", "sarif")
    assert json.loads(sarif.stdout)["runs"][0]["invocations"][0]["exitCode"] == 2


def test_one_empty_transcript_beside_judged_ones_is_a_warning_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    write(tmp_path / "empty.json", {**clean_doc(), "coups": []})
    r = run("check", "clean.json", "empty.json")
    assert r.exit_code == 0 and "warning: empty.json: holds no coup: nothing was checked" in r.stdout


def test_a_named_file_is_checked_whatever_the_configuration_excludes(tmp_path, monkeypatch):
    evidence = tmp_path / "evidence"
    evidence.mkdir()
    sample_into(evidence)
    (evidence / ".baccarat-audit.yaml").write_text('exclude: ["*.json"]\n')
    monkeypatch.chdir(evidence)
    r = run("check", "night-shift.json")
    assert r.exit_code == 1 and "checked 1 transcript, 6 coups" in r.stdout
    assert "excluded" not in r.stderr
    r = run("check", ".")  # what a directory holds is still passed over by the configuration's exclude
    assert r.exit_code == 2
    r = run("check", "night-shift.json", "--exclude", "night-shift.json")  # the auditor's own --exclude
    assert r.exit_code == 2 and "night-shift.json: excluded (--exclude)" in r.stderr


def test_a_configurations_exclude_is_never_blamed_on_the_exclude_flag(tmp_path, monkeypatch):
    evidence = tmp_path / "evidence"
    evidence.mkdir()
    sample_into(evidence)
    (evidence / ".baccarat-audit.yaml").write_text('paths: [night-shift.json]\nexclude: ["*.json"]\n')
    monkeypatch.chdir(evidence)
    r = run("check")  # the configuration names the file and excludes it: its own doing, said as such
    assert r.exit_code == 2
    assert "excluded (exclude in .baccarat-audit.yaml)" in r.stderr and "--exclude" not in r.stderr


# ------------------------------------------------------------------ a configuration found beside the evidence


def _evidence_folder(tmp_path: Path, output: str, transcript: str = "night-shift.json") -> Path:
    evidence = tmp_path / "evidence"
    evidence.mkdir()
    sample_into(evidence, transcript)
    (evidence / ".baccarat-audit.yaml").write_text(f"output: [{json.dumps(output)}]\n")
    return evidence


def test_a_configuration_beside_the_evidence_may_not_write_a_report(tmp_path, monkeypatch):
    evidence = _evidence_folder(tmp_path, "text=../victim.txt")
    (tmp_path / "victim.txt").write_text("the auditor's notes\n")
    monkeypatch.chdir(evidence)
    for fmt in ("text", "json", "sarif", "github"):
        r = run("check", "night-shift.json", "-f", fmt)
        assert r.exit_code == 2 and r.stdout == ""
        assert ".baccarat-audit.yaml:1:1: setting output: a configuration found by searching upward" in r.stderr
        assert "Traceback" not in r.stderr
    assert (tmp_path / "victim.txt").read_text() == "the auditor's notes\n"


def test_a_planted_report_cannot_reach_the_shell(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# mine\n")
    monkeypatch.setenv("HOME", str(home))
    hostile = "x;touch${IFS}PWNED;#.json"
    evidence = _evidence_folder(tmp_path, "text=~/.bashrc", hostile)
    monkeypatch.chdir(evidence)
    r = run("check", hostile)
    assert r.exit_code == 2 and "may not name files to write" in r.stderr
    assert (home / ".bashrc").read_text() == "# mine\n"
    assert sorted(p.name for p in evidence.iterdir()) == sorted([".baccarat-audit.yaml", hostile])


def test_a_pyproject_found_upward_may_not_write_either(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.baccarat-audit]\noutput = ["json=r.json"]\n')
    r = run("check", "night-shift.json")
    assert r.exit_code == 2 and "pyproject.toml [tool.baccarat-audit]: setting output" in r.stderr
    assert not (tmp_path / "r.json").exists()
    assert run("config", "show").exit_code == 2  # what check would refuse is refused here too


def test_outputs_come_from_the_command_line_or_a_named_configuration(tmp_path, monkeypatch):
    evidence = _evidence_folder(tmp_path, "json=r.json")
    monkeypatch.chdir(evidence)
    r = run("check", "night-shift.json", "--config", ".baccarat-audit.yaml")
    assert r.exit_code == 1 and (evidence / "r.json").exists()
    (evidence / ".baccarat-audit.yaml").write_text("fail-on: warning\n")
    r = run("check", "night-shift.json", "-o", "mine.json")
    assert r.exit_code == 1 and (evidence / "mine.json").exists()


def test_quiet_still_says_the_configuration_turned_every_rule_off(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / ".baccarat-audit.yaml").write_text('ignore: ["*"]\n')
    r = run("check", "night-shift.json", "-q")
    assert r.exit_code == 0 and r.stdout == ""
    assert r.stderr.count("turns off every rule of the ruleset us-nj") == 1


def test_a_baseline_is_not_written_as_a_success_from_a_run_that_judged_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "empty.json", {**clean_doc(), "coups": []})
    r = run("check", "empty.json", "--write-baseline", "baseline.json")
    assert r.exit_code == 2
    write(tmp_path / "clean.json", clean_doc())
    assert run("check", "clean.json", "--write-baseline", "baseline.json").exit_code == 0
