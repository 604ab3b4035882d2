"""Several reports in one run, written atomically, the same bytes every time; exit status 0/1/2 and --fail-on."""

from __future__ import annotations

import json
import os

import pytest
from reporting import STAMP, clean_doc, run, sample_into, write

FORMATS = ["text", "json", "sarif", "junit", "markdown", "html"]


def test_several_reports_in_one_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-o", "sarif=r.sarif", "-o", "junit=r.xml", "-o", "report.html",
            "-o", "out.json", "--timestamp", STAMP)
    assert r.exit_code == 1
    assert r.stdout == ""  # --output replaces standard output
    assert "checked 1 transcript" in r.stderr
    assert json.loads((tmp_path / "r.sarif").read_text())["version"] == "2.1.0"
    assert (tmp_path / "r.xml").read_text().startswith("<?xml")
    assert (tmp_path / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert json.loads((tmp_path / "out.json").read_text())["findings"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night-shift.json", "out.json", "r.sarif", "r.xml",
                                                          "report.html"]  # no temporary file left


def test_format_dash_writes_to_standard_output_as_well(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-o", "json=-", "-o", "markdown=pr.md")
    assert json.loads(r.stdout)["counts"]["findings"] == 6
    assert (tmp_path / "pr.md").read_text().startswith("### baccarat-audit")


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_same_input_gives_the_same_bytes(tmp_path, monkeypatch, fmt):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    args = ["check", "night-shift.json", "clean.json", "-f", fmt]
    first = run(*args, "--timestamp", STAMP).stdout
    second = run(*args, env={"SOURCE_DATE_EPOCH": "1795953600"}).stdout  # the same instant
    assert first == second and first


def test_an_interrupted_write_leaves_the_previous_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "report.json").write_text("previous report\n")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    try:
        r = run("check", "night-shift.json", "-o", "report.json")
        assert r.exit_code != 0  # the command line reports the interruption
    except KeyboardInterrupt:
        pass
    assert (tmp_path / "report.json").read_text() == "previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night-shift.json", "report.json"]


