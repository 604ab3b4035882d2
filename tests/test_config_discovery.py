"""Another project's broken pyproject.toml never stops a check; a configured ruleset file is the file's.

The search upward stops at the first ``.baccarat-audit.yaml``, or the first
``pyproject.toml`` with a ``[tool.baccarat-audit]`` table.  A ``pyproject.toml``
that cannot be read or parsed is passed over, unless it shows that table:
then it is ours, and broken, and the run stops.  ``ruleset:`` (and a
``jurisdictions:`` value) that names a file is relative to the configuration
file, as every other path in it.
"""

from __future__ import annotations

import json

from reporting import run, sample_into

from compliance import config

HOUSE = "id: house\ntitle: house rules\nversion: '1'\nextends: us-nj\noverrides:\n  BAC-WAGER-LATE: {enabled: false}\n"


def test_a_broken_unrelated_pyproject_above_is_passed_over(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[project\nname = 'someone else'\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    sample_into(tmp_path / "sub")
    assert config.discover() is None
    r = run("check", "night-shift.json")
    assert r.exit_code == 1 and "pyproject.toml" not in r.stderr


def test_an_unrelated_pyproject_that_is_not_utf8_is_passed_over(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_bytes(b"[project]\nname = '\xff\xfe'\n")
    assert config.discover(tmp_path) is None


def test_the_search_stops_at_the_first_file_with_our_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.baccarat-audit]\nfail-on = 'warning'\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "pyproject.toml").write_text("[project\nbroken and not ours\n")
    assert config.discover(tmp_path / "a") == tmp_path / "pyproject.toml"


def test_a_broken_pyproject_that_is_ours_stops_the_run(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.baccarat-audit]\nfail-on = \n")
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json")
    assert r.exit_code == 2 and "pyproject.toml: not valid TOML" in r.stderr


def test_a_configured_ruleset_file_is_relative_to_the_configuration_file(tmp_path, monkeypatch):
    (tmp_path / "audit").mkdir()
    (tmp_path / "audit" / "house.yaml").write_text(HOUSE)
    (tmp_path / "audit" / ".baccarat-audit.yaml").write_text("ruleset: house.yaml\n")
    (tmp_path / "audit" / "recordings").mkdir()
    sample_into(tmp_path / "audit" / "recordings")
    monkeypatch.chdir(tmp_path / "audit" / "recordings")
    assert config.load()["ruleset"] == "../house.yaml"
    out = json.loads(run("check", "night-shift.json", "-f", "json").stdout)
    assert out["transcripts"][0]["ruleset"]["id"] == "house"
    assert "BAC-WAGER-LATE" not in {f["rule"] for f in out["findings"]}


def test_a_configured_ruleset_id_stays_an_id(tmp_path, monkeypatch):
    (tmp_path / ".baccarat-audit.yaml").write_text("ruleset: us-nj\njurisdictions:\n  floor-7: house.yaml\n")
    (tmp_path / "sub").mkdir()
    settings = config.load(start=tmp_path / "sub")
    assert settings["ruleset"] == "us-nj"
    assert settings["jurisdictions"] == {"floor-7": config._relative(tmp_path, "house.yaml")}
