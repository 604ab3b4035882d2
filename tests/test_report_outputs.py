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
    ("report.sarif", ("sarif", "report.sarif")),
    ("x=y.md", ("markdown", "x=y.md")),  # not a format before the "=": the whole is the file's name
    ("html=-", ("html", "-")),
])
def test_an_output_is_format_equals_file_or_a_file_named_by_its_suffix(spec, expected):
    from pathlib import Path

    from compliance.cli.check import parse_outputs

    fmt, path = expected
    assert parse_outputs([spec], None) == [(fmt, Path(path))]