def test_exit_status(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    assert run("check", "clean.json").exit_code == 0
    assert run("check", "night-shift.json").exit_code == 1
    assert run("check", "clean.json", "missing.json").exit_code == 2
    assert run("check", "night-shift.json", "--format", "yaml").exit_code == 2
    (tmp_path / "lenient.yaml").write_text("id: lenient\ntitle: t\nversion: '1'\nextends: us-nj\noverrides:\n"
                                           + "".join(f"  {rule}: {{severity: warning}}\n" for rule in (
                                               "BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING",
                                               "BAC-DRAW-PLAYER-MISSING", "BAC-SETTLE-AMOUNT", "BAC-WAGER-LATE")))
    assert run("check", "night-shift.json", "-r", "lenient.yaml").exit_code == 0
    assert run("check", "night-shift.json", "-r", "lenient.yaml", "--fail-on", "warning").exit_code == 1


@pytest.mark.parametrize("spec, expected", [
    ("json=out/r.json", ("json", "out/r.json")),
    ("SARIF=a.sarif", ("sarif", "a.sarif")),  # format names in any case
    ("Html=report", ("html", "report")),
    ("report.sarif", ("sarif", "report.sarif")),
    ("report.sarif.json", ("sarif", "report.sarif.json")),
    ("REPORT.HTML", ("html", "REPORT.HTML")),
    ("audit.junit.xml", ("junit", "audit.junit.xml")),
    ("pr.markdown", ("markdown", "pr.markdown")),
    ("./x=y.md", ("markdown", "./x=y.md")),  # a file whose name holds "=": the whole is the file's name
    ("out/2026=03.json", ("json", "out/2026=03.json")),
    ("report", ("text", "report")),  # no extension: text
    ("html=-", ("html", "-")),
])
def test_an_output_is_format_equals_file_or_a_file_named_by_its_extension(spec, expected):
    from pathlib import Path

    from compliance._internal.run import parse_outputs

    fmt, path = expected
    assert parse_outputs([spec], None) == [(fmt, Path(path))]


KNOWN = "known formats: text, json, sarif, junit, markdown, html, github, gitlab"


@pytest.mark.parametrize("spec, message", [
    ("pdf=x.pdf", f"--output: unknown report format 'pdf' in 'pdf=x.pdf'; {KNOWN}"),
    ("x=y.md", f"--output: unknown report format 'x' in 'x=y.md'; {KNOWN}"),
    ("report.pdf", "--output: cannot tell the report format of 'report.pdf' from its extension"),
    ("json=", "--output: 'json=' names no file"),
])
def test_an_unknown_format_is_refused_with_the_known_ones_and_nothing_is_written(tmp_path, monkeypatch, spec,
                                                                                 message):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-o", spec)
    assert r.exit_code == 2 and r.stderr.startswith(f"baccarat-audit: {message}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night-shift.json"]


def test_a_known_extension_gives_the_format(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    run("check", "night-shift.json", "-o", "r.SARIF", "-o", "r.sarif.json", "-o", "r.junit.xml", "-o", "r.htm")
    assert json.loads((tmp_path / "r.SARIF").read_text())["version"] == "2.1.0"
    assert json.loads((tmp_path / "r.sarif.json").read_text())["version"] == "2.1.0"
    assert (tmp_path / "r.junit.xml").read_text().startswith("<?xml")
    assert (tmp_path / "r.htm").read_text().startswith("<!DOCTYPE html>")


def test_a_report_directory_that_does_not_exist_is_made(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-o", "reports/2026/11/audit.json", "-o", "junit=reports/ci/junit.xml")
    assert r.exit_code == 1
    assert json.loads((tmp_path / "reports/2026/11/audit.json").read_text())["counts"]["findings"] == 6
    assert (tmp_path / "reports/ci/junit.xml").exists()


def test_a_report_directory_that_cannot_be_made_is_one_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "reports").write_text("a file where the directory should be\n")
    r = run("check", "night-shift.json", "-o", "reports/audit.json")
    assert r.exit_code == 2 and "baccarat-audit: reports/audit.json: cannot write: Not a directory" in r.stderr


def test_an_unknown_format_in_the_configuration_names_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "ci.yaml").write_text("output: [PDF=audit.pdf]\n")  # outputs: a configuration named
    r = run("check", "night-shift.json", "--config", "ci.yaml")
    assert r.exit_code == 2
    assert "ci.yaml:1:1: setting output: unknown report format 'PDF'" in r.stderr
    (tmp_path / "ci.yaml").write_text("output: [audit.pdf]\nformat: JSON\n")  # format in any case
    assert run("check", "night-shift.json", "--config", "ci.yaml").exit_code == 1
    assert json.loads((tmp_path / "audit.pdf").read_text())["counts"]["findings"] == 6


def test_format_names_are_case_insensitive_on_the_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    assert json.loads(run("check", "night-shift.json", "--format", "JSON").stdout)["counts"]["findings"] == 6
    assert run("check", "night-shift.json", "--fail-on", "Warning").exit_code == 1


# ------------------------------------------------------------------ --quiet, --statistics


def test_quiet_prints_the_findings_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    write(tmp_path / "empty.json", {**clean_doc(), "coups": []})
    r = run("check", "night-shift.json", "empty.json", "-q")
    assert r.exit_code == 1
    assert len(r.stdout.splitlines()) == 6 and all(" error BAC-" in line for line in r.stdout.splitlines())
    assert r.stderr == ""  # no warning about the empty transcript, no summary
    r = run("check", "night-shift.json", "-q", "-f", "json")
    assert r.stderr == "" and len(json.loads(r.stdout)["findings"]) == 6


def test_statistics_count_the_findings_by_rule(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "--statistics", "-o", "json=full.json")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["findings", "coups", "rule", "category", "severity", "title"]
    assert lines[1].split()[:5] == ["2", "2", "BAC-DRAW-BANKER-ILLEGAL", "third-card.banker.illegal", "error"]
    assert [line.split()[2] for line in lines[2:-1]] == ["BAC-DRAW-BANKER-MISSING", "BAC-DRAW-PLAYER-MISSING",
                                                         "BAC-SETTLE-AMOUNT", "BAC-WAGER-LATE"]
    assert lines[-1] == "money: net 50 USD paid to patrons beyond what was due"
    assert len(json.loads((tmp_path / "full.json").read_text())["findings"]) == 6  # the report is still written
    doc = json.loads(run("check", "night-shift.json", "--statistics", "-f", "json").stdout)
    stats = doc["rules"]
    assert doc["money"]["net"] == "50" and doc["money"]["currency"] == "USD"  # the net, as the report gives it
    assert stats[0] == {"rule": "BAC-DRAW-BANKER-ILLEGAL", "category": "third-card.banker.illegal",
                        "severity": "error", "count": 2, "coups": 2,
                        "title": "Banker's Hand draws only when the tableau says draw"}
    assert sum(s["count"] for s in stats) == 6
