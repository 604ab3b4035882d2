"""Configuration: found upward from the working directory; the YAML file wins over pyproject.toml in one
directory; command-line flags win over both; `config show` prints the effective settings."""

from __future__ import annotations

import json

from reporting import run, sample_into

from compliance import config


def test_no_file_means_the_defaults(tmp_path):
    assert config.discover(tmp_path) is None
    s = config.load(start=tmp_path)
    assert s["fail-on"] == "error" and s.origin["fail-on"] == "default"


def test_pyproject_table_is_found_from_a_subdirectory(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.baccarat-audit]\nruleset = "au-nsw"\nwaivers = "audit/w.yaml"\n')
    (tmp_path / "recordings" / "march").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "recordings" / "march")
    s = config.load()
    assert s.file == tmp_path / "pyproject.toml"
    assert s["ruleset"] == "au-nsw"
    assert s["waivers"] == "../../audit/w.yaml"  # relative to the file, shown from here


def test_a_pyproject_without_the_table_does_not_stop_the_search(tmp_path):
    (tmp_path / ".baccarat-audit.yaml").write_text("fail-on: warning\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert config.discover(tmp_path / "sub") == tmp_path / ".baccarat-audit.yaml"


def test_the_nearest_file_wins_and_yaml_beats_pyproject_in_one_directory(tmp_path):
    (tmp_path / ".baccarat-audit.yaml").write_text("ruleset: us-in\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text('[tool.baccarat-audit]\nruleset = "nz"\n')
    assert config.load(start=tmp_path / "sub")["ruleset"] == "nz"
    (tmp_path / "sub" / ".baccarat-audit.yaml").write_text("ruleset: au-nsw\n")
    assert config.load(start=tmp_path / "sub")["ruleset"] == "au-nsw"


def test_flags_win_over_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / ".baccarat-audit.yaml").write_text("format: json\nfail-on: info\npaths: [night-shift.json]\n")
    from_file = run("check")  # paths, format and fail-on from the file
    assert json.loads(from_file.stdout)["fail_on"] == "info"
    flagged = run("check", "night-shift.json", "--format", "text", "--fail-on", "error")
    assert flagged.stdout.splitlines()[-1] == ("checked 1 transcript, 6 coups, 6 findings: 6 error; "
                                               "net 50 USD paid to patrons beyond what was due")


def test_unknown_settings_are_errors_that_name_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / ".baccarat-audit.yaml").write_text("fail_on_severity: warning\n")
    r = run("check", "night-shift.json")
    assert r.exit_code == 2 and ".baccarat-audit.yaml" in r.stderr and "fail_on_severity" in r.stderr


def test_config_show_prints_the_effective_settings_and_their_origin(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.baccarat-audit]\nruleset = "us-nj"\noutput = ["sarif=r.sarif"]\n')
    r = run("config", "show", "--config", "pyproject.toml")  # outputs: only from a configuration named
    assert r.exit_code == 0
    assert "pyproject.toml" in r.stdout.splitlines()[0]
    assert any(line.startswith('ruleset = "us-nj"') and line.endswith("# pyproject.toml") for line in r.stdout.splitlines())
    assert any(line.startswith('fail-on = "error"') and line.endswith("# default") for line in r.stdout.splitlines())
    doc = json.loads(run("config", "show", "--json", "--config", "pyproject.toml").stdout)
    assert doc["settings"]["output"] == {"value": ["sarif=r.sarif"], "from": "pyproject.toml"}


def test_an_explicit_config_file_replaces_discovery(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".baccarat-audit.yaml").write_text("ruleset: us-in\n")
    (tmp_path / "ci.yaml").write_text("ruleset: nz\n")
    assert json.loads(run("config", "show", "--json", "--config", "ci.yaml").stdout)["settings"]["ruleset"]["value"] == "nz"


def test_configured_reports_are_written_and_a_format_flag_still_prints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / ".baccarat-audit.yaml").write_text("output: [sarif=reports/r.sarif]\n")
    (tmp_path / "reports").mkdir()
    named = ("--config", ".baccarat-audit.yaml")  # outputs: only from a configuration named (docs/security.md)
    quiet = run("check", "night-shift.json", *named)
    assert quiet.stdout == "" and (tmp_path / "reports" / "r.sarif").exists()
    (tmp_path / "reports" / "r.sarif").unlink()
    loud = run("check", "night-shift.json", "--format", "json", *named)
    assert json.loads(loud.stdout)["counts"]["findings"] == 6 and (tmp_path / "reports" / "r.sarif").exists()


def test_nothing_to_check_is_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("check")
    assert r.exit_code == 2 and "name the transcripts to check" in r.stderr
