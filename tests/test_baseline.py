"""Baselines: findings known before are not reported again, new ones are, stale entries are listed."""

from __future__ import annotations

import json

from reporting import STAMP, run, sample_doc, write


def test_writing_a_baseline_then_checking_against_it_reports_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "night.json", sample_doc())
    first = run("check", "night.json", "--write-baseline", "baseline.json")
    assert first.exit_code == 0  # the baseline was asked for, and written: the run succeeded
    assert "6 findings" in first.stdout  # and it still shows what it holds
    base = json.loads((tmp_path / "baseline.json").read_text())
    assert len(base["findings"]) == 6 and base["baseline_version"] == 2
    again = run("check", "night.json", "--baseline", "baseline.json", "-f", "json", "--timestamp", STAMP)
    doc = json.loads(again.stdout)
    assert again.exit_code == 0
    assert doc["findings"] == [] and doc["counts"]["baselined"] == 6 and doc["baseline"]["stale"] == []


def test_a_new_finding_is_reported_an_old_one_is_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    late = next(c for c in doc["coups"] if c["coup"] == 6)
    doc["coups"] = [c for c in doc["coups"] if c["coup"] != 6]
    write(tmp_path / "night.json", doc)
    run("check", "night.json", "--write-baseline", "baseline.json")
    doc["coups"].append(late)  # the late wager of coup 6 is new
    write(tmp_path / "night.json", doc, indent=3)  # and every line moved: old findings stay known
    r = run("check", "night.json", "--baseline", "baseline.json", "-f", "json")
    out = json.loads(r.stdout)
    assert [(f["rule"], f["coup"]) for f in out["findings"]] == [("BAC-WAGER-LATE", 6)]
    assert out["counts"]["baselined"] == 5 and r.exit_code == 1


def test_stale_entries_are_listed_not_fatal(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    write(tmp_path / "night.json", doc)
    run("check", "night.json", "--write-baseline", "baseline.json")
    doc["coups"] = [c for c in doc["coups"] if c["coup"] != 6]  # the late wager is gone
    write(tmp_path / "night.json", doc)
    r = run("check", "night.json", "--baseline", "baseline.json", "-f", "json")
    out = json.loads(r.stdout)
    assert r.exit_code == 0
    assert [(e["rule"], e["coup"]) for e in out["baseline"]["stale"]] == [("BAC-WAGER-LATE", 6)]
    text = run("check", "night.json", "--baseline", "baseline.json")
    assert "stale baseline entry" in text.stdout and "BAC-WAGER-LATE in night.json coup 6" in text.stdout
    assert text.stdout.splitlines()[-1].endswith("5 in the baseline, 1 stale baseline entry")


def test_a_baseline_that_is_not_one_stops_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "night.json", sample_doc())
    (tmp_path / "b.json").write_text('{"findings": 3}')
    r = run("check", "night.json", "--baseline", "b.json")
    assert r.exit_code == 2 and "not a baccarat-audit baseline" in r.stderr


def test_the_baseline_file_is_the_same_bytes_every_time(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "night.json", sample_doc())
    run("check", "night.json", "--write-baseline", "one.json")
    run("check", "night.json", "--write-baseline", "two.json")
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "two.json").read_bytes()


def test_writing_a_baseline_fails_only_when_an_input_could_not_be_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "night.json", sample_doc())
    r = run("check", "night.json", "missing.json", "--write-baseline", "audit/baseline.json")
    assert r.exit_code == 2  # the baseline is written, but it misses what could not be read
    assert json.loads((tmp_path / "audit" / "baseline.json").read_text())["findings"]  # its directory made
