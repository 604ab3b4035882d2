"""What the README and docs promise about reports holds: the committed HTML report is the sample's,
the pre-commit hook and the CI example run `check` as documented."""

from __future__ import annotations

import hashlib

from reporting import ROOT, SAMPLE
from ruamel.yaml import YAML


def test_the_committed_html_report_is_generated_from_the_current_sample():
    page = (ROOT / "docs" / "night-shift-report.html").read_text()
    assert hashlib.sha256(SAMPLE.read_bytes()).hexdigest() in page, "regenerate it: make docs"
    assert "fixtures/samples/night-shift.json" in page
    assert "(docs/night-shift-report.html)" in (ROOT / "README.md").read_text()


def test_the_readme_shows_the_report_the_sample_gives_today():
    """The README's sample report is output, not prose: it must be what `check` prints now."""
    import subprocess
    import sys

    printed = subprocess.run([sys.executable, "-m", "compliance", "check", "fixtures/samples/night-shift.json"],
                             cwd=ROOT, capture_output=True, text=True, env={"NO_COLOR": "1", "PATH": ""}).stdout
    assert "```text\n" + printed + "```" in (ROOT / "README.md").read_text(), "regenerate the README's sample report"


def test_the_pre_commit_hook_checks_transcripts_and_procedure_documents():
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    check = next(h for h in hooks if h["id"] == "baccarat-audit-check")
    assert check["entry"].startswith("baccarat-audit check")
    assert check["language"] == "python"
    import re

    pattern = re.compile(check["files"])
    assert all(pattern.search(p) for p in ("a/recordings/night.json", "transcripts/b.jsonl", "procedures/dealing.md"))
    assert not pattern.search("notes.txt") and not pattern.search("package.json")


def test_the_ci_example_uploads_sarif_written_by_check():
    flow = YAML(typ="safe").load((ROOT / "docs" / "ci-example" / "baccarat-audit.yml").read_text())
    steps = flow["jobs"]["audit"]["steps"]
    check = next(s for s in steps if s.get("id") == "check")
    assert "baccarat-audit check" in check["run"] and "sarif=reports/baccarat-audit.sarif" in check["run"]
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert upload["with"]["sarif_file"] == "reports/baccarat-audit.sarif"
    assert flow["permissions"]["security-events"] == "write"
