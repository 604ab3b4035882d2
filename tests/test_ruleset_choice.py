"""A transcript never chooses the rules it is judged by, and every report names the rules it was judged by.

``table.jurisdiction`` is a bundled ruleset id, or one the configuration maps
to a ruleset; a value that names a file (a path, a ``.yaml`` name, ``/etc/passwd``,
``/dev/zero``) is refused, never read.  Each report names the ruleset's id and
its content hash: SHA-256 of the SHA-256 of each file of its ``extends``
chain, base first (``sha256sum base.yaml ruleset.yaml | cut -c1-64 | sha256sum``).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest
from reporting import STAMP, run, sample_doc, write

from compliance.ruleset.loader import bundled_dir, load_ruleset

# a ruleset planted next to the evidence: us-nj with the five rules the sample breaks switched off
PLANTED = """id: notes
title: recording notes
version: '1'
extends: us-nj
overrides:
  BAC-DRAW-BANKER-ILLEGAL: {enabled: false}
  BAC-DRAW-BANKER-MISSING: {enabled: false}
  BAC-DRAW-PLAYER-MISSING: {enabled: false}
  BAC-SETTLE-AMOUNT: {enabled: false}
  BAC-WAGER-LATE: {enabled: false}
"""


def _evidence(tmp_path, jurisdiction: str, name: str = "r3.json"):
    doc = sample_doc()
    doc["table"]["jurisdiction"] = jurisdiction
    return write(tmp_path / name, doc)


def _cli(tmp_path, *args: str, timeout: int = 60):
    """The real command, with a time limit: a jurisdiction read as /dev/zero would never end."""
    r = subprocess.run([sys.executable, "-m", "compliance", *args], cwd=tmp_path, capture_output=True, text=True,
                       timeout=timeout)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_a_transcript_naming_a_planted_ruleset_is_refused_not_judged_by_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "recordings").mkdir()
    (tmp_path / "recordings" / "notes.yaml").write_text(PLANTED)
    _evidence(tmp_path, "recordings/notes.yaml")
    r = run("check", "r3.json", "-f", "json", "--timestamp", STAMP)
    assert r.exit_code == 2
    assert "table.jurisdiction: 'recordings/notes.yaml' is not a ruleset id" in r.stderr
    assert json.loads(r.stdout)["findings"] == []  # nothing was judged, and the run says it failed
    # the same evidence under its real jurisdiction: the six breaches
    _evidence(tmp_path, "us-nj")
    assert len(json.loads(run("check", "r3.json", "-f", "json").stdout)["findings"]) == 6


@pytest.mark.parametrize("value", ["/etc/passwd", "/dev/zero", "notes.yaml", "../rulesets/us-nj", ""] + [
    pytest.param(v, marks=pytest.mark.slow) for v in ("us-nj.yaml", "./us-nj", "us-nj/", "US-NJ", "coverage", "us-nj\n")])
def test_a_jurisdiction_that_is_not_a_ruleset_id_is_never_read(tmp_path, value):
    (tmp_path / "notes.yaml").write_text(PLANTED)
    _evidence(tmp_path, value)
    r = _cli(tmp_path, "check", "r3.json")
    assert r.returncode == 2
    if value:
        assert "is not a ruleset id" in r.stderr and "never a file" in r.stderr
    else:
        assert "names no table.jurisdiction" in r.stderr


def test_the_configuration_may_map_a_jurisdiction_to_a_ruleset_file(tmp_path, monkeypatch):
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "casino.yaml").write_text(PLANTED.replace("id: notes", "id: casino-house"))
    (tmp_path / ".baccarat-audit.yaml").write_text("jurisdictions:\n  casino-house: house/casino.yaml\n"
                                                    "  nj-floor: us-nj\n")
    (tmp_path / "work").mkdir()
    _evidence(tmp_path / "work", "casino-house", "a.json")
    _evidence(tmp_path / "work", "nj-floor", "b.json")
    monkeypatch.chdir(tmp_path / "work")  # the file's path is relative to the configuration file
    doc = json.loads(run("check", "a.json", "b.json", "-f", "json").stdout)
    assert [t["ruleset"]["id"] for t in doc["transcripts"]] == ["casino-house", "us-nj"]
    assert {f["transcript"] for f in doc["findings"]} == {"b.json"}


def test_the_operator_may_still_name_a_ruleset_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.yaml").write_text(PLANTED)
    _evidence(tmp_path, "us-nj")
    r = run("check", "r3.json", "--ruleset", "notes.yaml", "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["transcripts"][0]["ruleset"]["id"] == "notes"


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_ruleset_hash_covers_every_file_of_its_extends_chain(tmp_path):
    base, nj = bundled_dir() / "punto-banco.yaml", bundled_dir() / "us-nj.yaml"
    expected = hashlib.sha256(f"{_sha(base)}\n{_sha(nj)}\n".encode()).hexdigest()
    assert load_ruleset("us-nj").sha256 == expected
    assert load_ruleset("us-nj").files == [str(base.resolve()), str(nj.resolve())]
    # a house ruleset over a copy of its parent: changing the parent changes the house ruleset's hash
    (tmp_path / "parent.yaml").write_text(nj.read_text().replace("extends: punto-banco", f"extends: {base}"))
    (tmp_path / "house.yaml").write_text(PLANTED.replace("extends: us-nj", "extends: parent.yaml"))
    before = load_ruleset(str(tmp_path / "house.yaml")).sha256
    (tmp_path / "parent.yaml").write_text((tmp_path / "parent.yaml").read_text() + "# edited\n")
    assert load_ruleset(str(tmp_path / "house.yaml")).sha256 != before


FORMATS = ("text", "json", "sarif", "junit", "markdown", "html")


def test_every_report_names_the_ruleset_and_its_hash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _evidence(tmp_path, "us-nj")
    nj = load_ruleset("us-nj")
    args = [a for f in FORMATS for a in ("-o", f"{f}=report.{f}")]
    run("check", "r3.json", *args, "--timestamp", STAMP)
    for f in FORMATS:
        text = (tmp_path / f"report.{f}").read_text()
        assert "us-nj" in text and nj.sha256 in text, f
    plain = (tmp_path / "report.text").read_text().splitlines()
    assert plain[-2] == f"ruleset us-nj {nj.version}, sha256 {nj.sha256}"
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["rulesets"][0]["sha256"] == doc["transcripts"][0]["ruleset"]["sha256"] == nj.sha256
